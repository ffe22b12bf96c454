/**
 * The signing page behind the links (`/sign/{token}`), over a stand-in for the signing domain:
 * every state's page, escaping, the security headers of every answer, the cross-site checks, the
 * per-link rate limit, hostile input answered with a page (never a 500), the PDF, the token kept
 * out of the log, and the static files of the embedded server.
 *
 * One file although long: every state and answer of one page over one stand-in domain, which the
 * security checks reuse.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRateLimiter } from '../../src/adapters/embedded/memory-rate-limiter.js';
import { createApp } from '../../src/app.js';
import { type SigningState, consent } from '../../src/domain/signing/signing-state.js';
import { publicRoot, staticFiles } from '../../src/entries/static-files.js';
import { formToken } from '../../src/signing-page/form-token.js';
import { readDeclineForm, readSignForm } from '../../src/signing-page/forms.js';
import { PDF_WORKER_CSP, SIGNING_CSP, staticFileHeaders } from '../../src/signing-page/security.js';
import { ManualClock } from '../../src/ports/clock.js';
import type { Services } from '../../src/services.js';
import { fakeDomain, sampleEnvelope, sampleFields, sampleToken, signState } from './fake-signing-domain.js';

vi.mock('../../src/domain/signing/open-link.js', async () => ({ openSigningLink: (await import('./fake-signing-domain.js')).openSigningLink }));
vi.mock('../../src/domain/signing/sign-as-recipient.js', async () => ({ signAsRecipient: (await import('./fake-signing-domain.js')).signAsRecipient }));
vi.mock('../../src/domain/signing/decline-as-recipient.js', async () => ({
  declineAsRecipient: (await import('./fake-signing-domain.js')).declineAsRecipient,
}));
vi.mock('../../src/domain/signing/signing-document.js', async () => ({ signingDocument: (await import('./fake-signing-domain.js')).signingDocument }));
// A genuine link is one the test set up; the rate limit's choice of rule depends on it.
vi.mock('../../src/domain/signing/resolve-link.js', async () => {
  const { fakeDomain: domain } = await import('./fake-signing-domain.js');
  // The fake domain's functions take no first read: what stands for one only says the link is genuine.
  return { readLinkHead: async (_services: Services, token: string) => (domain.links.has(token) ? {} : null) };
});
// The company's brand comes from the database, which this suite does not have: the service's own look.
vi.mock('../../src/domain/companies/brand-look.js', () => ({
  brandLookOfRecipient: async () => ({ displayName: 'E-signature', accentColor: '#1f5fbf', accentChosen: false, logoUrl: null, language: null }),
}));

const BASE_URL = 'https://esign.example.test';
const tokenSecret = new TextEncoder().encode('test-token-secret-0123456789-abcdefghij');
const HOSTILE = `<script>alert("x")</script>`;

let app: ReturnType<typeof createApp>;
let clock: ManualClock;

beforeEach(() => {
  fakeDomain.reset();
  clock = new ManualClock(new Date('2026-11-22T12:00:00.000Z'));
  const services = {
    rateLimiter: new MemoryRateLimiter(clock),
    clock,
    config: { tokenSecret, baseUrl: BASE_URL, keyEnvironment: 'test' },
    clientIp: (request) => request.headers.get('x-test-client-ip') ?? '203.0.113.1',
  } as Partial<Services> as Services;
  app = createApp(services);
});

let seeds = 0;
/** A link of its own for each test, so rate limits never meet. */
function link(state: SigningState, extra: Partial<Parameters<typeof fakeDomain.links.set>[1]> = {}): string {
  const token = sampleToken(`t${++seeds}${Math.random().toString(36).slice(2)}`);
  fakeDomain.links.set(token, { state, ...extra });
  return token;
}

type Answer = { status: number; text: string; headers: Headers };

async function request(method: string, path: string, init: { headers?: Record<string, string>; body?: BodyInit } = {}): Promise<Answer> {
  const response = await app.request(path, { method, headers: init.headers, body: init.body });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

const page = (token: string, headers: Record<string, string> = {}) => request('GET', `/sign/${token}`, { headers });

/** A post as the page's own form makes it: this origin, urlencoded, the right form token. */
type Headers_ = Record<string, string | undefined>;
async function post(path: string, token: string, fields: Record<string, string> | [string, string][], headers: Headers_ = {}) {
  const body = new URLSearchParams(Array.isArray(fields) ? fields : Object.entries(fields));
  body.append('form_token', await formToken(tokenSecret, token));
  const sent = { 'content-type': 'application/x-www-form-urlencoded', origin: BASE_URL, 'sec-fetch-site': 'same-origin', ...headers };
  // An undefined header is one the client does not send.
  const present = Object.fromEntries(Object.entries(sent).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return request('POST', path, { headers: present, body: body.toString() });
}
const sign = (token: string, fields: Record<string, string> | [string, string][], headers?: Headers_) => post(`/sign/${token}`, token, fields, headers);
const decline = (token: string, reason: string, headers?: Headers_) => post(`/sign/${token}/decline`, token, { reason }, headers);

const completeForm = (): Record<string, string> => ({
  consent: 'yes',
  'field.6a1d1f50-1111-4a4a-8a8a-000000000001': 'Acme Ltd',
  'field.6a1d1f50-1111-4a4a-8a8a-000000000002': 'yes',
  'field.6a1d1f50-1111-4a4a-8a8a-000000000003': 'CC',
  'field.6a1d1f50-1111-4a4a-8a8a-000000000004': 'Cleo Client',
});

function expectSecurityHeaders(answer: Answer, what: string) {
  expect(answer.headers.get('cache-control'), what).toBe('no-store');
  expect(answer.headers.get('referrer-policy'), what).toBe('no-referrer');
  expect(answer.headers.get('content-security-policy'), what).toBe(SIGNING_CSP);
  expect(answer.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(answer.headers.get('x-frame-options'), what).toBe('DENY');
}

const signCalls = () => fakeDomain.calls.filter((call) => call.verb === 'sign' || call.verb === 'decline');

describe('the page of each state', () => {
  it('shows the sign page: envelope, document, fields, consent, sign and decline', async () => {
    const token = link(signState());
    const answer = await page(token);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    const html = answer.text;
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('<html lang="en" dir="ltr">');
    expect(html).toMatch(/<main id="main"/);
    expect(html).toContain('<h1><bdi>Mutual Non-Disclosure Agreement</bdi></h1>');
    expect(html).toContain('olivia@acme.test');
    expect(html).toContain('Please review and sign the NDA');
    expect(html).toContain('<script type="module" src="/static/sign.js"></script>');
    expect(html).toContain('<link rel="stylesheet" href="/static/sign.css">');
    // No inline script or style: the content policy would block them.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=/);
    // The document, drawn by pdf.js, with this signer's boxes where the template puts them.
    expect(html).toContain(`data-document="/sign/${token}/document.pdf"`);
    expect(html).toMatch(/class="page" data-page="1" data-width="612" data-height="792"/);
    expect(html).toMatch(/data-field-box="6a1d1f50-1111-4a4a-8a8a-000000000004" data-x="72" data-y="560" data-w="220" data-h="50"/);
    expect(html).toContain(`href="/sign/${token}/document.pdf?download=1"`);
    // The form: one field.<id> per field the signer fills; none for what the service fills in.
    expect(html).toContain(`action="/sign/${token}" novalidate`);
    expect(html).toContain(`name="form_token" value="${await formToken(tokenSecret, token)}"`);
    for (const id of ['01', '02', '03', '04']) expect(html).toContain(`name="field.6a1d1f50-1111-4a4a-8a8a-0000000000${id}"`);
    for (const id of ['05', '06', '07']) expect(html).not.toContain(`name="field.6a1d1f50-1111-4a4a-8a8a-0000000000${id}"`);
    expect(html).toMatch(/id="input-6a1d1f50-1111-4a4a-8a8a-000000000005" type="text" readonly value="Cleo Client"/);
    expect(html).toMatch(/id="input-6a1d1f50-1111-4a4a-8a8a-000000000007" type="text" readonly value="Filled in when you sign"/);
    expect(html).toMatch(/name="field.6a1d1f50-1111-4a4a-8a8a-000000000001" type="text" maxlength="500"/);
    expect(html).toMatch(/name="field.6a1d1f50-1111-4a4a-8a8a-000000000002" type="checkbox" value="yes"/);
    expect(html).toMatch(/<canvas class="signature-pad" width="600" height="200"/);
    expect(html).toContain(`name="consent" type="checkbox" value="yes"`);
    expect(html).toContain(consent.text);
    expect(html).toContain(`Consent version ${consent.version}`);
    expect(html).toMatch(/<button class="button primary sign-button" type="submit" data-busy-label="Signing…">Sign<\/button>/);
    expect(html).toContain('<summary>Decline to sign</summary>');
    expect(html).toContain(`action="/sign/${token}/decline"`);
    expect(html).toMatch(/<textarea id="decline-reason" name="reason" rows="3" maxlength="500" required/);
    // Every visible input and text area has a label.
    for (const [, id] of html.matchAll(/<(?:input|textarea)(?![^>]*type="(?:hidden|radio)")[^>]*\bid="([^"]+)"/g)) {
      expect(html, `label for ${id}`).toContain(`<label for="${id}">`);
    }
    expect(fakeDomain.calls).toEqual([{ verb: 'open', token, who: { ip: '203.0.113.1', userAgent: null } }]);
  });

  it('escapes every value that comes from a sender or a recipient', async () => {
    const hostileFields = sampleFields({ text: HOSTILE, checkbox: `"><img src=x onerror=alert(1)>` }).map((field) =>
      field.prefill ? { ...field, prefill: `${HOSTILE} & co` } : field,
    );
    const token = link(
      signState({
        envelope: sampleEnvelope({ title: `NDA ${HOSTILE}`, message: `Hello ${HOSTILE}`, senderEmail: `x${HOSTILE}@acme.test` }),
        recipient: { id: 'rcp_x', name: `Cleo ${HOSTILE}`, email: `c${HOSTILE}@example.com` },
        fields: hostileFields,
      }),
    );
    const { status, text } = await page(token);
    expect(status).toBe(200);
    expect(text).not.toContain('<script>alert');
    expect(text).not.toContain('<img src=x');
    expect(text).toContain('<h1><bdi>NDA &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</bdi></h1>');
    expect(text).toContain('<title>Sign: NDA &lt;script&gt;');
    expect(text).toContain('Hello &lt;script&gt;');
    expect(text).toContain('Cleo &lt;script&gt;');
    expect(text).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(text).toContain('value="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co"');

    for (const state of [
      { kind: 'not_your_turn', envelope: sampleEnvelope({ title: HOSTILE }), recipient: { name: HOSTILE } },
      { kind: 'completed', envelope: sampleEnvelope({ title: HOSTILE, senderEmail: HOSTILE }), documentReady: true },
      { kind: 'voided', envelope: sampleEnvelope({ title: HOSTILE }) },
    ] as SigningState[]) {
      const other = await page(link(state));
      expect(other.text, state.kind).not.toContain('<script>alert');
      expect(other.text, state.kind).toContain('&lt;script&gt;');
    }
  });

  it.each([
    ['not your turn', { kind: 'not_your_turn', envelope: sampleEnvelope(), recipient: { name: 'Walt' } }, 'It is not your turn to sign yet', 'Hello Walt.'],
    ['signed', { kind: 'signed', envelope: sampleEnvelope(), signedAt: new Date('2026-11-22T12:30:00.000Z') }, 'You have signed', '22 November 2026 at 12:30 UTC'],
    ['declined by this signer', { kind: 'declined', envelope: sampleEnvelope(), byThisRecipient: true }, 'You declined to sign', 'The sender has been told'],
    ['declined by another', { kind: 'declined', envelope: sampleEnvelope(), byThisRecipient: false }, 'This document was declined', 'Someone asked to sign this document declined'],
    ['voided', { kind: 'voided', envelope: sampleEnvelope() }, 'This document was cancelled', 'can no longer be signed'],
    ['expired', { kind: 'expired', envelope: sampleEnvelope() }, 'This signing request has expired', 'It could be signed until'],
    ['completed, PDF not ready', { kind: 'completed', envelope: sampleEnvelope(), documentReady: false }, 'Everyone has signed', 'is being prepared. You will get an e-mail'],
    ['copy recipient', { kind: 'copy', envelope: sampleEnvelope() }, 'You receive a copy', 'there is nothing for you to sign'],
  ] as [string, SigningState, string, string][])('shows the %s page', async (_name, state, heading, sentence) => {
    const token = link(state);
    const answer = await page(token);
    expect(answer.status).toBe(200);
    expect(answer.text).toContain(`<h1 id="notice-title">${heading}</h1>`);
    expect(answer.text).toContain(sentence);
    expect(answer.text).toContain('Mutual Non-Disclosure Agreement');
    expect(answer.text).not.toContain('name="field.');
    // Only a signer waiting for their turn may decline already; no other state has a form.
    expect(answer.text.includes(`action="/sign/${token}/decline"`)).toBe(state.kind === 'not_your_turn');
    expect(answer.text.includes('/document.pdf')).toBe(false);
  });

  it('links the finished PDF once it is ready', async () => {
    const token = link({ kind: 'completed', envelope: sampleEnvelope(), documentReady: true });
    const { text } = await page(token);
    expect(text).toContain(`href="/sign/${token}/document.pdf?download=1"`);
    expect(text).toContain('Download the signed document (PDF)');
    expect(text).not.toContain('being prepared');
  });

  it('answers every kind of invalid link with the same 404 page, telling nothing', async () => {
    const good = sampleToken('validlink');
    fakeDomain.links.set(good, { state: signState() });
    const [recipient, mac] = good.split('.') as [string, string];
    const variants = [
      sampleToken('validlink', 'tampered'), // another MAC
      `${recipient}.${mac.slice(0, 20)}`, // truncated
      sampleToken('anotherenvelope'), // of another envelope: the domain says invalid
      'not-a-token',
      `${recipient}`,
      `${recipient}.${mac}.extra`,
      encodeURIComponent(`${recipient}.\u0000${mac}`),
      '%ED%A0%80.abc',
      'x'.repeat(3000),
    ];
    const bodies = new Set<string>();
    for (const token of variants) {
      const answer = await page(token);
      expect(answer.status, token).toBe(404);
      expectSecurityHeaders(answer, token);
      expect(answer.text).toContain('<h1 id="notice-title">This link is not valid</h1>');
      expect(answer.text).not.toContain('Mutual Non-Disclosure');
      bodies.add(answer.text);
    }
    expect(bodies.size).toBe(1);
    // Malformed ones never reach the domain.
    expect(fakeDomain.calls.map((call) => call.token)).toEqual([variants[0], variants[1], variants[2]]);
  });
});

describe('signing and declining', () => {
  it('signs with the posted values and sends the signer to the page, 303', async () => {
    const token = link(signState());
    const longAgent = 'Mozilla/5.0 '.repeat(100);
    const answer = await sign(token, completeForm(), { 'user-agent': longAgent, 'x-test-client-ip': '198.51.100.7' });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`/sign/${token}`);
    expectSecurityHeaders(answer, 'the 303');
    const [call] = signCalls();
    expect(call).toEqual({
      verb: 'sign',
      token,
      submission: {
        consent: true,
        values: {
          '6a1d1f50-1111-4a4a-8a8a-000000000001': 'Acme Ltd',
          '6a1d1f50-1111-4a4a-8a8a-000000000002': 'yes',
          '6a1d1f50-1111-4a4a-8a8a-000000000003': 'CC',
          '6a1d1f50-1111-4a4a-8a8a-000000000004': 'Cleo Client',
        },
        language: 'en',
      },
      who: { ip: '198.51.100.7', userAgent: longAgent.slice(0, 500) },
    });
    expect((await page(token)).text).toContain('You have signed');
  });

  it('takes multipart/form-data and a drawn signature as a PNG data URL', async () => {
    const token = link(signState());
    const form = new FormData();
    for (const [key, value] of Object.entries(completeForm())) form.append(key, value);
    const drawn = `data:image/png;base64,${'iVBORw0KGgo'.padEnd(4000, 'A')}`;
    form.set('field.6a1d1f50-1111-4a4a-8a8a-000000000004', drawn);
    form.append('mode.6a1d1f50-1111-4a4a-8a8a-000000000004', 'draw');
    form.append('form_token', await formToken(tokenSecret, token));
    const answer = await request('POST', `/sign/${token}`, { headers: { origin: BASE_URL }, body: form });
    expect(answer.status).toBe(303);
    const [call] = signCalls();
    expect(call?.verb === 'sign' && call.submission.values['6a1d1f50-1111-4a4a-8a8a-000000000004']).toBe(drawn);
  });

  it('shows the domain’s refusal beside the fields, keeping what was typed, 422', async () => {
    const token = link(signState());
    const answer = await sign(token, { 'field.6a1d1f50-1111-4a4a-8a8a-000000000001': `Acme ${HOSTILE}` });
    expect(answer.status).toBe(422);
    expectSecurityHeaders(answer, 'the 422');
    const html = answer.text;
    expect(html).toMatch(/<div class="error-summary" role="alert" tabindex="-1"/);
    expect(html).toContain('Agree to sign electronically to continue.');
    expect(html).toMatch(/id="input-consent" name="consent" type="checkbox" value="yes" aria-required="true" aria-describedby="consent-version error-consent" aria-invalid="true">/);
    expect(html).toContain('Tick this box to agree to sign electronically.');
    // A problem of a field: linked from the summary, told beside the field, and described by it.
    expect(html).toContain('<a href="#input-6a1d1f50-1111-4a4a-8a8a-000000000004">Fill in “Signature”.</a>');
    expect(html).toMatch(/<p class="field-error" id="error-6a1d1f50-1111-4a4a-8a8a-000000000004">/);
    expect(html).toMatch(/id="input-6a1d1f50-1111-4a4a-8a8a-000000000004"[^>]*aria-describedby="error-6a1d1f50-1111-4a4a-8a8a-000000000004" aria-invalid="true"/);
    // What was typed is kept, escaped.
    expect(html).toContain('value="Acme &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"');
    expect(html).not.toContain('<script>alert');
  });

  it('puts a drawn signature of a refused form back into the drawing', async () => {
    const token = link(signState());
    const drawn = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==';
    const answer = await sign(token, { 'field.6a1d1f50-1111-4a4a-8a8a-000000000004': drawn });
    expect(answer.status).toBe(422);
    expect(answer.text).toMatch(/data-signature="6a1d1f50-1111-4a4a-8a8a-000000000004" data-mode="draw"/);
    expect(answer.text).toContain(`<input type="hidden" value="${drawn}" data-drawn-value name="field.6a1d1f50-1111-4a4a-8a8a-000000000004">`);
  });

  it('sends the signer to the page of whatever came of signing (voided meanwhile)', async () => {
    const token = link(signState(), { sign: () => ({ kind: 'voided', envelope: sampleEnvelope() }) });
    const answer = await sign(token, completeForm());
    expect(answer.status).toBe(303);
    expect((await page(token)).text).toContain('This document was cancelled');
  });

  it('declines with the reason, 303, and refuses an empty or overlong reason, 422', async () => {
    const token = link(signState());
    for (const reason of ['', '   ', 'x'.repeat(501)]) {
      const refused = await decline(token, reason);
      expect(refused.status).toBe(422);
      expect(refused.text).toMatch(/<details class="decline" open>/);
      expect(refused.text).toMatch(/<textarea id="decline-reason"[^>]*aria-describedby="decline-reason-hint error-reason" aria-invalid="true">/);
    }
    expect(signCalls()).toEqual([]);
    const answer = await decline(token, '  The terms changed.  ', { 'x-test-client-ip': '198.51.100.8' });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`/sign/${token}`);
    expect(signCalls()).toEqual([{ verb: 'decline', token, reason: 'The terms changed.', who: { ip: '198.51.100.8', userAgent: null } }]);
    expect((await page(token)).text).toContain('You declined to sign');
  });

  it('lets a signer decline before their turn', async () => {
    const token = link({ kind: 'not_your_turn', envelope: sampleEnvelope(), recipient: { name: 'Walt' } });
    const refused = await decline(token, '');
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('It is not your turn to sign yet');
    expect(refused.text).toContain('Please give a reason for declining.');
    expect((await decline(token, 'Not my deal')).status).toBe(303);
  });
});

describe('the PDF', () => {
  it('serves the document inline, or as an attachment with ?download=1', async () => {
    const bytes = new TextEncoder().encode('%PDF-1.7 fake');
    const token = link(signState(), { document: { bytes, fileName: 'Mutual-NDA.pdf', finished: false } });
    const inline = await app.request(`/sign/${token}/document.pdf`);
    expect(inline.status).toBe(200);
    expect(inline.headers.get('content-type')).toBe('application/pdf');
    expect(inline.headers.get('content-disposition')).toBe(`inline; filename="Mutual-NDA.pdf"; filename*=UTF-8''Mutual-NDA.pdf`);
    expect(new Uint8Array(await inline.arrayBuffer())).toEqual(bytes);
    expectSecurityHeaders({ status: 200, text: '', headers: inline.headers }, 'the PDF');
    const download = await app.request(`/sign/${token}/document.pdf?download=1`);
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="Mutual-NDA.pdf"; filename*=UTF-8''Mutual-NDA.pdf`);
  });

  it('answers a link without a document with the invalid-link page', async () => {
    const token = link({ kind: 'voided', envelope: sampleEnvelope() }, { document: null });
    const answer = await request('GET', `/sign/${token}/document.pdf?download=1`);
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.text).toContain('This link is not valid');
  });
});

describe('security', () => {
  it('puts the security headers on every answer under /sign/', async () => {
    const token = link(signState(), { document: { bytes: new Uint8Array([37]), fileName: 'a.pdf', finished: false } });
    const answers: [string, Answer][] = [
      ['page', await page(token)],
      ['404', await page('nope')],
      ['unknown path', await request('GET', `/sign/${token}/other`)],
      ['405', await request('PUT', `/sign/${token}`)],
      ['403', await sign(token, completeForm(), { origin: 'https://evil.example' })],
      ['422', await sign(token, {})],
      ['413', await request('POST', `/sign/${token}`, { headers: { 'content-type': 'application/x-www-form-urlencoded', origin: BASE_URL }, body: 'a='.padEnd(1024 * 1024 + 10, 'x') })],
      ['303', await sign(token, completeForm())],
    ];
    fakeDomain.failure = new Error('boom');
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    answers.push(['500', await page(token)]);
    quiet.mockRestore();
    for (const [what, answer] of answers) {
      expectSecurityHeaders(answer, what);
      expect(answer.headers.get('content-type') ?? 'text/html', what).toMatch(/^text\/html/);
    }
    expect(answers.map(([, answer]) => answer.status)).toEqual([200, 404, 404, 405, 403, 422, 413, 303, 500]);
    expect(answers[3]![1].headers.get('allow')).toBe('GET, HEAD, POST');
  });

  it('refuses a post from another site (Origin, Sec-Fetch-Site), 403', async () => {
    const token = link(signState());
    for (const headers of [
      { origin: 'https://evil.example' },
      { origin: 'http://esign.example.test' },
      { origin: 'https://esign.example.test.evil.example' },
      { origin: BASE_URL, 'sec-fetch-site': 'cross-site' },
      { origin: BASE_URL, 'sec-fetch-site': 'same-site' },
      // A sandboxed frame or a redirect of another site sends `null` too, without same-origin.
      { origin: 'null', 'sec-fetch-site': 'cross-site' },
      { origin: 'null', 'sec-fetch-site': undefined },
      { origin: '', 'sec-fetch-site': undefined },
    ]) {
      for (const answer of [await sign(token, completeForm(), headers), await decline(token, 'no', headers)]) {
        expect(answer.status, JSON.stringify(headers)).toBe(403);
        expect(answer.text).toContain('The form could not be accepted');
        expectSecurityHeaders(answer, '403');
      }
    }
    expect(signCalls()).toEqual([]);
  });

  it('takes the page’s own post, which browsers send as Origin null under no-referrer', async () => {
    const token = link(signState());
    const answer = await sign(token, completeForm(), { origin: 'null', 'sec-fetch-site': 'same-origin' });
    expect(answer.status).toBe(303);
    // A client that sends neither header (not a browser) depends on the form token alone.
    const other = link(signState());
    const plain = await post(`/sign/${other}`, other, completeForm(), { origin: undefined, 'sec-fetch-site': undefined });
    expect(plain.status).toBe(303);
  });

  it('refuses a post without the form token of its link, 403', async () => {
    const token = link(signState());
    const otherLink = link(signState());
    const bodies = [
      new URLSearchParams(completeForm()),
      new URLSearchParams({ ...completeForm(), form_token: 'forged' }),
      new URLSearchParams({ ...completeForm(), form_token: await formToken(tokenSecret, otherLink) }),
      new URLSearchParams({ ...completeForm(), form_token: await formToken(new TextEncoder().encode('another-secret-0123456789-abcdefghij'), token) }),
    ];
    const twice = new URLSearchParams(completeForm());
    twice.append('form_token', await formToken(tokenSecret, token));
    twice.append('form_token', await formToken(tokenSecret, token));
    bodies.push(twice);
    for (const body of bodies) {
      for (const path of [`/sign/${token}`, `/sign/${token}/decline`]) {
        const answer = await request('POST', path, { headers: { 'content-type': 'application/x-www-form-urlencoded', origin: BASE_URL }, body: `${body}&reason=x` });
        expect(answer.status, `${path} ${body}`).toBe(403);
      }
    }
    const json = await request('POST', `/sign/${token}`, { headers: { 'content-type': 'application/json', origin: BASE_URL }, body: '{"consent":"yes"}' });
    expect(json.status).toBe(403);
    expect(signCalls()).toEqual([]);
  });

  it('limits each link to 60 requests in 15 minutes: the 61st gets a 429 page with Retry-After', async () => {
    const token = link(signState(), { document: { bytes: new Uint8Array([37]), fileName: 'a.pdf', finished: false } });
    for (let i = 0; i < 30; i++) expect((await page(token)).status).toBe(200);
    for (let i = 0; i < 30; i++) expect((await request('GET', `/sign/${token}/document.pdf`)).status).toBe(200);
    const limited = await sign(token, completeForm());
    expect(limited.status).toBe(429);
    expect(limited.text).toContain('Too many attempts');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expectSecurityHeaders(limited, '429');
    expect(signCalls()).toEqual([]);
    // A made-up MAC for the same recipient is not the link: it is not refused by the link's count.
    const [recipient] = token.split('.');
    expect((await page(`${recipient}.${'Z'.repeat(43)}`)).status).toBe(404);
    // Other links are not affected, and the window passes.
    expect((await page(link(signState()))).status).toBe(200);
    clock.advance(30 * 60 * 1000);
    expect((await page(token)).status).toBe(200);
  });

  it('counts tokens that are not a genuine link per client address: 60 in 15 minutes, and never against the link', async () => {
    const token = link(signState());
    const [recipient] = token.split('.');
    const from = (address: string) => ({ 'x-test-client-ip': address });
    for (let i = 0; i < 60; i++) expect((await page(`${recipient}.${'Z'.repeat(42)}${i % 10}`, from('198.51.100.9'))).status).toBe(404);
    const limited = await page(`${recipient}.${'Y'.repeat(43)}`, from('198.51.100.9'));
    expect(limited.status).toBe(429);
    expect(limited.text).toContain('Too many attempts');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expectSecurityHeaders(limited, '429');
    // Nothing else is held back: the real link from that very address, and made-up ones from another.
    expect((await page(token, from('198.51.100.9'))).status).toBe(200);
    expect((await page(`${recipient}.${'Y'.repeat(43)}`, from('198.51.100.10'))).status).toBe(404);
    expect(fakeDomain.calls.filter((call) => call.verb === 'open' && call.token !== token)).toHaveLength(61);
  });
});

describe('hostile input: a page, never a 500', () => {
  it('refuses NUL characters, overlong values and oversized drawings with the sign page, 422', async () => {
    const token = link(signState());
    const cases: [Record<string, string>, string][] = [
      [{ ...completeForm(), 'field.6a1d1f50-1111-4a4a-8a8a-000000000001': 'Acme\u0000Ltd' }, 'cannot be accepted'],
      [{ ...completeForm(), 'field.6a1d1f50-1111-4a4a-8a8a-000000000001': 'x'.repeat(501) }, 'Must be at most 500 characters.'],
      [{ ...completeForm(), 'field.6a1d1f50-1111-4a4a-8a8a-000000000004': `data:image/png;base64,${'A'.repeat(300_000)}` }, 'The drawing is too large.'],
      [{ ...completeForm(), 'field.6a1d1f50-1111-4a4a-8a8a-000000000004': 'data:image/svg+xml,<svg/>' }, 'The drawing could not be read.'],
      [{ ...completeForm(), [`field.${'x'.repeat(65)}`]: 'a' }, 'The form has a field this page does not have.'],
      [{ ...completeForm(), 'field.a\u0000b': 'a' }, 'The form has a field this page does not have.'],
    ];
    for (const [form, message] of cases) {
      const answer = await sign(token, form);
      expect(answer.status, message).toBe(422);
      expect(answer.text).toContain(message);
      expect(answer.text).not.toContain('\u0000');
    }
    const twice = await sign(token, [...Object.entries(completeForm()), ['field.6a1d1f50-1111-4a4a-8a8a-000000000001', 'again']]);
    expect(twice.status).toBe(422);
    expect(twice.text).toContain('This field was sent more than once.');
    expect(signCalls()).toEqual([]);
  });

  it('refuses a decline reason with a NUL, 422', async () => {
    const token = link(signState());
    const answer = await decline(token, 'no\u0000thanks');
    expect(answer.status).toBe(422);
    expect(answer.text).toContain('cannot be accepted');
    expect(signCalls()).toEqual([]);
  });

  it('never passes on an unpaired surrogate', async () => {
    // Over HTTP the form is UTF-8, which cannot carry one: an encoded surrogate arrives as U+FFFD.
    const token = link(signState());
    const answer = await request('POST', `/sign/${token}`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: BASE_URL },
      body: `form_token=${await formToken(tokenSecret, token)}&consent=yes&field.6a1d1f50-1111-4a4a-8a8a-000000000004=%ED%A0%80&field.6a1d1f50-1111-4a4a-8a8a-000000000001=a&field.6a1d1f50-1111-4a4a-8a8a-000000000003=b`,
    });
    expect(answer.status).toBe(303);
    const [call] = signCalls();
    expect(call?.verb === 'sign' && call.submission.values['6a1d1f50-1111-4a4a-8a8a-000000000004']).toMatch(/^\ufffd+$/);
    // Whatever reaches the readers as text is checked there all the same.
    expect(readSignForm([['field.a', 'x\ud800y']]).problems).toEqual([{ field: 'a', code: 'unstorable' }]);
    expect(readSignForm([['field.a', 'x\udc00']]).submission.values).toEqual({});
    expect(readDeclineForm([['reason', 'why\ud800']]).problems).toHaveLength(1);
    expect(readSignForm([['field.a', new File(['x'], 'x.txt')]]).problems).toEqual([{ field: 'a', code: 'file_sent' }]);
  });

  it('answers a body over 1 MiB with an HTML page, 413', async () => {
    const token = link(signState());
    const answer = await request('POST', `/sign/${token}`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: BASE_URL },
      body: `form_token=x&field.a=${'A'.repeat(1024 * 1024)}`,
    });
    expect(answer.status).toBe(413);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.text).toContain('The form is too large');
    // The API keeps its JSON answer.
    const api = await request('POST', '/v1/contacts', { headers: { 'content-type': 'application/json' }, body: `"${'A'.repeat(1024 * 1024)}"` });
    expect(api.status).toBe(413);
    expect(JSON.parse(api.text).error.code).toBe('payload_too_large');
  });

  it('answers a malformed multipart body with a page', async () => {
    const token = link(signState());
    const answer = await request('POST', `/sign/${token}`, {
      headers: { 'content-type': 'multipart/form-data; boundary=xyz', origin: BASE_URL },
      body: '--xyz\r\nContent-Disposition: form-data; name="form_token"\r\n\r\nbroken',
    });
    expect([403, 422]).toContain(answer.status);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
  });
});

describe('the token stays out of the log', () => {
  let output: string[];
  beforeEach(() => {
    output = [];
    for (const method of ['log', 'error', 'warn', 'info', 'debug'] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        output.push(args.map((arg) => (arg instanceof Error ? `${arg.message} ${arg.stack}` : String(arg))).join(' '));
      });
    }
  });
  afterEach(() => vi.restoreAllMocks());

  it('logs a failure by its route, with the token masked wherever the error quoted it', async () => {
    const token = link(signState());
    const mac = token.split('.')[1]!;
    fakeDomain.failure = Object.assign(new Error(`lookup failed for /sign/${token} (mac ${mac})`), { cause: new Error(`driver: ${token}`) });
    const answer = await page(token);
    expect(answer.status).toBe(500);
    expect(answer.text).toContain('Something went wrong');
    expect(answer.text).not.toContain('lookup failed');
    const logged = output.join('\n');
    // By its route and the id the answer carries, so that a signer's report leads to the line.
    expect(logged).toContain(`unhandled error on GET /sign/:token (request ${answer.headers.get('x-request-id')})`);
    expect(logged).toContain('[signing token]');
    expect(logged).not.toContain(mac);

    fakeDomain.failure = null;
    for (const answer of [await page(token), await sign(token, completeForm()), await decline(token, 'x'), await page('bad')]) expect(answer.status).toBeLessThan(500);
    expect(output.join('\n')).not.toContain(mac);
  });
});

describe('static files of the embedded server', () => {
  const statics = staticFiles();

  it('serves the script, the style and pdf.js with their content types and headers', async () => {
    const files: [string, RegExp][] = [
      ['/static/sign.js', /^text\/javascript/],
      ['/static/sign.css', /^text\/css/],
      ['/static/vendor/pdfjs/pdf.min.mjs', /^text\/javascript/],
      ['/static/vendor/pdfjs/pdf.worker.min.mjs', /^text\/javascript/],
    ];
    for (const [path, type] of files) {
      const response = await statics.request(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toMatch(type);
      expect(await response.text(), path).toBe(readFileSync(join(publicRoot, path), 'utf8'));
      for (const [name, value] of Object.entries(staticFileHeaders(path))) expect(response.headers.get(name), `${path} ${name}`).toBe(value);
    }
    const worker = await statics.request('/static/vendor/pdfjs/pdf.worker.min.mjs');
    expect(worker.headers.get('content-security-policy')).toBe(PDF_WORKER_CSP);
    expect(PDF_WORKER_CSP).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect((await statics.request('/static/sign.js')).headers.get('content-security-policy')).toBe(SIGNING_CSP);
  });

  it('serves nothing outside public/static', async () => {
    for (const path of ['/static/missing.js', '/static/../package.json', '/static/%2e%2e/package.json', '/static/..%2f..%2fpackage.json', '/static/_headers']) {
      const response = await statics.request(path);
      expect(response.status, path).toBe(404);
    }
    expect((await statics.request('/static/sign.js', { method: 'POST' })).status).toBe(404);
  });

  it('gives the Worker’s static assets the same headers (public/_headers)', () => {
    const rules = new Map<string, Map<string, string>>();
    let current: Map<string, string> | undefined;
    for (const line of readFileSync(join(publicRoot, '_headers'), 'utf8').split('\n')) {
      if (line.startsWith('#') || line.trim() === '') continue;
      if (!line.startsWith(' ')) rules.set(line.trim(), (current = new Map()));
      else if (!line.trim().startsWith('!')) {
        const [name, ...value] = line.trim().split(': ');
        current!.set(name!, value.join(': '));
      }
    }
    expect(Object.fromEntries(rules.get('/static/*')!)).toEqual(staticFileHeaders('/static/sign.js'));
    expect(rules.get('/static/vendor/pdfjs/pdf.worker.min.mjs')?.get('Content-Security-Policy')).toBe(PDF_WORKER_CSP);
  });
});
