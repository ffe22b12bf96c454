import { and, count, eq, sql } from 'drizzle-orm';
import { insertWhen } from '../../data/insert-when.js';
import { companies, contacts } from '../../data/schema.js';
import { DomainError } from '../../errors.js';
import type { Services } from '../../services.js';
import type { CompanyContext } from '../verb-context.js';
import { type Contact, toContact } from './contact-record.js';

export type NewContact = { name: string; email: string; contact_number?: string | null | undefined };

/**
 * How many contacts a company may keep. An address book of this size is far beyond what a company
 * sends to by hand, and the bound keeps a key (1,000 requests in 15 minutes) from growing the table
 * without end (docs/reliability.md, "Bounds").
 */
export const CONTACTS_PER_COMPANY = 50_000;

/**
 * POST /v1/contacts. E-mail addresses are unique per company regardless of case: the unique index
 * decides, so two racing creates give one 201 and one 409. The company's row is locked first, so
 * that creates of one company take turns and the count under the bound is exact.
 */
export async function createContact(ctx: CompanyContext, input: NewContact): Promise<Contact> {
  const { services, companyId } = ctx;
  const id = crypto.randomUUID();
  const mine = eq(contacts.companyId, companyId);
  const [, , created] = await services.database.atomic((q) => [
    q
      .update(companies)
      .set({ id: sql`${companies.id}` })
      .where(eq(companies.id, companyId)),
    insertWhen(
      q,
      contacts,
      { id, companyId, name: input.name, email: input.email, contactNumber: input.contact_number ?? null, createdAt: ctx.now },
      sql`(select count(*) from ${contacts} where ${mine}) < ${CONTACTS_PER_COMPANY}`,
    ),
    q
      .select()
      .from(contacts)
      .where(and(eq(contacts.id, id), mine)),
  ]);
  const [row] = created as (typeof contacts.$inferSelect)[];
  if (row) return toContact(row);
  throw await whyNotCreated(services, companyId, input.email);
}

async function whyNotCreated(services: Services, companyId: string, email: string): Promise<DomainError> {
  const { db } = services.database;
  const mine = eq(contacts.companyId, companyId);
  const [same] = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(mine, sql`lower(${contacts.email}) = lower(${email})`))
    .limit(1);
  if (same) return new DomainError('contact_exists', 'A contact with this e-mail already exists in this company.', { email });
  const [held] = await db.select({ total: count() }).from(contacts).where(mine);
  return new DomainError('contact_limit_reached', `This company already keeps ${CONTACTS_PER_COMPANY} contacts, the most it may.`, {
    limit: CONTACTS_PER_COMPANY,
    contacts: held?.total ?? CONTACTS_PER_COMPANY,
  });
}
