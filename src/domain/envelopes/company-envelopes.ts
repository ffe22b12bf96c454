/**
 * The envelopes of a company as its people browse them in the application: one page, newest first,
 * narrowed by state, template, sender, the day it was sent, and a search in the title or the
 * recipients' addresses; and the choices the filters offer. Every read is scoped to the company.
 */
import { and, asc, count, desc, eq, gte, ilike, lt, or, type SQL, sql } from 'drizzle-orm';
import { type EnvelopeStatus, envelopes, recipients, templates, templateVersions, users } from '../../data/schema.js';
import type { CompanyReadContext, PageRequest } from '../read-context.js';
import { type Page, pageOffset, pageWithTotal, totalOfAll } from '../shared/pagination.js';

export const envelopeStates = ['sent', 'completed', 'declined', 'voided', 'expired'] as const satisfies readonly EnvelopeStatus[];

export type EnvelopeFilters = {
  state?: EnvelopeStatus;
  templateId?: string;
  senderUserId?: string;
  /** Sent at or after this instant. */
  sentFrom?: Date;
  /** Sent before this instant. */
  sentBefore?: Date;
  /** Part of the title or of a recipient's e-mail address, any case. */
  search?: string;
};

export type EnvelopeListEntry = {
  id: string;
  title: string;
  state: EnvelopeStatus;
  template: string | null;
  sender: { name: string | null; email: string };
  /** Signers who have signed, of all signers (those who receive a copy sign nothing). */
  signed: number;
  signers: number;
  sentAt: Date;
  completedAt: Date | null;
};

/** `%`, `_` and the escape itself, taken as themselves: a search for "50%" finds "50%", not everything. */
export const likeContaining = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function conditionsOf(companyId: string, filters: EnvelopeFilters): SQL[] {
  const conditions: (SQL | undefined)[] = [
    eq(envelopes.companyId, companyId),
    filters.state ? eq(envelopes.status, filters.state) : undefined,
    filters.templateId ? eq(envelopes.templateId, filters.templateId) : undefined,
    filters.senderUserId ? eq(envelopes.senderUserId, filters.senderUserId) : undefined,
    filters.sentFrom ? gte(envelopes.createdAt, filters.sentFrom) : undefined,
    filters.sentBefore ? lt(envelopes.createdAt, filters.sentBefore) : undefined,
  ];
  if (filters.search) {
    const pattern = likeContaining(filters.search);
    conditions.push(
      or(
        ilike(envelopes.title, pattern),
        sql`exists (select 1 from ${recipients} where ${and(eq(recipients.envelopeId, envelopes.id), eq(recipients.companyId, companyId), ilike(recipients.email, pattern))})`,
      ),
    );
  }
  return conditions.filter((condition): condition is SQL => condition !== undefined);
}

/** One page of the company's envelopes matching the filters, newest first, in one query (its total on every row). */
export async function listCompanyEnvelopes(
  { services, companyId }: CompanyReadContext,
  input: { filters: EnvelopeFilters } & PageRequest,
): Promise<Page<EnvelopeListEntry>> {
  const { db } = services.database;
  const { page, perPage } = input;
  const where = and(...conditionsOf(companyId, input.filters));
  const signers = sql<number>`(select count(*) from ${recipients} where ${recipients.envelopeId} = ${envelopes.id} and ${recipients.type} = 'signer')`.mapWith(
    Number,
  );
  const signed =
    sql<number>`(select count(*) from ${recipients} where ${recipients.envelopeId} = ${envelopes.id} and ${recipients.type} = 'signer' and ${recipients.status} = 'signed')`.mapWith(
      Number,
    );
  const rows = await db
    .select({
      id: envelopes.id,
      title: envelopes.title,
      state: envelopes.status,
      // The name of the version it was sent with, as its signers saw it; a later rename does not change it.
      template: sql<string | null>`coalesce(${templateVersions.name}, ${templates.name})`,
      senderName: users.name,
      senderEmail: envelopes.senderEmail,
      signed,
      signers,
      sentAt: envelopes.createdAt,
      completedAt: envelopes.completedAt,
      total: totalOfAll(),
    })
    .from(envelopes)
    .leftJoin(templates, eq(templates.id, envelopes.templateId))
    .leftJoin(templateVersions, and(eq(templateVersions.templateId, envelopes.templateId), eq(templateVersions.version, envelopes.templateVersion)))
    .leftJoin(users, eq(users.id, envelopes.senderUserId))
    .where(where)
    .orderBy(desc(envelopes.createdAt), desc(envelopes.id))
    .limit(perPage)
    .offset(pageOffset(page, perPage));
  return pageWithTotal(
    rows,
    ({ senderName, senderEmail, total: _, ...row }) => ({ ...row, sender: { name: senderName, email: senderEmail } }),
    page,
    perPage,
    () => db.select({ total: count() }).from(envelopes).where(where),
  );
}

/** The most templates and senders a filter offers; a company with more still filters by the ones listed. */
const CHOICES = 200;

/** What the list's filters offer: the company's templates and users, by name. */
export async function envelopeFilterChoices({ services, companyId }: CompanyReadContext) {
  const { db } = services.database;
  const [templateRows, senderRows] = await Promise.all([
    db.select({ id: templates.id, name: templates.name }).from(templates).where(eq(templates.companyId, companyId)).orderBy(asc(templates.name)).limit(CHOICES),
    db
      .select({ id: users.id, name: users.name, email: users.email })
      .from(users)
      .where(eq(users.companyId, companyId))
      .orderBy(asc(users.name), asc(users.email))
      .limit(CHOICES),
  ]);
  return { templates: templateRows, senders: senderRows };
}
