/**
 * The audit log's filters and place as they come in the address (GET, so a filtered log can be
 * kept): the group of kinds, the person, and the keyset cursor (`before` an older page, `after` a
 * newer one). A value that cannot be one is a problem the page shows, never a query.
 */
import { type AuditGroup, type AuditQuery, auditGroups } from '../domain/audit/company-audit-log.js';
import { isUuid } from '../lib/ids.js';

export type AuditQueryField = 'group' | 'user' | 'before' | 'after';

export type AuditListQuery = {
  /** What the form and the pager's links carry on, as it was given. */
  echo: Partial<Record<AuditQueryField, string>>;
  query: AuditQuery;
  problems: AuditQueryField[];
};

/** A `seq`: a whole number from 1, at most 15 digits (an identity column's values stay far below). */
const cursor = (text: string) => (/^[1-9]\d{0,14}$/.test(text) ? Number(text) : null);

export function readAuditQuery(param: (name: string) => string | undefined): AuditListQuery {
  const echo: AuditListQuery['echo'] = {};
  for (const name of ['group', 'user', 'before', 'after'] as const) {
    const value = param(name)?.trim();
    if (value) echo[name] = value;
  }
  const problems: AuditQueryField[] = [];
  const query: AuditQuery = {};
  if (echo.group !== undefined) {
    if ((auditGroups as readonly string[]).includes(echo.group)) query.group = echo.group as AuditGroup;
    else problems.push('group');
  }
  // Whether the person is one of the company's is known once its people are read (audit-list.ts).
  if (echo.user !== undefined) {
    if (isUuid(echo.user)) query.userId = echo.user.toLowerCase();
    else problems.push('user');
  }
  for (const name of ['before', 'after'] as const) {
    const text = echo[name];
    if (text === undefined) continue;
    const seq = cursor(text);
    if (seq === null) problems.push(name);
    else query[name] = seq;
  }
  // One direction at a time: both at once is no page.
  if (query.before !== undefined && query.after !== undefined) problems.push('after');
  return { echo, query, problems };
}

/** The address of the log with these filters, at a cursor. */
export function auditHref(echo: AuditListQuery['echo'], at: { before?: number; after?: number } = {}): string {
  const params = new URLSearchParams();
  if (echo.group) params.set('group', echo.group);
  if (echo.user) params.set('user', echo.user);
  if (at.before !== undefined) params.set('before', String(at.before));
  if (at.after !== undefined) params.set('after', String(at.after));
  const text = params.toString();
  return text ? `/app/audit?${text}` : '/app/audit';
}
