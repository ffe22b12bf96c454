/** The answer of a send (docs/api-reference.md, section 2.1), what webhooks say of it, and how idempotency stores and replays it. */
import type { Services } from '../../services.js';
import { eventData } from '../webhooks/event-data.js';
import type { EnvelopeRecipient } from './resolve-recipients.js';
import { type SigningLinkEntry, signingLinkEntries } from './signing-links.js';

export type Envelope = {
  envelope_id: string;
  status: 'sent';
  title: string;
  sender: { email: string };
  recipients: { role: string; name: string; email: string }[];
  signing_urls: SigningLinkEntry[] | null;
  created_at: string;
};

/** What webhooks say of a sent envelope: every recipient, never the signing links (bearer credentials). */
export function sentEventData(body: Envelope, withIds: (EnvelopeRecipient & { id: string })[], at: Date) {
  return eventData({
    envelope: { id: body.envelope_id, title: body.title, status: 'sent', senderEmail: body.sender.email },
    at,
    recipients: withIds.map((recipient) => ({ ...recipient, role: recipient.role })),
  });
}

/** Stored answers keep no links; a replay derives them again. */
export function withoutLinks(body: Envelope): Envelope {
  return { ...body, signing_urls: body.signing_urls?.map((entry) => ({ ...entry, signing_url: null })) ?? null };
}

/** A stored answer with its links derived again; none for an envelope that can no longer be signed. */
export async function withLinks(services: Services, stored: Envelope, live: boolean): Promise<Envelope> {
  const entries = stored.signing_urls?.map((entry) => ({
    id: entry.recipient_id,
    name: entry.name,
    email: entry.email,
    type: entry.recipient_type === 'need-to-sign' ? ('signer' as const) : ('cc' as const),
  }));
  // Rebuilt field by field: the database keeps JSON objects with their keys in its own order.
  return {
    envelope_id: stored.envelope_id,
    status: stored.status,
    title: stored.title,
    sender: { email: stored.sender.email },
    recipients: stored.recipients.map(({ role, name, email }) => ({ role, name, email })),
    signing_urls: entries ? await signingLinkEntries(services.config, stored.envelope_id, entries, live) : null,
    created_at: stored.created_at,
  };
}
