/**
 * `npm run bench:pdf [-- --runs N] [--cold N] [--json file]`: the CPU time of finishDocument inside
 * workerd, for a 10-page document with 20 fields (2 of them drawn signatures) and 3 recipients, and
 * of sealing that finished file (sealPdf: PAdES B-B with an RSA-2048 key; a time-stamp's network wait
 * is not CPU), and of serving the signing page of a 10-page envelope with 20 fields for its signer,
 * against a trivial request measured in the same run. Works offline; Linux only (it reads /proc).
 *
 * Inside workerd `performance.now()` stands still during synchronous work, so the time is taken from
 * outside. The main figure is the CPU time of workerd's isolate thread over each request, read from
 * /proc/<pid>/task/<tid>/schedstat (nanoseconds the thread actually ran): unlike wall time or the
 * spans of a CPU profile, it does not grow when the shared machine takes the core away. The thread
 * that ran the most in a request is the one the isolate runs on; workerd's other threads (V8's
 * background GC and compilers) are reported as well. A second pass profiles the same requests with
 * the DevTools Profiler through workerd's inspector, as `npm run size` does for start-up: an
 * independent check of the figure, and where the time goes.
 *
 * The signing page is served as GET /sign/{token} serves it, with the database's answer in memory:
 * the token's shape and HMAC are checked (verifySigningToken, with the envelope lookup answered from
 * memory, as resolveLink asks it, and so is the sender's brand), the state is computed by linkState from the Link that resolveLink
 * would return (a signer who has viewed before, so opening it records nothing), and the route's own
 * respondWithState renders it, form token included, through Hono's `c.html`, with the headers the
 * signing guard sets. Not included: the guard's rate limit (a Redis round trip) and the database reads.
 *
 * The worker is bundled with esbuild (minified, as deploys are) and run by Miniflare with the
 * compatibility date and flags of wrangler.toml. Requests alternate between the subjects, so that a
 * noisy spell hits all of them alike; the first finishDocument of a fresh isolate (which evaluates
 * pdf-lib) is measured apart, in `--cold` fresh isolates, whose first request is a trivial one; and
 * so is the signing page as the first request of `--cold` other fresh isolates.
 *
 * The same envelope with its names, title and values in other scripts (Polish, Arabic, Chinese,
 * Russian, Hindi, Thai, Japanese, Hebrew) is finished too (`intl`): the cost of shaping them and of
 * embedding their font subsets, against the Latin-only finish of the same run. The fonts come to
 * the Worker through a FONTS binding, as its static assets do in production.
 *
 * One file although long: the three measurements share one workerd run, its inspector session and
 * the baseline request they are reported against.
 */
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { SourceMap } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { Hono } from 'hono';
import { Miniflare } from 'miniflare';
import { hotspots as hotspotsOf, openInspector, type Profile, profileCpu, threadNanos, workerdPid } from './workerd-profile.js';
import { tokenOf } from '../src/signing-page/link-request.js';
import { respondWithState } from '../src/signing-page/respond-with-state.js';
import type { FieldType } from '../src/data/schema.js';
import { type BrandLook, DEFAULT_ACCENT } from '../src/domain/companies/brand-look.js';
import { signingToken, verifySigningToken } from '../src/domain/envelopes/signing-links.js';
import { linkState } from '../src/domain/signing/link-state.js';
import type { Link } from '../src/domain/signing/resolve-link.js';
import type { AppEnv } from '../src/http/app-env.js';
import { type FinishInput, type FinishedField, finishDocument } from '../src/pdf/finish-document.js';
import { nodeFontSource } from '../src/pdf/fonts/node-font-source.js';
import { generateDocument } from '../src/pdf/generate-document.js';
import { sha256Hex } from '../src/lib/crypto.js';
import { encodePng } from '../test/support/png.js';
import { TEST_SEAL_CERT_PEM, TEST_SEAL_KEY_PEM } from '../test/support/seal-fixture.js';
import type { Services } from '../src/services.js';

const { values: opts } = parseArgs({ options: { runs: { type: 'string', default: '15' }, cold: { type: 'string', default: '3' }, json: { type: 'string' } } });
const [runs, coldRuns] = [Number(opts.runs), Number(opts.cold)];
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(coldRuns) || coldRuns < 1) throw new Error('--runs and --cold take a positive whole number');
const root = resolve(import.meta.dirname, '..');

// ---- The input: what a finished 10-page envelope looks like -------------------------------------

/** A 600×200 RGBA PNG of a looping stroke on a transparent ground, as a signature pad's canvas exports it. */
function signaturePng(seed: number): string {
  const [width, height] = [600, 200];
  const rows = Buffer.alloc(height * (1 + width * 4));
  for (let t = 0; t < 1; t += 0.0002) {
    const x = 30 + t * 540;
    const y = 100 + 55 * Math.sin(t * (14 + seed) * Math.PI) * Math.cos(t * 3 * Math.PI + seed);
    for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) {
      const [px, py] = [Math.round(x + dx), Math.round(y + dy)];
      if (dx * dx + dy * dy <= 5) rows.set([20, 30, 80, 255], py * (1 + width * 4) + 1 + px * 4);
    }
  }
  const png = encodePng(rows, width, height);
  return `data:image/png;base64,${png.toString('base64')}`;
}

async function benchInput(): Promise<Omit<FinishInput, 'fonts'>> {
  const original = await generateDocument('Commercial lease agreement', 10, nodeFontSource());
  const drawn = [signaturePng(1), signaturePng(2)];
  const kinds: [FinishedField['type'], string][] = [
    ['initials', 'AL'], ['initials', 'BT'], ['initials', 'AL'], ['initials', 'BT'], ['text', 'Unit 4B, 221 Harbour Road'],
    ['text', 'Twelve (12) months'], ['text', 'USD 4,250.00 per month'], ['text', 'Keys handed over at signing'], ['checkbox', 'true'],
    ['checkbox', 'false'], ['checkbox', 'true'], ['name', 'Ada Lessor'], ['name', 'Ben Tenant'], ['email', 'ben.tenant@example.test'],
    ['date_signed', '2026-11-03'], ['date_signed', '2026-11-04'], ['signature', 'Ada Lessor'], ['signature', 'Ben Tenant'],
    ['signature', drawn[0]!], ['signature', drawn[1]!],
  ];
  const fields: FinishedField[] = kinds.map(([type, value], i) => ({
    type,
    value,
    page: 1 + (i % 10),
    x: 72 + (i % 2) * 260,
    y: 200 + Math.floor(i / 10) * 120,
    width: type === 'checkbox' ? 14 : type === 'signature' ? 220 : 200,
    height: type === 'checkbox' ? 14 : type === 'signature' ? 50 : 22,
  }));
  const ua = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15';
  const at = (day: number, minute: number) => new Date(Date.UTC(2026, 10, day, 9, minute));
  const signer = (name: string, email: string, role: string, ip: string, day: number) => ({
    name, email, role, kind: 'signer' as const,
    events: [
      { what: 'Sent', at: at(2, 0), ip: null, userAgent: null },
      { what: 'Viewed', at: at(day, 1), ip, userAgent: ua },
      { what: 'Consented (esign-consent-2026-11)', at: at(day, 2), ip, userAgent: ua },
      { what: 'Signed', at: at(day, 4), ip, userAgent: ua },
    ],
  });
  return {
    original,
    envelopeId: 'env_01JC0BENCHPDF0000000000000',
    title: 'Commercial lease agreement',
    senderEmail: 'leasing@example.test',
    senderName: 'Acme Ltd',
    fields,
    recipients: [
      signer('Ada Lessor', 'ada.lessor@example.test', 'Landlord', '203.0.113.7', 3),
      signer('Ben Tenant', 'ben.tenant@example.test', 'Tenant', '198.51.100.23', 4),
      { name: 'Cy Counsel', email: 'cy@example.test', role: 'Counsel', kind: 'cc', events: [{ what: 'Sent', at: at(4, 5), ip: null, userAgent: null }] },
    ],
    consentVersion: 'esign-consent-2026-11',
    consentText: `${'You agree to receive records and to sign electronically, and may withdraw that consent or ask for a paper copy at any time. '.repeat(8)}\n\nYour device needs a current browser and a PDF reader.`,
    originalSha256: await sha256Hex(original),
    completedAt: at(4, 5),
  };
}

/** The same envelope in other scripts: every name, the title and each typed value. */
function intlInput(latin: FinishInput): FinishInput {
  const values: Record<string, string> = {
    'Ada Lessor': 'Łukasz Żółć', 'Ben Tenant': 'محمد عبد الله', AL: 'ŁŻ', BT: 'مع',
    'Unit 4B, 221 Harbour Road': '北京市朝阳区建国路 88 号', 'Twelve (12) months': 'Двенадцать (12) месяцев',
    'USD 4,250.00 per month': '₹ 4,250 प्रति माह', 'Keys handed over at signing': 'ส่งมอบกุญแจในวันลงนาม',
    'ben.tenant@example.test': 'ben.tenant@example.test',
  };
  const named = (name: string) => ({ 'Ada Lessor': 'Łukasz Żółć', 'Ben Tenant': 'محمد عبد الله', 'Cy Counsel': '山田 さくら' })[name] ?? name;
  return {
    ...latin,
    title: 'Договор аренды — عقد إيجار — 租赁合同',
    fields: latin.fields.map((field) => ({ ...field, value: field.value !== null && field.value in values ? values[field.value]! : field.value })),
    recipients: latin.recipients.map((r, i) => ({ ...r, name: named(r.name), role: ['מַשְׂכִּיר', 'किरायेदार', 'Counsel'][i]! })),
  };
}

// ---- The signing page's input: what resolveLink reads for a signer of a 10-page envelope ------------

/** The TOKEN_SECRET of the bench: the links' and the form tokens' keys are derived from it. */
const SIGN_SECRET = 'bench-token-secret-0123456789abcdefghijklmnopqrstuvwxyz';
/** The clock of the page (the date-signed fields show its day). */
const SIGN_NOW = new Date(Date.UTC(2026, 10, 4, 9, 0));

/** The second signer of a sequential envelope, after the first has signed: 20 fields of theirs on 10 pages. */
function signingLink(): Link {
  const companyId = '6f1c2a9e-4b7d-4e21-9a3c-5d8e7f6a1b2c';
  const envelopeId = 'env_BenchSignPage00000000A';
  const at = (day: number, minute = 0) => new Date(Date.UTC(2026, 10, day, 9, minute));
  const recipient = (id: string, name: string, email: string, role: string, type: 'signer' | 'cc', order: number, status: Link['recipient']['status']): Link['recipient'] => ({
    id, companyId, envelopeId, role, type, order, position: order - 1, name, email, contactNumber: null, verification: 'none', status,
    viewedAt: status === 'viewed' || status === 'signed' ? at(3, 1) : null, signedAt: status === 'signed' ? at(3, 4) : null, declinedAt: null,
  });
  const everyone = [
    recipient('rcp_BenchSignPage00000000A', 'Ada Lessor', 'ada.lessor@example.test', 'Landlord', 'signer', 1, 'signed'),
    recipient('rcp_BenchSignPage00000000B', 'Ben Tenant', 'ben.tenant@example.test', 'Tenant', 'signer', 2, 'viewed'),
    recipient('rcp_BenchSignPage00000000C', 'Cy Counsel', 'cy@example.test', 'Counsel', 'cc', 3, 'sent'),
  ];
  const me = everyone[1]!;
  const kinds: [FieldType, string | null, boolean][] = [
    ['initials', null, true], ['text', 'Unit', true], ['initials', null, true], ['text', 'Term of the lease', true], ['initials', null, true],
    ['text', 'Monthly rent', true], ['initials', null, true], ['checkbox', 'I have read the house rules', true], ['initials', null, true],
    ['checkbox', 'Parking space wanted', false], ['initials', null, true], ['text', 'Notes for the landlord', false], ['checkbox', 'Pets', false],
    ['name', null, true], ['email', null, true], ['date_signed', null, true], ['signature', 'Tenant', true], ['date_signed', 'Date of handover', true],
    ['signature', 'Tenant, guarantor clause', true], ['signature', null, true],
  ];
  const fields: Link['fields'] = kinds.map(([type, label, required], i) => ({
    id: `0b7e4c1a-3f2d-4e6a-8c9b-${String(i).padStart(12, '0')}`,
    companyId, envelopeId, recipientId: me.id, type, label, required, value: null,
    page: 1 + Math.floor(i / 2),
    x: 72 + (i % 2) * 260,
    y: 480 + (i % 2) * 140,
    width: type === 'checkbox' ? 14 : type === 'signature' ? 220 : 200,
    height: type === 'checkbox' ? 14 : type === 'signature' ? 50 : 22,
  }));
  return {
    envelope: {
      id: envelopeId, companyId, templateId: '2d4e6f80-1a3b-4c5d-8e9f-0a1b2c3d4e5f', apiKeyId: 'key_BenchSignPage0000000', senderUserId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
      senderEmail: 'leasing@example.test', title: 'Commercial lease agreement', emailSubject: 'Please sign: Commercial lease agreement',
      emailMessage: 'Hello Ben, here is the lease for Unit 4B as we agreed. Please initial each page and sign at the end.',
      status: 'sent', signingOrder: 'sequential', shareSigningLinks: false, reminders: null, expiresAt: at(30), documentSha256: '0'.repeat(64),
      signedDocumentSha256: null, createdAt: at(2), completedAt: null, voidedAt: null,
    },
    recipient: me,
    everyone,
    fields,
    pages: Array.from({ length: 10 }, () => ({ width: 612, height: 792 })),
  };
}

/** The sender's brand as the database would answer it: a company that chose none. */
const BENCH_LOOK: BrandLook = { displayName: 'Bench Ltd', accentColor: DEFAULT_ACCENT, accentChosen: false, logoUrl: null, language: null };

/** The page as the route renders it, on Node: what the Worker's answer is checked against. */
async function signPageInNode(link: Link, token: string): Promise<string> {
  const tokenSecret = new TextEncoder().encode(SIGN_SECRET);
  const verified = await verifySigningToken(tokenSecret, token, async (id) => (id === link.recipient.id ? link.envelope.id : null));
  if (verified?.recipientId !== link.recipient.id) throw new Error("The bench's signing token does not verify");
  const app = new Hono<AppEnv>();
  app.get('/sign/:token', (c) => {
    c.set('services', { config: { tokenSecret } } as Services);
    return respondWithState(c, tokenOf(c), linkState(link, SIGN_NOW), undefined, null, Promise.resolve(BENCH_LOOK));
  });
  const res = await app.request(`/sign/${token}`);
  const page = await res.text();
  const count = (marker: string) => page.split(marker).length - 1;
  if (res.status !== 200 || count(' data-field-box="') !== link.fields.length || count(' data-page="') !== link.pages.length) {
    throw new Error(`On Node the route answered ${res.status}, not the sign page with ${link.fields.length} fields on ${link.pages.length} pages`);
  }
  return page;
}

// ---- The Worker under test -------------------------------------------------------------------------

/**
 * One Worker, five routes: the subjects (finishDocument and the signing page), a pdf-lib load and
 * save of the same original (for scale), and nothing. The signing page's input is built in, so that
 * it can be the first request of an isolate.
 */
const workerSource = (signInput: string) => `
import { Hono } from 'hono';
import { finishDocument } from './src/pdf/finish-document.ts';
import { assetFontSource } from './src/pdf/fonts/asset-font-source.ts';
import { loadSealIdentity } from './src/pdf/seal-identity.ts';
import { sealPdf } from './src/pdf/seal-pdf.ts';
import { verifySigningToken } from './src/domain/envelopes/signing-links.ts';
import { linkState } from './src/domain/signing/link-state.ts';
import { isTokenShaped } from './src/signing-page/forms.ts';
import { invalidLinkPage } from './src/signing-page/html/notice-pages.ts';
import { signingPageHeaders } from './src/signing-page/security.ts';
import { tokenOf } from './src/signing-page/link-request.ts';
import { respondWithState } from './src/signing-page/respond-with-state.ts';
let input;
let intl;
let certified;
let fontSource;
// The fonts for the isolate's life, as the PDF Worker keeps them.
const fonts = (env) => (fontSource ??= assetFontSource(env.FONTS));
let identity;

// What the database would answer for the link, and the configuration (made once per isolate, as the app's is).
const DATES = new Set(['expiresAt', 'createdAt', 'completedAt', 'voidedAt', 'viewedAt', 'signedAt', 'declinedAt', 'now']);
const sign = JSON.parse(${JSON.stringify(signInput)}, (key, value) => (DATES.has(key) && typeof value === 'string' ? new Date(value) : value));
const services = { config: { tokenSecret: new TextEncoder().encode(sign.tokenSecret) }, clock: { now: () => sign.now } };
const signing = new Hono();
// GET /sign/{token} (showSigningPage), with openSigningLink's resolveLink answered from memory.
signing.get('/sign/:token', async (c) => {
  c.set('services', services);
  const token = tokenOf(c);
  if (!isTokenShaped(token)) return c.html(invalidLinkPage(), 404);
  const { link } = sign;
  const verified = await verifySigningToken(services.config.tokenSecret, token, async (recipientId) =>
    recipientId === link.recipient.id ? link.envelope.id : null).catch(() => null);
  const state = verified ? linkState(link, services.clock.now()) : { kind: 'invalid' };
  const res = await respondWithState(c, token, state, undefined, null, Promise.resolve(sign.look));
  // What the signing guard adds to every answer under /sign/.
  for (const [name, value] of Object.entries(signingPageHeaders)) res.headers.set(name, value);
  return res;
});

export default {
  async fetch(request, env) {
    const path = new URL(request.url).pathname;
    if (path.startsWith('/sign/')) return signing.fetch(request);
    if (path === '/prepare') {
      const { seal, intl: other, ...given } = await request.json();
      const revive = (given) => ({ ...given, original: Uint8Array.from(atob(given.original), (c) => c.charCodeAt(0)), completedAt: new Date(given.completedAt),
        recipients: given.recipients.map((r) => ({ ...r, events: r.events.map((e) => ({ ...e, at: new Date(e.at) })) })), fonts: fonts(env) });
      input = revive(given);
      intl = revive({ ...given, ...other });
      // The identity is loaded once per isolate, as sealIdentityOf keeps it.
      identity = await loadSealIdentity(seal);
      return new Response('ok');
    }
    if (path === '/seal') {
      const sealed = await sealPdf(certified, identity, input.completedAt);
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', sealed));
      return Response.json({ bytes: sealed.length, sha256: Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('') });
    }
    if (path === '/finish') {
      const { bytes, sha256 } = await finishDocument(input);
      // What the seal is given: the finished file with its certificate (every run makes the same bytes).
      certified = bytes;
      return Response.json({ bytes: bytes.length, sha256 });
    }
    if (path === '/intl') {
      const { bytes, sha256 } = await finishDocument(intl);
      return Response.json({ bytes: bytes.length, sha256 });
    }
    if (path === '/reference') {
      const { PDFDocument } = await import('pdf-lib');
      const saved = await (await PDFDocument.load(input.original, { updateMetadata: false })).save({ useObjectStreams: false });
      return Response.json({ bytes: saved.length });
    }
    return new Response('ok');
  },
};`;
const SUBJECT_NAMES = ['baseline', 'reference', 'finish', 'intl', 'seal', 'sign'] as const;
type Subject = (typeof SUBJECT_NAMES)[number];

async function bundle(contents: string) {
  const result = await build({
    stdin: { contents, resolveDir: root, sourcefile: 'bench-pdf-worker.js', loader: 'js' },
    bundle: true, format: 'esm', platform: 'browser', conditions: ['workerd', 'worker', 'browser'], target: 'es2022',
    minify: true, sourcemap: 'external', outfile: join(root, 'bench-pdf-worker.js'), write: false, logLevel: 'error',
  });
  const file = (ext: string) => result.outputFiles.find((f) => f.path.endsWith(ext))!.text;
  return { code: file('.js'), map: new SourceMap(JSON.parse(file('.js.map'))) };
}

const toml = readFileSync(join(root, 'wrangler.toml'), 'utf8');
const compatibilityDate = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
const compatibilityFlags = JSON.parse(/^compatibility_flags\s*=\s*(\[[^\]]*\])/m.exec(toml)?.[1] ?? '[]') as string[];

/** The PDF Worker's static assets (pdf-fonts/, filled by `postinstall`), answered from Node as a binding. */
async function serveFont(request: Request): Promise<Response> {
  const name = new URL(request.url).pathname.slice(1);
  if (!/^[\w.-]+$/.test(name)) return new Response('Not found', { status: 404 });
  return readFile(join(root, 'pdf-fonts', name)).then((bytes) => new Response(bytes), () => new Response('Not found', { status: 404 }));
}

async function start(code: string, inspect: boolean) {
  const mf = new Miniflare({ name: 'bench', modules: true, script: code, scriptPath: 'bench-pdf-worker.js', compatibilityDate, compatibilityFlags, serviceBindings: { FONTS: serveFont }, ...(inspect ? { inspectorPort: 0 } : {}) });
  await mf.ready;
  return mf;
}

// ---- Thread CPU time from /proc --------------------------------------------------------------------

async function request(mf: Miniflare, path: string, init?: RequestInit): Promise<string> {
  const res = await mf.dispatchFetch(`http://bench.test${path}`, init as never);
  const body = await res.text();
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${body}`);
  return body;
}

/** The request's CPU time in ms: on the isolate's thread (the busiest one) and on all of workerd's threads. */
async function threadCpu(mf: Miniflare, pid: number, path: string) {
  const before = threadNanos(pid);
  const body = await request(mf, path);
  const deltas = [...threadNanos(pid)].map(([tid, ns]) => (ns - (before.get(tid) ?? 0)) / 1e6);
  return { isolate: Math.max(...deltas), all: deltas.reduce((a, b) => a + b, 0), body };
}

// ---- Figures ---------------------------------------------------------------------------------------

const round = (n: number) => Number(n.toFixed(2));
function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
const summary = (values: number[]) => ({ median: round(median(values)), min: round(Math.min(...values)), max: round(Math.max(...values)), runs: values.map(round) });
/** Alternates the order of the subjects from one round to the next. */
const rounds = (n: number) => Array.from({ length: n }, (_, i) => (i % 2 ? [...SUBJECT_NAMES].reverse() : [...SUBJECT_NAMES]));
const bySubject = <T>(make: () => T) => Object.fromEntries(SUBJECT_NAMES.map((s) => [s, make()])) as Record<Subject, T>;

const input = { ...(await benchInput()), fonts: nodeFontSource() };
const intlGiven = intlInput(input);
// The seal: an RSA-2048 key and certificate, as the embedded server makes and as most CAs issue.
const { fonts: _fonts, ...wire } = input;
const prepared = JSON.stringify({
  ...wire, original: Buffer.from(input.original).toString('base64'), seal: { keyPem: TEST_SEAL_KEY_PEM, certPem: TEST_SEAL_CERT_PEM },
  intl: { title: intlGiven.title, fields: intlGiven.fields, recipients: intlGiven.recipients },
});
const link = signingLink();
const token = await signingToken(new TextEncoder().encode(SIGN_SECRET), link.envelope.id, link.recipient.id);
const paths: Record<Subject, string> = { baseline: '/baseline', reference: '/reference', finish: '/finish', intl: '/intl', seal: '/seal', sign: `/sign/${token}` };
const worker = await bundle(workerSource(JSON.stringify({ tokenSecret: SIGN_SECRET, now: SIGN_NOW, link, look: BENCH_LOOK })));
// The route's page on Node; the Worker must answer these very bytes, every time.
const pageInNode = await signPageInNode(link, token);
const pageSha256 = await sha256Hex(pageInNode);
let pageInWorkerd: string | undefined;
async function checkPage(body: string) {
  pageInWorkerd ??= body;
  if ((await sha256Hex(body)) !== (await sha256Hex(pageInWorkerd))) throw new Error('The signing page differed from one run to the next');
}

// 1. Cold, in fresh isolates. In each of the first ones: a trivial first request, then the first
// finishDocument (which also evaluates pdf-lib's modules); in each of the others, the signing page
// as the isolate's first request.
const cold = { baseline: [] as number[], finish: [] as number[], intl: [] as number[], seal: [] as number[], sign: [] as number[] };
let finished: { bytes: number; sha256: string } | undefined;
let finishedIntl: { bytes: number; sha256: string } | undefined;
let sealed: { bytes: number; sha256: string } | undefined;
for (let i = 0; i < coldRuns; i++) {
  let mf = await start(worker.code, false);
  try {
    const pid = workerdPid();
    cold.baseline.push((await threadCpu(mf, pid, paths.baseline)).isolate);
    await request(mf, '/prepare', { method: 'POST', body: prepared });
    const first = await threadCpu(mf, pid, paths.finish);
    cold.finish.push(first.isolate);
    finished = JSON.parse(first.body);
    // The first non-Latin finish of the isolate: its fonts are read (and kept) now.
    const firstIntl = await threadCpu(mf, pid, paths.intl);
    cold.intl.push(firstIntl.isolate);
    finishedIntl = JSON.parse(firstIntl.body);
    // The first seal of the isolate: /prepare has evaluated pdf-lib and pkijs already (loading the identity).
    const firstSeal = await threadCpu(mf, pid, paths.seal);
    cold.seal.push(firstSeal.isolate);
    sealed = JSON.parse(firstSeal.body);
  } finally {
    await mf.dispose();
  }
  mf = await start(worker.code, false);
  try {
    const first = await threadCpu(mf, workerdPid(), paths.sign);
    await checkPage(first.body);
    cold.sign.push(first.isolate);
  } finally {
    await mf.dispose();
  }
  process.stderr.write('c');
}

// 2. Warm, by thread CPU time; one warm-up round first.
const thread = bySubject(() => [] as number[]);
const threadAll = bySubject(() => [] as number[]);
{
  const mf = await start(worker.code, false);
  try {
    const pid = workerdPid();
    await request(mf, '/prepare', { method: 'POST', body: prepared });
    for (const subject of SUBJECT_NAMES) await request(mf, paths[subject]);
    for (const order of rounds(runs)) {
      for (const subject of order) {
        const { isolate, all, body } = await threadCpu(mf, pid, paths[subject]);
        if (subject === 'finish' && JSON.parse(body).sha256 !== finished!.sha256) throw new Error('finishDocument gave different bytes from one run to the next');
        if (subject === 'intl' && JSON.parse(body).sha256 !== finishedIntl!.sha256) throw new Error('finishDocument (other scripts) gave different bytes from one run to the next');
        // RSA PKCS#1 v1.5 is deterministic: every seal of the same file is the same bytes.
        if (subject === 'seal' && JSON.parse(body).sha256 !== sealed!.sha256) throw new Error('sealPdf gave different bytes from one run to the next');
        if (subject === 'sign') await checkPage(body);
        thread[subject].push(isolate);
        threadAll[subject].push(all);
      }
      process.stderr.write('.');
    }
  } finally {
    await mf.dispose();
  }
}

// 3. Warm, by CPU profile.
const profiles = bySubject(() => [] as Profile[]);
{
  const mf = await start(worker.code, true);
  const devtools = await openInspector(mf, 'bench');
  try {
    await request(mf, '/prepare', { method: 'POST', body: prepared });
    for (const subject of SUBJECT_NAMES) await request(mf, paths[subject]);
    for (const order of rounds(runs)) {
      for (const subject of order) profiles[subject].push(await devtools.profile(() => request(mf, paths[subject])));
      process.stderr.write('p');
    }
  } finally {
    devtools.close();
    await mf.dispose();
  }
}
process.stderr.write('\n');

// pdf-lib and pako are plain JavaScript: the same input should give the same bytes on Node.
const inNode = await finishDocument(input);
const intlInNode = await finishDocument(intlGiven);
const ms = Object.fromEntries(SUBJECT_NAMES.map((s) => [s, summary(thread[s])])) as Record<Subject, ReturnType<typeof summary>>;
const profiled = Object.fromEntries(Object.entries(profiles).map(([s, ps]) => [s, summary(ps.map((p) => profileCpu(p).cpu))])) as Record<Subject, ReturnType<typeof summary>>;
const ratio = (a: number, b: number) => (b > 0 ? round(a / b) : null);
const coldSign = median(cold.sign);
const coldPagePart = Math.max(0, coldSign - median(cold.baseline));
const result = {
  workload: {
    originalPages: 10, originalBytes: input.original.length, fields: input.fields.length, drawnSignatures: 2, drawnSignatureSize: '600x200 RGBA',
    recipients: input.recipients.length, finishedBytes: finished!.bytes, sha256: finished!.sha256, sameBytesOnNode: inNode.sha256 === finished!.sha256,
    seal: { key: 'RSA-2048, SHA-256, PAdES B-B', sealedBytes: sealed!.bytes, sha256: sealed!.sha256 },
    intl: {
      scripts: 'Polish, Arabic, Chinese, Russian, Devanagari, Thai, Japanese, Hebrew', finishedBytes: finishedIntl!.bytes, sha256: finishedIntl!.sha256,
      sameBytesOnNode: intlInNode.sha256 === finishedIntl!.sha256, bytesToLatin: round(finishedIntl!.bytes / finished!.bytes),
    },
    signPage: {
      pages: link.pages.length, fields: link.fields.length, recipients: link.everyone.length, htmlBytes: Buffer.byteLength(pageInWorkerd!),
      sha256: await sha256Hex(pageInWorkerd!), sameHtmlOnNode: (await sha256Hex(pageInWorkerd!)) === pageSha256,
    },
  },
  machine: { cpus: cpus().length, loadAverage1m: round(loadavg()[0]!) },
  threadCpuMs: {
    note: "CPU time of workerd's isolate thread per request (/proc schedstat), warm isolate",
    ...ms,
    finishToBaseline: ratio(ms.finish.median, ms.baseline.median),
    finishToReference: ratio(ms.finish.median, ms.reference.median),
    finishAllThreads: summary(threadAll.finish),
    intlToFinish: ratio(ms.intl.median, ms.finish.median),
    coldFirstIntl: summary(cold.intl),
    coldFirstFinish: summary(cold.finish),
    sealToBaseline: ratio(ms.seal.median, ms.baseline.median),
    sealToFinish: ratio(ms.seal.median, ms.finish.median),
    sealAllThreads: summary(threadAll.seal),
    coldFirstSeal: summary(cold.seal),
    signToBaseline: ratio(ms.sign.median, ms.baseline.median),
    signAllThreads: summary(threadAll.sign),
    coldFirstBaseline: summary(cold.baseline),
    coldFirstSign: summary(cold.sign),
    coldFirstSignToBaseline: ratio(coldSign, ms.baseline.median),
    coldFirstSignPagePart: { note: 'median first signing page minus median first trivial request, fresh isolates', ms: round(coldPagePart), share: ratio(coldPagePart, coldSign) },
  },
  profileMs: {
    note: 'DevTools CPU profile through the inspector: samples other than (idle) and (program)',
    ...profiled,
    finishToBaseline: ratio(profiled.finish.median, profiled.baseline.median),
    finishBySamples: summary(profiles.finish.map((p) => profileCpu(p).bySamples)),
    finishGc: summary(profiles.finish.map((p) => profileCpu(p).gc)),
    sampleIntervalMs: round(median(profiles.finish.map((p) => profileCpu(p).interval))),
    finishHotspots: hotspotsOf(profiles.finish, worker.map, 'bench-pdf-worker.js', root),
    sealToBaseline: ratio(profiled.seal.median, profiled.baseline.median),
    sealHotspots: hotspotsOf(profiles.seal, worker.map, 'bench-pdf-worker.js', root),
    signToBaseline: ratio(profiled.sign.median, profiled.baseline.median),
    signBySamples: summary(profiles.sign.map((p) => profileCpu(p).bySamples)),
    signHotspots: hotspotsOf(profiles.sign, worker.map, 'bench-pdf-worker.js', root),
  },
};

const row = (label: string, s: { median: number; min: number; max: number }, extra = '') =>
  console.log(`${label.padEnd(44)}${`${s.median} ms`.padStart(11)}   (min ${s.min}, max ${s.max})${extra}`);
console.log(`\nfinishDocument in workerd: ${result.workload.originalPages}-page original (${(input.original.length / 1024).toFixed(1)} KiB), ${input.fields.length} fields (2 drawn signatures, 600x200), ${input.recipients.length} recipients -> ${(finished!.bytes / 1024).toFixed(1)} KiB`);
console.log(`sha256 ${finished!.sha256.slice(0, 16)}..., ${result.workload.sameBytesOnNode ? 'the same bytes as on Node' : 'NOT the bytes Node makes from the same input'}`);
console.log(`the same in other scripts -> ${(finishedIntl!.bytes / 1024).toFixed(1)} KiB (${result.workload.intl.bytesToLatin}x), ${result.workload.intl.sameBytesOnNode ? 'the same bytes as on Node' : 'NOT the bytes Node makes'}`);
const { signPage } = result.workload;
console.log(`signing page (GET /sign/{token}): ${signPage.pages} pages, ${signPage.fields} fields for the signer -> ${(signPage.htmlBytes / 1024).toFixed(1)} KiB of HTML, ${signPage.sameHtmlOnNode ? "the route's page on Node" : "NOT the route's page on Node"}`);
console.log(`machine: ${result.machine.cpus} CPUs, load ${result.machine.loadAverage1m}; medians of ${runs} warm runs\n`);
console.log('Thread CPU time (isolate thread, /proc schedstat)');
row('  trivial request (baseline)', ms.baseline);
row('  pdf-lib load + save of the original (ref.)', ms.reference);
row('  finishDocument', ms.finish, `   ${result.threadCpuMs.finishToBaseline}x baseline, ${result.threadCpuMs.finishToReference}x ref.`);
row('  finishDocument, all workerd threads', result.threadCpuMs.finishAllThreads);
row('  finishDocument, names in other scripts', ms.intl, `   ${result.threadCpuMs.intlToFinish}x the Latin-only finishDocument`);
row(`  first of those in a fresh isolate (${coldRuns})`, result.threadCpuMs.coldFirstIntl);
row(`  first finishDocument in a fresh isolate (${coldRuns})`, result.threadCpuMs.coldFirstFinish);
row('  seal (sealPdf of the finished file)', ms.seal, `   ${result.threadCpuMs.sealToBaseline}x baseline, ${result.threadCpuMs.sealToFinish}x finishDocument`);
row('  seal, all workerd threads', result.threadCpuMs.sealAllThreads);
row(`  first seal in a fresh isolate (${coldRuns})`, result.threadCpuMs.coldFirstSeal);
row('  signing page', ms.sign, `   ${result.threadCpuMs.signToBaseline}x baseline`);
row('  signing page, all workerd threads', result.threadCpuMs.signAllThreads);
row(`  first request of a fresh isolate: trivial (${coldRuns})`, result.threadCpuMs.coldFirstBaseline);
row(`  first request of a fresh isolate: page (${coldRuns})`, result.threadCpuMs.coldFirstSign,
  `   ${result.threadCpuMs.coldFirstSignToBaseline}x warm baseline; the page's part ${result.threadCpuMs.coldFirstSignPagePart.ms} ms (${Math.round(100 * (result.threadCpuMs.coldFirstSignPagePart.share ?? 0))}%)`);
console.log('\nCPU profile (DevTools Profiler through the inspector)');
row('  trivial request (baseline)', profiled.baseline);
row('  pdf-lib load + save of the original (ref.)', profiled.reference);
const belowOneSample = '   (the baseline stays below one sample)';
row('  finishDocument', profiled.finish, result.profileMs.finishToBaseline === null ? belowOneSample : `   ${result.profileMs.finishToBaseline}x baseline`);
row(`    samples x interval (${result.profileMs.sampleIntervalMs} ms)`, result.profileMs.finishBySamples);
row('    of which GC', result.profileMs.finishGc);
row('  seal', profiled.seal, result.profileMs.sealToBaseline === null ? belowOneSample : `   ${result.profileMs.sealToBaseline}x baseline`);
row('  signing page', profiled.sign, result.profileMs.signToBaseline === null ? belowOneSample : `   ${result.profileMs.signToBaseline}x baseline`);
row(`    samples x interval`, result.profileMs.signBySamples);
console.log('\nfinishDocument, self time by package (mean of the profiles)');
for (const { name, ms: t } of result.profileMs.finishHotspots) console.log(`  ${`${t} ms`.padStart(9)}  ${name}`);
console.log('\nseal, self time by package (mean of the profiles)');
for (const { name, ms: t } of result.profileMs.sealHotspots.slice(0, 6)) console.log(`  ${`${t} ms`.padStart(9)}  ${name}`);
console.log('\nsigning page, self time by package (mean of the profiles)');
for (const { name, ms: t } of result.profileMs.signHotspots.slice(0, 6)) console.log(`  ${`${t} ms`.padStart(9)}  ${name}`);
if (opts.json) await writeFile(opts.json, `${JSON.stringify(result, null, 2)}\n`);
