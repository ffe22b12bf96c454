/**
 * The signing page's forms over the real domain: a signature and a decline posted as a browser
 * posts them, what is stored of them, a refusal shown beside the fields with what was sent, and
 * hostile input answered with a page (never a 500) that stores nothing.
 */
import { decode } from 'fast-png';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SigningRefused } from '../../src/domain/signing/signing-state.js';
import { acceptDeclineReason, acceptSubmission } from '../../src/domain/signing/accept-submission.js';
import { readSignForm } from '../../src/signing-page/forms.js';
import { canvasRows, encodePng } from '../support/png.js';
import {
  HOSTILE,
  type PageCompany,
  actsOf,
  completeForm,
  openPageStack,
  expectSecurityHeaders,
  pageClient,
  pageTemplate,
  sendForPage,
  storedValues,
} from '../support/signing-page.js';
import { BASE_URL, type TestStack } from '../support/stack.js';

let stack: TestStack;
let company: PageCompany;
let client: ReturnType<typeof pageClient>;
beforeAll(async () => ({ stack, company, client } = await openPageStack()));
afterAll(() => stack.close());

const unacted = { status: 'viewed', acts: [] };

describe('signing and declining', () => {
  it('signs with the posted values and sends the signer to the page, 303', async () => {
    const { envelopeId, client: token, clientId, ids } = await sendForPage(stack, company);
    const longAgent = 'Mozilla/5.0 '.repeat(100);
    const answer = await client.sign(token, completeForm(ids), { 'user-agent': longAgent, 'x-test-client-ip': '198.51.100.7' });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`/sign/${token}`);
    expectSecurityHeaders(answer, 'the 303');
    expect(await storedValues(stack, clientId)).toMatchObject({
      [ids.text]: 'Acme Ltd',
      [ids.checkbox]: 'true',
      [ids.initials]: 'CC',
      [ids.signature]: 'Cleo Client',
    });
    const { status, acts } = await actsOf(stack, envelopeId, clientId);
    expect(status).toBe('signed');
    const who = { ip: '198.51.100.7', user_agent: longAgent.slice(0, 500) };
    expect(acts).toEqual([
      { kind: 'recipient.consented', data: expect.objectContaining({ ...who, consent_version: 'esign-consent-2026-11/en', language: 'en' }) },
      { kind: 'recipient.signed', data: expect.objectContaining(who) },
    ]);
    expect((await client.page(token)).text).toContain('You have signed');
  });

  it('takes multipart/form-data and a drawn signature as a PNG data URL', async () => {
    const { client: token, clientId, ids } = await sendForPage(stack, company);
    const form = new FormData();
    for (const [key, value] of Object.entries(completeForm(ids))) form.append(key, value);
    const drawn = `data:image/png;base64,${encodePng(canvasRows(600, 200), 600, 200).toString('base64')}`;
    form.set(`field.${ids.signature}`, drawn);
    form.append(`mode.${ids.signature}`, 'draw');
    form.append('form_token', await client.formToken(token));
    const answer = await client.request('POST', `/sign/${token}`, { headers: { origin: BASE_URL }, body: form });
    expect(answer.status).toBe(303);
    // What is kept is the service's own PNG of the drawing.
    const stored = (await storedValues(stack, clientId))[ids.signature]!;
    expect(stored).toMatch(/^data:image\/png;base64,/);
    expect(decode(Buffer.from(stored.split(',')[1]!, 'base64'))).toMatchObject({ width: 600, height: 200 });
  });

  it('shows the domain’s refusal beside the fields, keeping what was typed, 422', async () => {
    const { client: token, ids } = await sendForPage(stack, company);
    const answer = await client.sign(token, { [`field.${ids.text}`]: `Acme ${HOSTILE}` });
    expect(answer.status).toBe(422);
    expectSecurityHeaders(answer, 'the 422');
    const html = answer.text;
    expect(html).toMatch(/<div class="error-summary" role="alert" tabindex="-1"/);
    expect(html).toContain('Agree to sign electronically to continue.');
    expect(html).toMatch(
      /id="input-consent" name="consent" type="checkbox" value="yes" aria-required="true" aria-describedby="consent-version error-consent" aria-invalid="true">/,
    );
    expect(html).toContain('Tick this box to agree to sign electronically.');
    // A problem of a field: linked from the summary, told beside the field, and described by it.
    expect(html).toContain(`<a href="#input-${ids.signature}">Fill in “Signature”.</a>`);
    expect(html).toContain(`<p class="field-error" id="error-${ids.signature}">`);
    expect(html).toMatch(new RegExp(`id="input-${ids.signature}"[^>]*aria-describedby="error-${ids.signature}" aria-invalid="true"`));
    // What was typed is kept, escaped.
    expect(html).toContain('value="Acme &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"');
    expect(html).not.toContain('<script>alert');
  });

  it('puts a drawn signature of a refused form back into the drawing', async () => {
    const { client: token, ids } = await sendForPage(stack, company);
    const drawn = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==';
    const answer = await client.sign(token, { [`field.${ids.signature}`]: drawn });
    expect(answer.status).toBe(422);
    expect(answer.text).toContain(`data-signature="${ids.signature}" data-mode="draw"`);
    expect(answer.text).toContain(`<input type="hidden" value="${drawn}" data-drawn-value name="field.${ids.signature}">`);
  });

  it('sends the signer to the page of whatever came of signing (voided meanwhile)', async () => {
    const { envelopeId, client: token, clientId, ids } = await sendForPage(stack, company);
    expect((await client.page(token)).status).toBe(200);
    await client.voidEnvelope(envelopeId);
    const answer = await client.sign(token, completeForm(ids));
    expect(answer.status).toBe(303);
    expect((await client.page(token)).text).toContain('This document was cancelled');
    expect(await actsOf(stack, envelopeId, clientId)).toMatchObject(unacted);
  });

  it('declines with the reason, 303, and refuses an empty or overlong reason, 422', async () => {
    const { envelopeId, client: token, clientId } = await sendForPage(stack, company);
    expect((await client.page(token)).status).toBe(200);
    for (const reason of ['', '   ', 'x'.repeat(501)]) {
      const refused = await client.decline(token, reason);
      expect(refused.status).toBe(422);
      expect(refused.text).toMatch(/<details class="decline" open>/);
      expect(refused.text).toMatch(/<textarea id="decline-reason"[^>]*aria-describedby="decline-reason-hint error-reason" aria-invalid="true">/);
    }
    expect(await actsOf(stack, envelopeId, clientId)).toMatchObject(unacted);
    const answer = await client.decline(token, '  The terms changed.  ', { 'x-test-client-ip': '198.51.100.8' });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`/sign/${token}`);
    expect(await actsOf(stack, envelopeId, clientId)).toMatchObject({
      status: 'declined',
      acts: [{ kind: 'recipient.declined', data: expect.objectContaining({ reason: 'The terms changed.', ip: '198.51.100.8', user_agent: null }) }],
    });
    expect((await client.page(token)).text).toContain('You declined to sign');
  });

  it('lets a signer decline before their turn', async () => {
    const { witness } = await sendForPage(stack, company, { template: pageTemplate({}, { signing_order: 'sequential' }) });
    const refused = await client.decline(witness, '');
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('It is not your turn to sign yet');
    expect(refused.text).toContain('Please give a reason for declining.');
    expect((await client.decline(witness, 'Not my deal')).status).toBe(303);
  });
});

describe('hostile input: a page, never a 500', () => {
  it('refuses NUL characters, overlong values and oversized drawings with the sign page, 422', async () => {
    const { envelopeId, client: token, clientId, ids } = await sendForPage(stack, company);
    const cases: [Record<string, string>, string][] = [
      [{ ...completeForm(ids), [`field.${ids.text}`]: 'Acme\u0000Ltd' }, 'cannot be accepted'],
      [{ ...completeForm(ids), [`field.${ids.text}`]: 'x'.repeat(501) }, 'Must be at most 500 characters.'],
      [{ ...completeForm(ids), [`field.${ids.signature}`]: `data:image/png;base64,${'A'.repeat(300_000)}` }, 'The drawing is too large.'],
      [{ ...completeForm(ids), [`field.${ids.signature}`]: 'data:image/svg+xml,<svg/>' }, 'The drawing could not be read.'],
      [{ ...completeForm(ids), [`field.${'x'.repeat(65)}`]: 'a' }, 'The form has a field this page does not have.'],
      [{ ...completeForm(ids), 'field.a\u0000b': 'a' }, 'The form has a field this page does not have.'],
    ];
    for (const [form, message] of cases) {
      const answer = await client.sign(token, form);
      expect(answer.status, message).toBe(422);
      expect(answer.text).toContain(message);
      expect(answer.text).not.toContain('\u0000');
    }
    const twice = await client.sign(token, [...Object.entries(completeForm(ids)), [`field.${ids.text}`, 'again']]);
    expect(twice.status).toBe(422);
    expect(twice.text).toContain('This field was sent more than once.');
    expect(await actsOf(stack, envelopeId, clientId)).toMatchObject(unacted);
  });

  it('refuses a decline reason with a NUL, 422', async () => {
    const { envelopeId, client: token, clientId } = await sendForPage(stack, company);
    expect((await client.page(token)).status).toBe(200);
    const answer = await client.decline(token, 'no\u0000thanks');
    expect(answer.status).toBe(422);
    expect(answer.text).toContain('cannot be accepted');
    expect(await actsOf(stack, envelopeId, clientId)).toMatchObject(unacted);
  });

  it('never passes on an unpaired surrogate', async () => {
    // Over HTTP the form is UTF-8, which cannot carry one: an encoded surrogate arrives as U+FFFD.
    const { client: token, clientId, ids } = await sendForPage(stack, company);
    const answer = await client.request('POST', `/sign/${token}`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: BASE_URL },
      body: `form_token=${await client.formToken(token)}&consent=yes&field.${ids.signature}=%ED%A0%80&field.${ids.text}=a&field.${ids.initials}=b`,
    });
    expect(answer.status).toBe(303);
    expect((await storedValues(stack, clientId))[ids.signature]).toMatch(/^\ufffd+$/);
    // Whatever reaches the domain as text is checked there all the same, by whichever way it came.
    const fields = [{ id: 'a', type: 'text', label: null, page: 1, x: 0, y: 0, width: 10, height: 10, required: true, settings: null, prefill: null }] as const;
    const refusal = (values: Record<string, string>) => {
      try {
        acceptSubmission([...fields], { consent: true, values });
      } catch (err) {
        return err instanceof SigningRefused ? err.problems : err;
      }
      return [];
    };
    expect(refusal({ a: 'x\ud800y' })).toEqual([{ field: 'a', code: 'unstorable' }]);
    expect(refusal({ a: 'x\udc00' })).toEqual([{ field: 'a', code: 'unstorable' }]);
    expect(() => acceptDeclineReason('why\ud800')).toThrow(SigningRefused);
    expect(readSignForm([['field.a', new File(['x'], 'x.txt')]]).problems).toEqual([{ field: 'a', code: 'file_sent' }]);
  });

  it('answers a body over 1 MiB with an HTML page, 413', async () => {
    const { client: token } = await sendForPage(stack, company);
    const answer = await client.request('POST', `/sign/${token}`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: BASE_URL },
      body: `form_token=x&field.a=${'A'.repeat(1024 * 1024)}`,
    });
    expect(answer.status).toBe(413);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.text).toContain('The form is too large');
    // The API keeps its JSON answer.
    const api = await client.request('POST', '/v1/contacts', { headers: { 'content-type': 'application/json' }, body: `"${'A'.repeat(1024 * 1024)}"` });
    expect(api.status).toBe(413);
    expect(JSON.parse(api.text).error.code).toBe('payload_too_large');
  });

  it('answers a malformed multipart body with a page', async () => {
    const { client: token } = await sendForPage(stack, company);
    const answer = await client.request('POST', `/sign/${token}`, {
      headers: { 'content-type': 'multipart/form-data; boundary=xyz', origin: BASE_URL },
      body: '--xyz\r\nContent-Disposition: form-data; name="form_token"\r\n\r\nbroken',
    });
    expect([403, 422]).toContain(answer.status);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
  });
});
