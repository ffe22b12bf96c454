/**
 * The streamed webhook body inside workerd: the document's base64 made chunk by chunk, the
 * signatures made in one pass with nodejs_compat's incremental HMAC, and the body sent as a stream
 * whose length workerd knows beforehand (its `expectedLength`), as fetch needs for a Content-Length.
 */
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { MemoryDocumentStore } from '../../src/adapters/embedded/memory-document-store.js';
import { newWebhookSecret, signWebhookParts } from '../../src/domain/webhooks/standard-webhooks.js';
import { bodyLength, bodyParts, DocumentChanged, documentBody, streamedRedirect, streamedRequestBody } from '../../src/domain/webhooks/streamed-body.js';

function pdfOf(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 131 + (i >> 8)) & 0xff;
  return bytes;
}

const base64Of = (bytes: Uint8Array) => {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
};

describe('a streamed webhook body in workerd', () => {
  it.each([3 * 50_000, 3 * 50_000 + 1, 3 * 50_000 + 2, 0])('of a %i-byte PDF: signed, whole, of the length told beforehand', async (size) => {
    const documents = new MemoryDocumentStore();
    const pdf = pdfOf(size);
    const stored = await documents.put(pdf, { maxBytes: size + 1 });
    const body = documentBody(JSON.stringify({ type: 'envelope.document_ready', data: { document: { content_base64: 'MARK', size } } }), 'MARK', stored);
    const secrets = [newWebhookSecret(), newWebhookSecret()];
    const timestamp = Math.floor(Date.now() / 1000);
    const signatures = await signWebhookParts(secrets, 'msg_1', timestamp, bodyParts(documents, body));
    const request = streamedRequestBody(bodyParts(documents, body), bodyLength(body));
    expect(request.headers['content-length']).toBe(String(bodyLength(body)));
    const sent = new TextDecoder().decode(await new Response(request.body).arrayBuffer());
    expect(sent.length).toBe(bodyLength(body));
    expect(JSON.parse(sent).data.document.content_base64).toBe(base64Of(pdf));
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(timestamp), 'webhook-signature': signatures.join(' ') };
    for (const secret of secrets) expect(new Webhook(secret).verify(sent, headers)).toMatchObject({ data: { document: { size } } });
  });

  it('is sent with redirects handed back, not refused: workerd has no redirect mode "error"', () => {
    expect(streamedRedirect()).toBe('manual');
    expect(streamedRequestBody((async function* () {})(), 0).redirect).toBe('manual');
  });

  it('does not finish a body whose PDF is not the one described', async () => {
    const documents = new MemoryDocumentStore();
    const stored = await documents.put(pdfOf(3000), { maxBytes: 4000 });
    const body = documentBody('{"content_base64":"MARK"}', 'MARK', { ...stored, sha256: '0'.repeat(64) });
    const request = streamedRequestBody(bodyParts(documents, body), bodyLength(body));
    await expect(new Response(request.body).arrayBuffer()).rejects.toBeInstanceOf(DocumentChanged);
  });
});
