import { count, desc, eq } from 'drizzle-orm';
import { contacts } from '../../data/schema.js';
import type { Services } from '../../services.js';
import { type Page, pageOffset, toPage } from '../shared/pagination.js';
import { type Contact, toContact } from './contact-record.js';

/** GET /v1/contacts: the company's contacts, newest first. */
export async function listContacts(services: Services, companyId: string, page: number, perPage: number): Promise<Page<Contact>> {
  const { db } = services.database;
  const [rows, [totals]] = await Promise.all([
    db
      .select()
      .from(contacts)
      .where(eq(contacts.companyId, companyId))
      .orderBy(desc(contacts.createdAt), desc(contacts.id))
      .limit(perPage)
      .offset(pageOffset(page, perPage)),
    db.select({ total: count() }).from(contacts).where(eq(contacts.companyId, companyId)),
  ]);
  return toPage(rows.map(toContact), totals?.total ?? 0, page, perPage);
}
