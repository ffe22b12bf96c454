import { contacts } from '../../data/schema.js';
import { DomainError } from '../../errors.js';
import type { Services } from '../../services.js';
import { type Contact, toContact } from './contact-record.js';

export type NewContact = { name: string; email: string; contact_number?: string | null | undefined };

/**
 * POST /v1/contacts. E-mail addresses are unique per company regardless of case; the unique
 * index decides, so two racing creates give one 201 and one 409.
 */
export async function createContact(services: Services, companyId: string, input: NewContact): Promise<Contact> {
  const [row] = await services.database.db
    .insert(contacts)
    .values({
      companyId,
      name: input.name,
      email: input.email,
      contactNumber: input.contact_number ?? null,
      createdAt: services.clock.now(),
    })
    .onConflictDoNothing()
    .returning();
  if (!row) {
    throw new DomainError('contact_exists', 'A contact with this e-mail already exists in this company.', { email: input.email });
  }
  return toContact(row);
}
