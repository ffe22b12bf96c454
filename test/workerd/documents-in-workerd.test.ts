/**
 * Documents served by the Worker as deployed, from R2, inside workerd: the signing page's document
 * (the original while signing, across R2's 5 MiB part for a larger one), the download link of a
 * finished envelope and the admin document, each whole and in byte ranges, every body compared byte
 * for byte with the object the bucket holds.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { PART_BYTES } from '../../src/adapters/production/r2-document-store.js';
import { documentDownloadUrl } from '../../src/domain/webhooks/document-link.js';
import { sha256Hex } from '../../src/lib/crypto.js';
import {
  admin,
  type Company,
  createCompany,
  finishedDocumentKey,
  heldBytes,
  importTemplate,
  pdfOf,
  type Sent,
  sendEnvelope,
  services,
  signAndFinish,
  templateDocumentKey,
  worker,
} from './worker-documents.js';

type Served = {
  /** Asks for the document with these request headers. */
  fetch: (headers?: Record<string, string>) => Promise<Response>;
  /** What R2 holds under the document's key. */
  held: () => Promise<Uint8Array>;
};

let company: Company;
let small: Sent & { key: string };
let large: Sent & { key: string };
let finished: Sent & { key: string; link: string };

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.byteLength === b.byteLength && a.every((byte, i) => byte === b[i]);
const bodyOf = async (response: Response) => new Uint8Array(await response.arrayBuffer());

beforeAll(async () => {
  company = await createCompany();
  const [smallTemplate, largeTemplate] = [
    await importTemplate(company, await pdfOf('Lease')),
    await importTemplate(company, await pdfOf('Lease with plans', PART_BYTES + 256 * 1024)),
  ];
  small = { ...(await sendEnvelope(company, smallTemplate)), key: await templateDocumentKey(company, smallTemplate) };
  large = { ...(await sendEnvelope(company, largeTemplate)), key: await templateDocumentKey(company, largeTemplate) };
  const done = await sendEnvelope(company, smallTemplate);
  await signAndFinish(done);
  const link = (await documentDownloadUrl(services, company.id, done.envelopeId)).slice(String(services.config.baseUrl).length);
  finished = { ...done, key: await finishedDocumentKey(done.envelopeId), link };
}, 120_000);

const signingPage = (of: () => Sent & { key: string }): Served => ({
  fetch: (headers) => worker(`/sign/${of().token}/document.pdf`, { headers }),
  held: () => heldBytes(of().key),
});

const endpoints: [string, Served][] = [
  ['the signing page’s document', signingPage(() => small)],
  ['the signing page’s document over 5 MiB', signingPage(() => large)],
  ['the signing page’s document once finished', signingPage(() => finished)],
  ['the download link', { fetch: (headers) => worker(finished.link, { headers }), held: () => heldBytes(finished.key) }],
  [
    'the admin document',
    { fetch: (headers) => admin('GET', `/admin/v1/envelopes/${finished.envelopeId}/document`, undefined, headers), held: () => heldBytes(finished.key) },
  ],
];

describe.each(endpoints)('%s, from R2', (_name, served) => {
  it('is served whole: 200, its length, Accept-Ranges and its SHA-256 as ETag, the bytes R2 holds', async () => {
    const held = await served.held();
    const response = await served.fetch();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('etag')).toBe(`"${await sha256Hex(held)}"`);
    expect(response.headers.get('content-length')).toBe(String(held.byteLength));
    expect(sameBytes(await bodyOf(response), held)).toBe(true);
  });

  it('serves one byte range with 206 and Content-Range: the first 100 bytes, the last 50, the rest from an offset', async () => {
    const held = await served.held();
    const size = held.byteLength;
    const etag = `"${await sha256Hex(held)}"`;
    const cases: [string, number, number][] = [
      ['bytes=0-99', 0, 99],
      ['bytes=-50', size - 50, size - 1],
      [`bytes=${size - 1000}-`, size - 1000, size - 1],
      // Past the end: clamped to it.
      [`bytes=10-${size + 5000}`, 10, size - 1],
      // Across R2's first part edge, where the document has one.
      ...(size > PART_BYTES ? [[`bytes=${PART_BYTES - 100}-${PART_BYTES + 99}`, PART_BYTES - 100, PART_BYTES + 99] as [string, number, number]] : []),
    ];
    for (const [range, first, last] of cases) {
      const response = await served.fetch({ range });
      expect(response.status, range).toBe(206);
      expect(response.headers.get('content-range'), range).toBe(`bytes ${first}-${last}/${size}`);
      expect(response.headers.get('content-length'), range).toBe(String(last - first + 1));
      expect(response.headers.get('etag'), range).toBe(etag);
      expect(sameBytes(await bodyOf(response), held.subarray(first, last + 1)), range).toBe(true);
    }
  });

  it('answers a range that starts past the end with 416 and Content-Range: bytes */size, no body', async () => {
    const size = (await served.held()).byteLength;
    for (const range of [`bytes=${size}-`, `bytes=${size + 100}-${size + 200}`, 'bytes=-0']) {
      const response = await served.fetch({ range });
      expect(response.status, range).toBe(416);
      expect(response.headers.get('content-range'), range).toBe(`bytes */${size}`);
      expect((await bodyOf(response)).byteLength, range).toBe(0);
    }
  });

  it('serves the range under If-Range of its ETag, and the whole document under a stale one', async () => {
    const held = await served.held();
    const etag = `"${await sha256Hex(held)}"`;
    const current = await served.fetch({ range: 'bytes=0-99', 'if-range': etag });
    expect(current.status).toBe(206);
    expect(sameBytes(await bodyOf(current), held.subarray(0, 100))).toBe(true);
    // A reader resuming a download of another document (the original, before the envelope finished) gets this one whole.
    const stale = await served.fetch({ range: 'bytes=0-99', 'if-range': `"${'0'.repeat(64)}"` });
    expect(stale.status).toBe(200);
    expect(stale.headers.get('content-range')).toBeNull();
    expect(sameBytes(await bodyOf(stale), held)).toBe(true);
  });
});

describe('the documents’ place in R2', () => {
  it('keeps the larger document whole across its parts, and the finished one as the original followed by its updates', async () => {
    const [largeHeld, smallHeld, finishedHeld] = [await heldBytes(large.key), await heldBytes(small.key), await heldBytes(finished.key)];
    expect(largeHeld.byteLength).toBeGreaterThan(PART_BYTES);
    expect(new TextDecoder().decode(largeHeld.subarray(0, 5))).toBe('%PDF-');
    expect(sameBytes(finishedHeld.subarray(0, smallHeld.byteLength), smallHeld)).toBe(true);
    expect(finishedHeld.byteLength).toBeGreaterThan(smallHeld.byteLength);
  });
});
