/**
 * What one attempt of a delivery sends, signed: the event's JSON in one small string, or, when it
 * carries the finished PDF, the same JSON streamed around the PDF's base64 (see streamed-body.ts).
 */
import { and, eq } from 'drizzle-orm';
import { envelopes, type webhookEvents } from '../../data/schema.js';
import { randomBase62 } from '../../lib/crypto.js';
import type { Services } from '../../services.js';
import { signedDocumentColumns, signedDocumentOf } from '../documents/stored-documents.js';
import { documentDownloadUrl } from './document-link.js';
import { signWebhook, signWebhookParts } from './standard-webhooks.js';
import { bodyLength, bodyParts, type DocumentBody, documentBody, streamedRequestBody } from './streamed-body.js';

type Event = typeof webhookEvents.$inferSelect;

/** An attempt's body as fetch takes it, and its `webhook-signature` (one signature per secret). */
export type SignedBody = {
  signature: string;
  request: { body: string | ReadableStream<Uint8Array>; duplex?: 'half'; redirect?: 'error' | 'manual'; headers: Record<string, string> };
};

/**
 * The body of an attempt at `timestamp`, signed with each of `secrets`. A body with the finished
 * PDF is read from the store twice: once into the signatures, once as it is sent; each read checks
 * the PDF against its row's SHA-256, so a body that does not match its signature is never finished.
 * Throws DocumentChanged when the first read finds another PDF, or none.
 */
export async function signedDeliveryBody(services: Services, event: Event, secrets: string[], timestamp: number): Promise<SignedBody> {
  const body = await deliveryBody(services, event);
  if (typeof body === 'string') {
    const signatures = await Promise.all(secrets.map((secret) => signWebhook(secret, event.id, timestamp, body)));
    return { signature: signatures.join(' '), request: { body, headers: {} } };
  }
  // The HMACs take each part before the next is made: the signing pass lends its parts.
  const signatures = await signWebhookParts(secrets, event.id, timestamp, bodyParts(services.documents, body, { lent: true }));
  return { signature: signatures.join(' '), request: streamedRequestBody(bodyParts(services.documents, body), bodyLength(body)) };
}

/**
 * The event as delivered: its place in the envelope's history (`sequence`), and for document_ready
 * the finished PDF itself and a download link made fresh for this attempt.
 */
async function deliveryBody(services: Services, event: Event): Promise<string | DocumentBody> {
  const data = event.sequence === null ? event.payload : { ...event.payload, sequence: event.sequence };
  const json = (data: Record<string, unknown>) => JSON.stringify({ type: event.kind, timestamp: event.createdAt.toISOString(), data });
  if (event.kind !== 'envelope.document_ready' || !event.envelopeId) return json(data);
  const [row] = await services.database.db
    .select(signedDocumentColumns)
    .from(envelopes)
    .where(and(eq(envelopes.id, event.envelopeId), eq(envelopes.companyId, event.companyId)))
    .limit(1);
  const stored = row ? await signedDocumentOf(services, event.envelopeId, row) : null;
  const document = event.payload.document as Record<string, unknown> | undefined;
  if (!stored) return json({ ...data, document: { ...document, content_base64: null, download_url: null } });
  // The base64 is streamed where this marker stands: random, so no value of the event can hold it.
  const marker = `document-${randomBase62(32)}`;
  const downloadUrl = await documentDownloadUrl(services, event.companyId, event.envelopeId);
  return documentBody(json({ ...data, document: { ...document, content_base64: marker, download_url: downloadUrl } }), marker, stored);
}
