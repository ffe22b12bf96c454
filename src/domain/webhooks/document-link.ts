import { eq } from 'drizzle-orm';
import { envelopes } from '../../data/schema.js';
import { DomainError } from '../../errors.js';
import { derivedHmacKey, hmacBase64url, timingSafeEqual } from '../../lib/crypto.js';
import { isEnvelopeId } from '../../lib/ids.js';
import type { Services } from '../../services.js';
import type { StoredDocument } from '../../ports/document-store.js';
import { signedDocumentColumns, signedDocumentOf } from '../documents/stored-documents.js';
import type { ReadContext } from '../read-context.js';
import { fileNameOf } from '../signing/signing-document.js';

/**
 * The download link of `envelope.document_ready`: `{BASE_URL}/v1/documents/{envelope_id}?expires=…&sig=…`,
 * the finished PDF for whoever holds it, for 24 hours, with no other credential. The MAC binds the
 * company, the envelope and the expiry under a key derived from the service's token secret for this
 * purpose alone, so no part can be changed (another envelope, another company's, a later expiry).
 * The link is a bearer credential: it travels only in the signed delivery, never in a log.
 */
export const DOCUMENT_LINK_TTL_MS = 24 * 3600 * 1000;
const LABEL = 'esign webhook document links v1';

const macOf = async (services: Services, companyId: string, envelopeId: string, expires: number) =>
  hmacBase64url(await derivedHmacKey(services.config.tokenSecret, LABEL), `${companyId}.${envelopeId}.${expires}`);

/** A link valid for 24 hours from now. */
export async function documentDownloadUrl(services: Services, companyId: string, envelopeId: string): Promise<string> {
  const expires = Math.floor((services.clock.now().getTime() + DOCUMENT_LINK_TTL_MS) / 1000);
  const sig = await macOf(services, companyId, envelopeId, expires);
  return `${services.config.baseUrl.replace(/\/+$/, '')}/v1/documents/${envelopeId}?expires=${expires}&sig=${sig}`;
}

export const documentNotFound = () => new DomainError('document_not_found', 'No document is available at this link: it may have been altered.');

/**
 * The finished PDF a link names. Anything wrong with the link (altered, cut, for another envelope)
 * is `document_not_found`, telling nothing of what exists; a link whose signature holds but whose
 * 24 hours are over is `download_link_expired`, so its holder knows to ask for a fresh one (replay
 * or redeliver the event).
 */
export async function downloadDocument(
  ctx: ReadContext,
  { envelopeId, link }: { envelopeId: string; link: { expires?: string | undefined; sig?: string | undefined } },
): Promise<StoredDocument & { fileName: string }> {
  const { services } = ctx;
  const expires = Number(link.expires);
  if (!isEnvelopeId(envelopeId) || !/^\d{1,12}$/.test(link.expires ?? '') || !link.sig) throw documentNotFound();
  const [row] = await services.database.db
    .select({ companyId: envelopes.companyId, title: envelopes.title, ...signedDocumentColumns })
    .from(envelopes)
    .where(eq(envelopes.id, envelopeId))
    .limit(1);
  // An unknown envelope is checked against a MAC all the same, so that it takes as long as a known one.
  const expected = await macOf(services, row?.companyId ?? '', envelopeId, expires);
  if (!row || !timingSafeEqual(expected, link.sig)) throw documentNotFound();
  if (expires * 1000 <= ctx.now.getTime()) {
    throw new DomainError('download_link_expired', 'This download link has expired (links last 24 hours). Replay or redeliver the event for a fresh one.');
  }
  const document = await signedDocumentOf(services, envelopeId, row);
  if (!document) throw documentNotFound();
  return { ...document, fileName: fileNameOf(row.title, '-signed') };
}
