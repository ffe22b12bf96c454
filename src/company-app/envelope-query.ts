/**
 * The envelope list's filters as they come in the address (GET, so a filtered list can be kept and
 * shared): read, checked and bounded. A value that cannot be one (a date that is no date, a page
 * that is no number) is a problem the page shows, never a query.
 */
import type { EnvelopeStatus } from '../data/schema.js';
import { type EnvelopeFilters, envelopeStates } from '../domain/envelopes/company-envelopes.js';
import { isUuid } from '../lib/ids.js';

export const PER_PAGE_DEFAULT = 25;
export const PER_PAGE_MAX = 100;
/** Past this page the list is better narrowed than paged: the bound keeps OFFSET cheap. */
export const PAGE_MAX = 1000;
export const SEARCH_MAX = 200;

export type EnvelopeQueryField = 'q' | 'state' | 'template' | 'sender' | 'from' | 'to' | 'page' | 'per_page';

/** What the form shows back, as it was typed. */
export type EnvelopeQueryEcho = Partial<Record<EnvelopeQueryField, string>>;

export type EnvelopeQuery = {
  echo: EnvelopeQueryEcho;
  filters: EnvelopeFilters;
  page: number;
  perPage: number;
  /** The fields that could not be read; the list is then not asked. */
  problems: EnvelopeQueryField[];
};

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The instant a day (YYYY-MM-DD, UTC) begins, or null for what is not a day of the calendar. */
export function dayStart(text: string): Date | null {
  const match = DAY.exec(text);
  if (!match) return null;
  const at = new Date(`${text}T00:00:00.000Z`);
  return Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== text ? null : at;
}

const wholeNumber = (text: string, min: number, max: number) => (/^\d{1,7}$/.test(text) && Number(text) >= min && Number(text) <= max ? Number(text) : null);

export function readEnvelopeQuery(query: (name: string) => string | undefined): EnvelopeQuery {
  const echo: EnvelopeQueryEcho = {};
  for (const name of ['q', 'state', 'template', 'sender', 'from', 'to', 'page', 'per_page'] as const) {
    const value = query(name)?.trim();
    if (value) echo[name] = value;
  }
  const problems: EnvelopeQueryField[] = [];
  const filters: EnvelopeFilters = {};
  if (echo.q !== undefined) {
    if (echo.q.length > SEARCH_MAX) problems.push('q');
    else filters.search = echo.q;
  }
  if (echo.state !== undefined) {
    if ((envelopeStates as readonly string[]).includes(echo.state)) filters.state = echo.state as EnvelopeStatus;
    else problems.push('state');
  }
  // An id that is no uuid matches nothing; asked as such, it would fail the query's cast.
  if (echo.template !== undefined) {
    if (isUuid(echo.template)) filters.templateId = echo.template;
    else problems.push('template');
  }
  if (echo.sender !== undefined) {
    if (isUuid(echo.sender)) filters.senderUserId = echo.sender;
    else problems.push('sender');
  }
  if (echo.from !== undefined) {
    const from = dayStart(echo.from);
    if (from) filters.sentFrom = from;
    else problems.push('from');
  }
  if (echo.to !== undefined) {
    const to = dayStart(echo.to);
    // The last day is included: sent before the next one begins.
    if (to) filters.sentBefore = new Date(to.getTime() + 24 * 3600 * 1000);
    else problems.push('to');
  }
  if (filters.sentFrom && filters.sentBefore && filters.sentFrom >= filters.sentBefore) problems.push('to');
  const page = echo.page === undefined ? 1 : wholeNumber(echo.page, 1, PAGE_MAX);
  if (page === null) problems.push('page');
  const perPage = echo.per_page === undefined ? PER_PAGE_DEFAULT : wholeNumber(echo.per_page, 1, PER_PAGE_MAX);
  if (perPage === null) problems.push('per_page');
  return { echo, filters, page: page ?? 1, perPage: perPage ?? PER_PAGE_DEFAULT, problems };
}

/** The list's address with these filters and another page. */
export function envelopeListHref(echo: EnvelopeQueryEcho, page: number): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(echo)) if (name !== 'page' && value) params.set(name, value);
  if (page > 1) params.set('page', String(page));
  const search = params.toString();
  return search ? `/app/envelopes?${search}` : '/app/envelopes';
}
