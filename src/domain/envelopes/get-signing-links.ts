import { and, asc, eq } from 'drizzle-orm';
import { envelopes, recipients } from '../../data/schema.js';
import { DomainError } from '../../errors.js';
import { isEnvelopeId } from '../../lib/ids.js';
import type { CompanyReadContext } from '../read-context.js';
import { envelopeNotFound } from './envelope-not-found.js';
import { type SigningLinkEntry, signingLinkEntries } from './signing-links.js';

/**
 * GET /v1/envelopes/{id}/signing-links: the same entries the send returned, at any time after it.
 * An envelope that can no longer be signed (voided, expired, declined, completed) gives its
 * entries with `signing_url: null`, since those links no longer open anything.
 */
export async function getSigningLinks(ctx: CompanyReadContext, { envelopeId }: { envelopeId: string }): Promise<{ signing_urls: SigningLinkEntry[] }> {
  const { services, companyId } = ctx;
  if (!isEnvelopeId(envelopeId)) throw envelopeNotFound(envelopeId);
  const { db } = services.database;
  const [[envelope], people] = await Promise.all([
    db
      .select({ shareSigningLinks: envelopes.shareSigningLinks, status: envelopes.status, expiresAt: envelopes.expiresAt })
      .from(envelopes)
      .where(and(eq(envelopes.id, envelopeId), eq(envelopes.companyId, companyId)))
      .limit(1),
    db
      .select({ id: recipients.id, name: recipients.name, email: recipients.email, type: recipients.type })
      .from(recipients)
      .where(and(eq(recipients.envelopeId, envelopeId), eq(recipients.companyId, companyId)))
      .orderBy(asc(recipients.order), asc(recipients.position)),
  ]);
  if (!envelope) throw envelopeNotFound(envelopeId);
  if (!envelope.shareSigningLinks) {
    throw new DomainError('signing_links_disabled', 'This envelope does not share signing links with the sender.', { envelope_id: envelopeId });
  }
  const live = envelope.status === 'sent' && !(envelope.expiresAt && envelope.expiresAt <= ctx.now);
  return { signing_urls: await signingLinkEntries(services.config, envelopeId, people, live) };
}
