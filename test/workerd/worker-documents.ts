/**
 * Documents through the Worker as deployed, inside workerd, over its production adapters: the Neon
 * stand-in, Miniflare's R2 behind `DOCUMENTS`, the PDF Worker behind `PDF`. A company and its
 * templates are made through the admin API, envelopes are sent, signed and finished through the
 * Worker (the queue's message handed to it as QStash hands it), and what the bucket holds is read
 * back, to compare with what the Worker serves.
 */
import { env, exports } from 'cloudflare:workers';
import type { R2Bucket } from '@cloudflare/workers-types/index.js';
import { and, eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { expect, inject, vi } from 'vitest';
import { routes } from '../../functions/routes.js';
import { boundPdfMaker } from '../../src/adapters/production/bound-pdf-maker.js';
import { productionServices } from '../../src/adapters/production/production-services.js';
import { R2DocumentStore } from '../../src/adapters/production/r2-document-store.js';
import { createApp } from '../../src/app.js';
import { envelopeFields, envelopes, templateDocuments } from '../../src/data/schema.js';
import { scopes } from '../../src/domain/auth/scopes.js';
import { queueTopics } from '../../src/domain/queue-topics.js';
import { readWorkerConfig } from '../../src/entries/worker-config.js';
import { type AssetFetcher, assetFontSource } from '../../src/pdf/fonts/asset-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { formToken } from '../../src/signing-page/form-token.js';
import { eventually } from '../support/eventually.js';
import { unique } from '../support/unique.js';
import { qstashDelivery, qstashSignature } from './qstash-signature.js';

const stack = inject('workerdStack');
const BASE = String(env.BASE_URL);
export const bucket = env.DOCUMENTS as R2Bucket;
export const fonts = assetFontSource(env.FONTS as AssetFetcher);

/** The Worker of wrangler.toml (src/entries/worker.ts): this suite gives it no ADMIN_TOKEN, so it has no admin API. */
export const worker = (path: string, init?: RequestInit) => exports.default.fetch(new Request(`${BASE}${path}`, init));

const ADMIN_TOKEN = 'workerd-documents-admin-0123456789';
/**
 * The Worker's own services and app, built as src/entries/worker.ts builds them from the same env,
 * with an ADMIN_TOKEN added: the operator's side (companies, templates, the admin document) over
 * the same database and bucket as the Worker.
 */
export const services = productionServices(readWorkerConfig({ ...env, ADMIN_TOKEN }), boundPdfMaker(env.PDF), new R2DocumentStore(bucket));
const adminApp = createApp(services, routes);

export const admin = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> =>
  adminApp.request(`${BASE}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      ...(body === undefined || body instanceof FormData ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined || body instanceof FormData ? body : JSON.stringify(body),
  });

async function json<T>(pending: Promise<Response>, what: string): Promise<T> {
  const response = await pending;
  if (response.status >= 300) throw new Error(`${what} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

export type Company = { id: string; token: string };

/** A company with a sender and her access token: the company and key made by the operator, the token by the Worker. */
export async function createCompany(): Promise<Company> {
  const company = await json<{ id: string }>(
    admin('POST', '/admin/v1/companies', { name: `Documents ${unique()}`, api_signature_requests_per_period: 100 }),
    'The company',
  );
  const sender = `olivia-${unique()}@acme.test`;
  await json(admin('PUT', `/admin/v1/companies/${company.id}/users/${sender}`, { name: 'Olivia Owner', role: 'owner', esign_seat: true }), 'The sender');
  const { key } = await json<{ key: string }>(
    admin('POST', `/admin/v1/companies/${company.id}/api-keys`, { owner: sender, scopes: [...scopes] }),
    'The API key',
  );
  const exchanged = await json<{ access_token: string }>(
    worker('/v1/auth/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ api_key: key }) }),
    'The token exchange',
  );
  return { id: company.id, token: exchanged.access_token };
}

/** A generated PDF, made larger than `atLeast` bytes by an uncompressed image on its first page when asked. */
export async function pdfOf(title: string, atLeast = 0): Promise<Uint8Array> {
  const generated = await generateDocument(title, 2, fonts);
  if (generated.byteLength >= atLeast) return generated;
  const pdf = await PDFDocument.load(generated);
  const width = 512;
  const height = Math.ceil((atLeast - generated.byteLength) / (width * 3)) + 1;
  const pixels = new Uint8Array(width * height * 3);
  // Bytes that differ from place to place, so that a range served from the wrong offset shows.
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 131 + (i >> 9)) & 0xff;
  const image = pdf.context.register(
    pdf.context.stream(pixels, { Type: 'XObject', Subtype: 'Image', Width: width, Height: height, ColorSpace: 'DeviceRGB', BitsPerComponent: 8 }),
  );
  pdf.getPage(0).node.newXObject('Filler', image);
  return pdf.save({ useObjectStreams: false });
}

/** A template of one signer, Client, who signs once on page 1, imported with `document` through the admin API. */
export async function importTemplate(company: Company, document: Uint8Array): Promise<string> {
  const definition = {
    name: `Lease ${unique()}`,
    signing_order: 'parallel',
    share_signing_links: true,
    roles: [{ name: 'Client', type: 'signer', order: 1 }],
    fields: [{ role: 'Client', type: 'signature', page: 1, x: 72, y: 640, width: 200, height: 40 }],
  };
  const form = new FormData();
  form.set('template', JSON.stringify(definition));
  form.set('document', new Blob([document as BlobPart], { type: 'application/pdf' }), 'lease.pdf');
  return (await json<{ id: string }>(admin('POST', `/admin/v1/companies/${company.id}/templates`, form), 'The import')).id;
}

export type Sent = { envelopeId: string; token: string };

/** An envelope sent from `templateId` through the Worker, and its signer's link (the token after `/sign/`). */
export async function sendEnvelope(company: Company, templateId: string): Promise<Sent> {
  const body = { template_id: templateId, recipients: [{ role: 'Client', name: 'Cleo Client', email: `cleo-${unique()}@example.test` }] };
  const sent = await json<{ envelope_id: string; signing_urls: { signing_url: string }[] }>(
    worker('/v1/envelopes/from-template', {
      method: 'POST',
      headers: { authorization: `Bearer ${company.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
    'The send',
  );
  return { envelopeId: sent.envelope_id, token: sent.signing_urls[0]!.signing_url.split('/sign/')[1]! };
}

/**
 * Signs through the signing page, then hands the Worker the `document.finish` message its answer
 * relayed to QStash, signed as QStash signs it: the PDF Worker makes the finished PDF into R2.
 */
export async function signAndFinish(sent: Sent): Promise<void> {
  const { db } = services.database;
  const fields = await db.select({ id: envelopeFields.id }).from(envelopeFields).where(eq(envelopeFields.envelopeId, sent.envelopeId));
  const form = new URLSearchParams({ consent: 'yes', form_token: await formToken(services.config.tokenSecret, sent.token) });
  for (const field of fields) form.set(`field.${field.id}`, 'Cleo Client');
  const signed = await worker(`/sign/${sent.token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: BASE, 'sec-fetch-site': 'same-origin' },
    body: form.toString(),
  });
  expect(signed.status, await signed.text()).toBeLessThan(400);

  const destination = `${BASE}/internal/queue/${queueTopics.finish}`;
  const message = await vi.waitFor(async () => {
    const held = await json<{ destination: string; body: string }[]>(fetch(`${stack.qstash.url}/__standin/messages`), 'The queue');
    const found = held.find((one) => one.destination === destination && (JSON.parse(one.body) as { envelope_id?: string }).envelope_id === sent.envelopeId);
    if (!found) throw new Error(`No ${queueTopics.finish} message for ${sent.envelopeId} yet`);
    return found;
  }, eventually);
  const signature = await qstashSignature(stack.qstash.currentSigningKey, destination, message.body);
  const delivered = await exports.default.fetch(qstashDelivery(destination, message.body, signature));
  expect(delivered.status, await delivered.text()).toBe(200);
}

/** The key of a template's document in the store, as Postgres names it. */
export async function templateDocumentKey(company: Company, templateId: string): Promise<string> {
  const [row] = await services.database.db
    .select({ key: templateDocuments.storageKey })
    .from(templateDocuments)
    .where(and(eq(templateDocuments.templateId, templateId), eq(templateDocuments.companyId, company.id)));
  return row!.key!;
}

/** The key of an envelope's finished PDF in the store, as Postgres names it. */
export async function finishedDocumentKey(envelopeId: string): Promise<string> {
  const [row] = await services.database.db.select({ key: envelopes.signedDocumentKey }).from(envelopes).where(eq(envelopes.id, envelopeId));
  return row!.key!;
}

/** The whole object R2 holds under `key`. */
export async function heldBytes(key: string): Promise<Uint8Array> {
  const object = await bucket.get(key);
  if (!object) throw new Error(`R2 holds nothing under ${key}`);
  return new Uint8Array(await object.arrayBuffer());
}
