/**
 * A company's audit trail as its owners and administrators read it in the application: every row
 * of `audit_events` of the company, newest first, in pages of a keyset on `seq` (the order rows were
 * written in: rows of one change share their time), each with the names that make it a sentence
 * (the user, the API key's prefix, the recipient, the envelope's title). The page reads it in one
 * wave with the company's people, whom it offers as a filter. Every query is scoped to the company: another
 * company's rows, users, keys and envelopes never appear.
 */
import { and, asc, desc, eq, gt, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type AuditKind, auditKinds } from '../../data/event-kinds.js';
import { apiKeys, auditEvents, envelopes, recipients, users } from '../../data/schema.js';
import type { CompanyReadContext } from '../read-context.js';

export const AUDIT_PAGE_SIZE = 50;

/** The key a row of `api_key.*` is about (data.api_key_id), beside the key that acted. */
const subjectKeys = alias(apiKeys, 'subject_key');

/** The groups a reader filters by, each a set of kinds told by their names. */
export const auditGroups = ['sign-ins', 'keys', 'users', 'envelopes', 'webhooks', 'settings'] as const;
export type AuditGroup = (typeof auditGroups)[number];

const signInKinds: readonly string[] = ['user.signed_in', 'user.signed_out', 'user.session_ended'];

/** The group of a kind, from its name: a kind added later joins its group with no change here. */
export function groupOf(kind: string): AuditGroup | null {
  if (signInKinds.includes(kind)) return 'sign-ins';
  if (kind.startsWith('api_key.')) return 'keys';
  if (kind.startsWith('user.')) return 'users';
  if (kind.startsWith('envelope.') || kind.startsWith('recipient.') || kind.startsWith('template.')) return 'envelopes';
  if (kind.startsWith('webhook')) return 'webhooks';
  if (kind.startsWith('settings.') || kind.startsWith('company.') || kind.startsWith('brand')) return 'settings';
  return null;
}

/** The kinds of a group among those the service writes (event-kinds.ts); a group with none matches no row. */
export const kindsOf = (group: AuditGroup): string[] => auditKinds.filter((kind) => groupOf(kind) === group);

export type AuditQuery = {
  group?: AuditGroup | undefined;
  /** Rows a user of the company wrote (`actor_type` `user`). */
  userId?: string | undefined;
  /** Keyset: the rows written before this `seq` (older), or after it (newer); neither is the newest page. */
  before?: number | undefined;
  after?: number | undefined;
};

export type AuditEntry = {
  seq: number;
  kind: AuditKind;
  actorType: 'api_key' | 'admin' | 'recipient' | 'system' | 'user';
  actorId: string | null;
  /** The user's name, the key's prefix or the recipient's name, when the actor is one of those. */
  actorName: string | null;
  /** The recipient the row is about, by name. */
  recipientName: string | null;
  /** The API key a row of `api_key.*` is about. */
  subjectKey: { name: string | null; prefix: string } | null;
  envelopeId: string | null;
  envelopeTitle: string | null;
  data: Record<string, unknown>;
  at: Date;
};

export type AuditPage = { entries: AuditEntry[]; older: number | null; newer: number | null };

export type AuditPerson = { id: string; name: string; email: string };

export async function companyAuditLog(ctx: CompanyReadContext, query: AuditQuery): Promise<AuditPage> {
  const { db } = ctx.services.database;
  const { companyId } = ctx;
  const conditions: (SQL | undefined)[] = [eq(auditEvents.companyId, companyId)];
  if (query.group) conditions.push(inArray(auditEvents.kind, kindsOf(query.group) as AuditKind[]));
  if (query.userId) conditions.push(and(eq(auditEvents.actorType, 'user'), eq(auditEvents.actorId, query.userId)));
  if (query.before !== undefined) conditions.push(lt(auditEvents.seq, query.before));
  if (query.after !== undefined) conditions.push(gt(auditEvents.seq, query.after));
  // A newer page reads upwards from its cursor, then is shown newest first like every page.
  const upwards = query.after !== undefined;
  const rows = await db
    .select({
      seq: auditEvents.seq,
      kind: auditEvents.kind,
      actorType: auditEvents.actorType,
      actorId: auditEvents.actorId,
      userName: users.name,
      keyPrefix: apiKeys.prefix,
      recipientName: recipients.name,
      subjectKeyName: subjectKeys.name,
      subjectKeyPrefix: subjectKeys.prefix,
      envelopeId: auditEvents.envelopeId,
      envelopeTitle: envelopes.title,
      data: auditEvents.data,
      at: auditEvents.createdAt,
    })
    .from(auditEvents)
    // actor_id is text: a user's uuid, a key's id or a recipient's id, told by actor_type.
    .leftJoin(users, and(eq(auditEvents.actorType, 'user'), eq(users.companyId, companyId), eq(sql`${users.id}::text`, auditEvents.actorId)))
    .leftJoin(apiKeys, and(eq(auditEvents.actorType, 'api_key'), eq(apiKeys.companyId, companyId), eq(apiKeys.id, auditEvents.actorId)))
    // The recipient a row is about: the one named in its data, else the one who acted.
    .leftJoin(
      recipients,
      and(
        eq(recipients.companyId, companyId),
        eq(
          recipients.id,
          sql`coalesce(${auditEvents.data}->>'recipient_id', case when ${auditEvents.actorType} = 'recipient' then ${auditEvents.actorId} end)`,
        ),
      ),
    )
    .leftJoin(subjectKeys, and(eq(subjectKeys.companyId, companyId), eq(subjectKeys.id, sql`${auditEvents.data}->>'api_key_id'`)))
    .leftJoin(envelopes, and(eq(envelopes.id, auditEvents.envelopeId), eq(envelopes.companyId, companyId)))
    .where(and(...conditions))
    .orderBy(upwards ? asc(auditEvents.seq) : desc(auditEvents.seq))
    .limit(AUDIT_PAGE_SIZE + 1);
  const more = rows.length > AUDIT_PAGE_SIZE;
  const shown = rows.slice(0, AUDIT_PAGE_SIZE);
  if (upwards) shown.reverse();
  const entries: AuditEntry[] = shown.map((row) => ({
    seq: Number(row.seq),
    kind: row.kind,
    actorType: row.actorType,
    actorId: row.actorId,
    actorName: row.actorType === 'recipient' ? row.recipientName : (row.userName ?? row.keyPrefix),
    recipientName: row.recipientName,
    subjectKey: row.subjectKeyPrefix === null ? null : { name: row.subjectKeyName, prefix: row.subjectKeyPrefix },
    envelopeId: row.envelopeId,
    envelopeTitle: row.envelopeTitle,
    data: row.data,
    at: row.at,
  }));
  const first = entries[0]?.seq ?? null;
  const last = entries.at(-1)?.seq ?? null;
  // Older rows exist past a full page read downwards, or below any page read upwards (it began at a cursor).
  const older = (upwards ? entries.length > 0 : more) ? last : null;
  // Newer rows exist above a page that began at a cursor, or past a full page read upwards.
  const newer = (upwards ? more : query.before !== undefined) ? first : null;
  return { entries, older, newer };
}

/** The company's people, active or not, by name: whose rows the log may be filtered to. */
export async function auditPeople({ services, companyId }: CompanyReadContext): Promise<AuditPerson[]> {
  return services.database.db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(eq(users.companyId, companyId))
    .orderBy(asc(users.name), asc(users.email));
}
