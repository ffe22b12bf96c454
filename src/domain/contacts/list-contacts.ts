import { count, desc, eq, getTableColumns } from 'drizzle-orm';
import { contacts } from '../../data/schema.js';
import type { CompanyReadContext, PageRequest } from '../read-context.js';
import { type Page, pageOffset, pageWithTotal, totalOfAll } from '../shared/pagination.js';
import { type Contact, toContact } from './contact-record.js';

/** GET /v1/contacts: the company's contacts, newest first, with the count of all in the same query. */
export async function listContacts({ services, companyId }: CompanyReadContext, { page, perPage }: PageRequest): Promise<Page<Contact>> {
  const { db } = services.database;
  const mine = eq(contacts.companyId, companyId);
  const rows = await db
    .select({ ...getTableColumns(contacts), total: totalOfAll() })
    .from(contacts)
    .where(mine)
    .orderBy(desc(contacts.createdAt), desc(contacts.id))
    .limit(perPage)
    .offset(pageOffset(page, perPage));
  return pageWithTotal(rows, toContact, page, perPage, () => db.select({ total: count() }).from(contacts).where(mine));
}
