/**
 * The template import inside workerd, over the Worker's production adapters (the Neon stand-in,
 * Miniflare's R2 behind `DOCUMENTS`, the PDF Worker behind `PDF`): the form is parsed as it
 * arrives (@fastify/busboy on the runtime's Node streams), the PDF goes to R2 as its bytes do,
 * and a refused import leaves no object in the bucket.
 */
import { env } from 'cloudflare:workers';
import type { R2Bucket } from '@cloudflare/workers-types/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.js';
import { boundPdfMaker } from '../../src/adapters/production/bound-pdf-maker.js';
import { productionServices } from '../../src/adapters/production/production-services.js';
import { PART_BYTES, R2DocumentStore } from '../../src/adapters/production/r2-document-store.js';
import { createApp } from '../../src/app.js';
import { readWorkerConfig } from '../../src/entries/worker-config.js';
import { sha256Hex } from '../../src/lib/crypto.js';
import { type AssetFetcher, assetFontSource } from '../../src/pdf/fonts/asset-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { expectErrorResponse } from '../support/expect-error.js';
import { type FormPart, importParts, multipartBody, multipartType } from '../support/multipart-body.js';
import { unique } from '../support/unique.js';

const BASE = String(env.BASE_URL);
const bucket = env.DOCUMENTS as R2Bucket;
const ADMIN_TOKEN = 'workerd-streamed-import-admin-0123456789';
// The Worker's services and app as src/entries/worker.ts builds them, with an admin API.
const app = createApp(productionServices(readWorkerConfig({ ...env, ADMIN_TOKEN }), boundPdfMaker(env.PDF), new R2DocumentStore(bucket)), routes);

/** The body as a stream of 64 KiB chunks, as a client's upload arrives, with its length declared. */
async function importInto(companyId: string, body: Uint8Array): Promise<Response> {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < body.byteLength; at += 64 * 1024) controller.enqueue(body.slice(at, at + 64 * 1024));
      controller.close();
    },
  });
  return app.request(`${BASE}/admin/v1/companies/${companyId}/templates`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': multipartType, 'content-length': String(body.byteLength) },
    body: stream,
    duplex: 'half',
  } as RequestInit);
}

const definition = (fields = [{ role: 'Client', type: 'signature', page: 1, x: 72, y: 640, width: 200, height: 40 }]) =>
  JSON.stringify({ name: `Streamed ${unique()}`, signing_order: 'parallel', roles: [{ name: 'Client', type: 'signer', order: 1 }], fields });

/** Every document object in the bucket, with its size. */
async function objects(): Promise<{ key: string; size: number }[]> {
  const listed = await bucket.list({ prefix: 'documents/' });
  return listed.objects.map(({ key, size }) => ({ key, size }));
}

let companyId: string;
let pdf: Uint8Array;
beforeAll(async () => {
  const created = await app.request(`${BASE}/admin/v1/companies`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Streamed import ${unique()}`, api_signature_requests_per_period: 10 }),
  });
  expect(created.status).toBe(201);
  companyId = ((await created.json()) as { id: string }).id;
  pdf = await generateDocument(`Streamed ${unique()}`, 2, assetFontSource(env.FONTS as AssetFetcher));
});

describe('the template import in workerd', () => {
  it.each([
    ['the document after the template', false],
    ['the document before the template', true],
  ])('stores %s in R2, byte for byte', async (_order, documentFirst) => {
    const template: FormPart = { name: 'template', content: definition() };
    const document: FormPart = { name: 'document', fileName: 'lease.pdf', content: pdf };
    const response = await importInto(companyId, multipartBody(documentFirst ? [document, template] : [template, document]));
    expect(response.status, await response.clone().text()).toBe(201);
    const imported = (await response.json()) as { document: { file_name: string; sha256: string } };
    expect(imported.document).toMatchObject({ file_name: 'lease.pdf', sha256: await sha256Hex(pdf) });
  });

  it('streams a document larger than an R2 part into a multipart upload', async () => {
    // The PDF with a trailing comment past 5 MiB: still the same PDF to a reader.
    const big = new Uint8Array(PART_BYTES + 300_000).fill(0x20);
    big.set(pdf);
    big[pdf.byteLength] = 0x25;
    const response = await importInto(companyId, multipartBody(importParts(big, definition())));
    expect(response.status, await response.clone().text()).toBe(201);
    const { document } = (await response.json()) as { document: { sha256: string } };
    expect(document.sha256).toBe(await sha256Hex(big));
  });

  it('keeps nothing in R2 of an import refused for a field off its page', async () => {
    const before = await objects();
    const offPage = [{ role: 'Client', type: 'signature', page: 3, x: 72, y: 640, width: 200, height: 40 }];
    await expectErrorResponse(
      await importInto(
        companyId,
        multipartBody([
          { name: 'document', fileName: 'lease.pdf', content: pdf },
          { name: 'template', content: definition(offPage) },
        ]),
      ),
      422,
      'validation_failed',
      ['template.fields[0].page'],
    );
    expect(await objects()).toEqual(before);
  });

  it('keeps nothing in R2 of a template that is not JSON, sent after its document', async () => {
    const before = await objects();
    await expectErrorResponse(
      await importInto(
        companyId,
        multipartBody([
          { name: 'document', fileName: 'lease.pdf', content: pdf },
          { name: 'template', content: '{"name": ' },
        ]),
      ),
      422,
      'validation_failed',
      ['template'],
    );
    expect(await objects()).toEqual(before);
  });

  it('answers a body cut off inside the document with 422, keeping nothing', async () => {
    const before = await objects();
    const whole = multipartBody([
      { name: 'template', content: definition() },
      { name: 'document', fileName: 'lease.pdf', content: pdf },
    ]);
    await expectErrorResponse(await importInto(companyId, whole.slice(0, whole.byteLength - Math.floor(pdf.byteLength / 2))), 422, 'validation_failed', ['']);
    expect(await objects()).toEqual(before);
  });
});
