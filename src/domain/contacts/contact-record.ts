import type { contacts } from '../../data/schema.js';

export type Contact = { id: string; name: string; email: string; contact_number: string | null; created_at: string };

export function toContact(row: typeof contacts.$inferSelect): Contact {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    contact_number: row.contactNumber,
    created_at: row.createdAt.toISOString(),
  };
}
