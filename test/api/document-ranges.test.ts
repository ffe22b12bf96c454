/**
 * The three answers that serve a stored document (the download link, the admin document, the
 * signing page's document): streamed whole with its length and ETag, or the one byte range asked
 * for (RFC 9110 §14): 206 with Content-Range, 416 past the end, the whole for several ranges or a
 * malformed header; and the same 404 as before for another company's or an unknown envelope.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelopes } from '../../src/data/schema.js';
import { documentDownloadUrl } from '../../src/domain/webhooks/document-link.js';
import { requestedRange } from '../../src/http/document-answer.js';
import { expectError } from '../support/expect-error.js';
import { createTestCompany, sendTestEnvelope, type TestCompany } from '../support/factories.js';
import { call } from '../support/http.js';
import { ADMIN_TOKEN, BASE_URL, openStack, type TestStack } from '../support/stack.js';
import { templatePdf } from '../support/stored-documents.js';

const SIZE = 1000;
/** The finished file: every byte tells its place, so a wrong slice cannot pass. */
const finished = Uint8Array.from({ length: SIZE }, (_, i) => (i * 7 + 3) % 256);

let stack: TestStack;
let company: TestCompany;
let sha256: string;
/** The three paths to the finished PDF, with what each needs. */
let served: { name: string; path: string; headers: Record<string, string> }[];
let signingToken: string;
let templateId: string;

beforeAll(async () => {
  stack = await openStack();
  company = await createTestCompany(stack, { quota: 10 });
  const sent = await sendTestEnvelope(stack, company);
  const stored = await stack.services.documents.put(finished, { maxBytes: SIZE });
  sha256 = stored.sha256;
  await stack.services.database.db
    .update(envelopes)
    .set({ status: 'completed', signedDocumentKey: stored.key, signedDocumentSize: stored.size, signedDocumentSha256: stored.sha256 })
    .where(eq(envelopes.id, sent.envelopeId));
  const link = await documentDownloadUrl(stack.services, company.id, sent.envelopeId);
  served = [
    { name: 'the download link', path: link.slice(BASE_URL.length), headers: {} },
    { name: 'the admin document', path: `/admin/v1/envelopes/${sent.envelopeId}/document`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
    { name: 'the signing page', path: `/sign/${sent.links[0]!.token}/document.pdf`, headers: {} },
  ];
  const open = await sendTestEnvelope(stack, company);
  signingToken = open.links[0]!.token;
  const [row] = await stack.services.database.db.select({ templateId: envelopes.templateId }).from(envelopes).where(eq(envelopes.id, open.envelopeId));
  templateId = row!.templateId;
});
afterAll(() => stack.close());

async function get(path: string, headers: Record<string, string>) {
  const response = await stack.app.request(path, { headers });
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
}

describe('a stored document served whole or by range', () => {
  it('answers the whole document, 200, with its length, Accept-Ranges and its SHA-256 as ETag', async () => {
    for (const { name, path, headers } of served) {
      const answer = await get(path, headers);
      expect(answer.status, name).toBe(200);
      expect(Buffer.from(answer.bytes).equals(Buffer.from(finished)), name).toBe(true);
      expect(answer.headers.get('content-length'), name).toBe(String(SIZE));
      expect(answer.headers.get('accept-ranges'), name).toBe('bytes');
      expect(answer.headers.get('etag'), name).toBe(`"${sha256}"`);
      expect(answer.headers.get('content-type'), name).toBe('application/pdf');
    }
  });

  it('answers each form of one range with 206, Content-Range and only those bytes, clamped at the end', async () => {
    const cases: [string, number, number][] = [
      ['bytes=0-99', 0, 99],
      ['bytes=900-', 900, 999],
      ['bytes=-100', 900, 999],
      ['bytes=0-999', 0, 999],
      ['bytes=0-1000', 0, 999],
      ['bytes=999-999', 999, 999],
      ['bytes=999-', 999, 999],
      ['bytes=-1000', 0, 999],
      ['bytes=-1001', 0, 999],
    ];
    for (const { name, path, headers } of served) {
      for (const [range, first, last] of cases) {
        const answer = await get(path, { ...headers, range });
        const what = `${name}, ${range}`;
        expect(answer.status, what).toBe(206);
        expect(answer.headers.get('content-range'), what).toBe(`bytes ${first}-${last}/${SIZE}`);
        expect(answer.headers.get('content-length'), what).toBe(String(last - first + 1));
        expect(answer.headers.get('etag'), what).toBe(`"${sha256}"`);
        expect(Array.from(answer.bytes), what).toEqual(Array.from(finished.subarray(first, last + 1)));
      }
    }
  });

  it('answers a range past the end with 416 and the size in Content-Range', async () => {
    for (const { name, path, headers } of served) {
      for (const range of ['bytes=1000-', 'bytes=1000-1001', 'bytes=-0']) {
        const answer = await get(path, { ...headers, range });
        expect(answer.status, `${name}, ${range}`).toBe(416);
        expect(answer.headers.get('content-range'), `${name}, ${range}`).toBe(`bytes */${SIZE}`);
        expect(answer.bytes.byteLength).toBe(0);
      }
    }
  });

  it('answers the whole document, 200, to several ranges or a malformed header', async () => {
    for (const { name, path, headers } of served) {
      for (const range of ['bytes=0-1,5-6', 'bytes=abc', 'items=0-1', 'bytes=5-1', 'bytes=-', '0-1']) {
        const answer = await get(path, { ...headers, range });
        expect(answer.status, `${name}, ${range}`).toBe(200);
        expect(answer.bytes.byteLength, `${name}, ${range}`).toBe(SIZE);
      }
    }
  });

  it('serves the template’s document by range on the signing page while the envelope is out', async () => {
    const original = (await templatePdf(stack.services, templateId))!;
    const answer = await get(`/sign/${signingToken}/document.pdf`, { range: 'bytes=0-4' });
    expect(answer.status).toBe(206);
    expect(answer.headers.get('content-range')).toBe(`bytes 0-4/${original.byteLength}`);
    expect(new TextDecoder().decode(answer.bytes)).toBe('%PDF-');
  });

  it('answers another company’s or an unknown envelope with the same 404 as before, a range or not', async () => {
    const other = await createTestCompany(stack);
    const [, admin] = served;
    const envelopeId = admin!.path.split('/')[4]!;
    const unknown = crypto.randomUUID();
    const foreignLink = (await documentDownloadUrl(stack.services, other.id, envelopeId)).slice(BASE_URL.length);
    const unknownLink = (await documentDownloadUrl(stack.services, company.id, unknown)).slice(BASE_URL.length);
    for (const headers of [{}, { range: 'bytes=0-9' }] as Record<string, string>[]) {
      expectError(await call(stack, 'GET', foreignLink, { headers }), 404, 'document_not_found');
      expectError(await call(stack, 'GET', unknownLink, { headers }), 404, 'document_not_found');
      expectError(await call(stack, 'GET', `/admin/v1/envelopes/${unknown}/document`, { token: ADMIN_TOKEN, headers }), 404, 'envelope_not_found');
    }
  });
});

describe('requestedRange', () => {
  it('reads the three forms of one range, clamps to the end, and answers null for what it does not take', () => {
    expect(requestedRange('bytes=10-19', 100)).toEqual({ offset: 10, length: 10 });
    expect(requestedRange('bytes=90-', 100)).toEqual({ offset: 90, length: 10 });
    expect(requestedRange('bytes=-5', 100)).toEqual({ offset: 95, length: 5 });
    expect(requestedRange('bytes=99-500', 100)).toEqual({ offset: 99, length: 1 });
    expect(requestedRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(requestedRange('bytes=-0', 100)).toBe('unsatisfiable');
    expect(requestedRange('bytes=0-', 0)).toBe('unsatisfiable');
    for (const malformed of [undefined, '', 'bytes=', 'bytes=-', 'bytes=1-2,3-4', 'bytes=5-4', 'bytes= 1-2', 'pages=1-2', 'bytes=1e3-']) {
      expect(requestedRange(malformed, 100), String(malformed)).toBeNull();
    }
  });
});
