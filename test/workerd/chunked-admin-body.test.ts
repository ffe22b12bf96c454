/**
 * The admin API's 27 MiB limit inside workerd, on a body sent without its length (a stream and no
 * Content-Length, as a chunked upload arrives): counted as the Worker reads it. A template import
 * sent so is stored in R2; one past the limit is refused 413 payload_too_large and leaves no object.
 */
import { env } from 'cloudflare:workers';
import type { R2Bucket } from '@cloudflare/workers-types/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.js';
import { boundPdfMaker } from '../../src/adapters/production/bound-pdf-maker.js';
import { productionServices } from '../../src/adapters/production/production-services.js';
import { R2DocumentStore } from '../../src/adapters/production/r2-document-store.js';
import { createApp } from '../../src/app.js';
import { readWorkerConfig } from '../../src/entries/worker-config.js';
import { sha256Hex } from '../../src/lib/crypto.js';
import { type AssetFetcher, assetFontSource } from '../../src/pdf/fonts/asset-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { expectErrorResponse } from '../support/expect-error.js';
import { importParts, multipartBody, multipartType, paddedPdf } from '../support/multipart-body.js';
import { unique } from '../support/unique.js';

const BASE = String(env.BASE_URL);
const bucket = env.DOCUMENTS as R2Bucket;
const ADMIN_TOKEN = 'workerd-chunked-admin-body-0123456789';
const app = createApp(productionServices(readWorkerConfig({ ...env, ADMIN_TOKEN }), boundPdfMaker(env.PDF), new R2DocumentStore(bucket)), routes);

const MiB = 1024 * 1024;

/** The import's multipart body, the document first. */
function importBody(document: Uint8Array): Uint8Array {
  const definition = JSON.stringify({
    name: `Chunked ${unique()}`,
    signing_order: 'parallel',
    roles: [{ name: 'Client', type: 'signer', order: 1 }],
    fields: [{ role: 'Client', type: 'signature', page: 1, x: 72, y: 640, width: 200, height: 40 }],
  });
  return multipartBody(importParts(document, definition));
}

/** A request with the body streamed 64 KiB at a time and no Content-Length. */
async function sendChunked(path: string, contentType: string, body: Uint8Array): Promise<Response> {
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= body.byteLength) return controller.close();
      controller.enqueue(body.slice(sent, sent + 64 * 1024));
      sent += 64 * 1024;
    },
  });
  return app.request(`${BASE}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': contentType },
    body: stream,
    duplex: 'half',
  } as RequestInit);
}

const objects = async () => (await bucket.list({ prefix: 'documents/' })).objects.map((object) => object.key).sort();

let companyId: string;
let pdf: Uint8Array;
beforeAll(async () => {
  const created = await app.request(`${BASE}/admin/v1/companies`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Chunked body ${unique()}`, api_signature_requests_per_period: 10 }),
  });
  expect(created.status).toBe(201);
  companyId = ((await created.json()) as { id: string }).id;
  pdf = await generateDocument(`Chunked ${unique()}`, 2, assetFontSource(env.FONTS as AssetFetcher));
});

describe('an admin body sent without its length, in workerd', () => {
  it('a template import is stored in R2', async () => {
    const document = paddedPdf(pdf, 2 * MiB);
    const response = await sendChunked(`/admin/v1/companies/${companyId}/templates`, multipartType, importBody(document));
    expect(response.status, await response.clone().text()).toBe(201);
    expect(((await response.json()) as { document: { sha256: string } }).document.sha256).toBe(await sha256Hex(document));
  });

  it('a template import past 27 MiB: 413 payload_too_large, no object left', async () => {
    const before = await objects();
    const response = await sendChunked(`/admin/v1/companies/${companyId}/templates`, multipartType, importBody(paddedPdf(pdf, 27 * MiB)));
    const refused = await expectErrorResponse(response, 413, 'payload_too_large');
    expect(refused.error.details).toEqual({ limit: '27 MiB' });
    expect(await objects()).toEqual(before);
  }, 60_000);
});
