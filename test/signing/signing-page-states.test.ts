/**
 * The signing page of each state a link can be in, over the real domain: the sign page with its
 * document, fields and forms; every value from a sender or recipient escaped; the page of a link
 * not yours yet, signed, declined, voided, expired, completed or a copy's; every invalid link the
 * same 404; and the document served as a PDF.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { consent } from '../../src/domain/signing/signing-state.js';
import { messagesFor } from '../../src/i18n/index.js';
import {
  DAY,
  HOSTILE,
  type PageCompany,
  TITLE,
  actsOf,
  completeForm,
  openPageStack,
  expectSecurityHeaders,
  finished,
  pageClient,
  pageTemplate,
  sendForPage,
} from '../support/signing-page.js';
import type { TestStack } from '../support/stack.js';

let stack: TestStack;
let company: PageCompany;
let client: ReturnType<typeof pageClient>;
beforeAll(async () => ({ stack, company, client } = await openPageStack()));
afterAll(() => stack.close());

const sequential = pageTemplate({}, { signing_order: 'sequential' });

describe('the page of each state', () => {
  it('shows the sign page: envelope, document, fields, consent, sign and decline', async () => {
    const sent = await sendForPage(stack, company);
    const token = sent.client;
    const answer = await client.page(token);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    const html = answer.text;
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('<html lang="en" dir="ltr">');
    expect(html).toMatch(/<main id="main"/);
    expect(html).toContain(`<h1><bdi>${TITLE}</bdi></h1>`);
    expect(html).toContain(sent.senderEmail);
    expect(html).toContain('Please review and sign the NDA');
    expect(html).toContain('<script type="module" src="/static/sign.js"></script>');
    expect(html).toContain('<link rel="stylesheet" href="/static/sign.css">');
    // No inline script or style: the content policy would block them.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=/);
    // The document, drawn by pdf.js, with this signer's boxes where the template puts them.
    expect(html).toContain(`data-document="/sign/${token}/document.pdf"`);
    expect(html).toMatch(/class="page" data-page="1" data-width="612" data-height="792"/);
    expect(html).toContain(`data-field-box="${sent.ids.signature}" data-x="72" data-y="560" data-w="220" data-h="50"`);
    expect(html).toContain(`href="/sign/${token}/document.pdf?download=1"`);
    // The form: one field.<id> per field the signer fills; none for what the service fills in.
    expect(html).toContain(`action="/sign/${token}" novalidate`);
    expect(html).toContain(`name="form_token" value="${await client.formToken(token)}"`);
    for (const kind of ['text', 'checkbox', 'initials', 'signature'] as const) expect(html).toContain(`name="field.${sent.ids[kind]}"`);
    for (const kind of ['name', 'email', 'date_signed'] as const) expect(html).not.toContain(`name="field.${sent.ids[kind]}"`);
    expect(html).toContain(`id="input-${sent.ids.name}" type="text" readonly value="Cleo Client"`);
    // The domain fills in the date signed as today's, shown before it is signed.
    expect(html).toContain(`id="input-${sent.ids.date_signed}" type="text" readonly value="${stack.clock.now().toISOString().slice(0, 10)}"`);
    expect(html).toContain(`name="field.${sent.ids.text}" type="text" maxlength="500"`);
    expect(html).toContain(`name="field.${sent.ids.checkbox}" type="checkbox" value="yes"`);
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
    // The page opened the link once, as this client: the first view, recorded with its address.
    expect((await actsOf(stack, sent.envelopeId, sent.clientId)).viewed).toEqual([expect.objectContaining({ ip: '203.0.113.1', user_agent: null })]);
  });

  it('escapes every value that comes from a sender or a recipient', async () => {
    const hostile = { title: `NDA ${HOSTILE}`, message: `Hello ${HOSTILE}`, client: `${HOSTILE} & co`, witness: `Cleo ${HOSTILE}` };
    const template = pageTemplate({ text: HOSTILE, checkbox: `"><img src=x onerror=alert(1)>` });
    const sent = await sendForPage(stack, company, { ...hostile, template });
    const { status, text } = await client.page(sent.client);
    expect(status).toBe(200);
    expect(text).not.toContain('<script>alert');
    expect(text).not.toContain('<img src=x');
    expect(text).toContain('<h1><bdi>NDA &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</bdi></h1>');
    expect(text).toContain('<title>Sign: NDA &lt;script&gt;');
    expect(text).toContain('Hello &lt;script&gt;');
    expect(text).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    // The name field is filled in with the recipient's name.
    expect(text).toContain('value="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co"');
    expect((await client.page(sent.witness)).text).toContain('Cleo &lt;script&gt;');

    const later = await sendForPage(stack, company, { ...hostile, template: { ...template, signing_order: 'sequential' } });
    const notYourTurn = await client.page(later.witness);
    expect((await client.sign(later.client, completeForm(later.ids))).status).toBe(303);
    const witnessField = /name="field\.([^"]+)"/.exec((await client.page(later.witness)).text)![1]!;
    expect((await client.sign(later.witness, { consent: 'yes', [`field.${witnessField}`]: 'Walt Witness' })).status).toBe(303);
    const completed = await client.page(later.client);
    await client.voidEnvelope(sent.envelopeId);
    const voided = await client.page(sent.client);
    for (const [kind, other] of [
      ['not_your_turn', notYourTurn],
      ['completed', completed],
      ['voided', voided],
    ] as const) {
      expect(other.status, kind).toBe(200);
      expect(other.text, kind).not.toContain('<script>alert');
      expect(other.text, kind).toContain('&lt;script&gt;');
    }
    await stack.services.inProcessQueue.drained();
  });

  /** The state pages: a heading and a sentence each, no form but a waiting signer's decline, no document. */
  async function expectStatePage(token: string, heading: string, sentence: string, declinable = false) {
    const answer = await client.page(token);
    expect(answer.status).toBe(200);
    expect(answer.text).toContain(`<h1 id="notice-title">${heading}</h1>`);
    expect(answer.text).toContain(sentence);
    expect(answer.text).toContain(TITLE);
    expect(answer.text).not.toContain('name="field.');
    // Only a signer waiting for their turn may decline already; no other state has a form.
    expect(answer.text.includes(`action="/sign/${token}/decline"`)).toBe(declinable);
    expect(answer.text.includes('/document.pdf')).toBe(false);
    return answer.text;
  }

  it('shows the not your turn page', async () => {
    const sent = await sendForPage(stack, company, { template: sequential });
    await expectStatePage(sent.witness, 'It is not your turn to sign yet', 'Hello Walt Witness.', true);
  });

  it('shows the signed page, with when', async () => {
    const sent = await sendForPage(stack, company, { template: sequential });
    expect((await client.sign(sent.client, completeForm(sent.ids))).status).toBe(303);
    const signedAt = stack.clock.now();
    await expectStatePage(sent.client, 'You have signed', messagesFor('en').date(signedAt, { withTime: true }));
  });

  it('shows the declined pages, to the signer who declined and to another', async () => {
    const sent = await sendForPage(stack, company);
    expect((await client.decline(sent.client, 'No')).status).toBe(303);
    await expectStatePage(sent.client, 'You declined to sign', 'The sender has been told');
    await expectStatePage(sent.witness, 'This document was declined', 'Someone asked to sign this document declined');
  });

  it('shows the voided and the expired pages', async () => {
    const voided = await sendForPage(stack, company);
    await client.voidEnvelope(voided.envelopeId);
    await expectStatePage(voided.client, 'This document was cancelled', 'can no longer be signed');
    const expiring = await sendForPage(stack, company, { template: pageTemplate({}, { expiry_days: 1 }) });
    stack.clock.advance(DAY + 1000);
    try {
      await expectStatePage(expiring.client, 'This signing request has expired', 'It could be signed until');
    } finally {
      stack.clock.advance(-(DAY + 1000));
    }
  });

  it('shows the copy recipient’s page, then the completed page while the PDF is made, and links the PDF once it is ready', async () => {
    const sent = await sendForPage(stack, company);
    await expectStatePage(sent.counsel, 'You receive a copy', 'there is nothing for you to sign');
    // The finished PDF waits until released, so that the page of a completed envelope without it can be seen.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const finish = stack.services.pdf.finish.bind(stack.services.pdf);
    const spy = vi.spyOn(stack.services.pdf, 'finish').mockImplementation(async (request) => held.then(() => finish(request)));
    try {
      expect((await client.sign(sent.client, completeForm(sent.ids))).status).toBe(303);
      const witnessField = /name="field\.([^"]+)"/.exec((await client.page(sent.witness)).text)![1]!;
      expect((await client.sign(sent.witness, { consent: 'yes', [`field.${witnessField}`]: 'Walt Witness' })).status).toBe(303);
      await expectStatePage(sent.client, 'Everyone has signed', 'is being prepared. You will get an e-mail');
    } finally {
      release();
    }
    await finished(stack, sent.envelopeId);
    spy.mockRestore();
    const { text } = await client.page(sent.client);
    expect(text).toContain(`href="/sign/${sent.client}/document.pdf?download=1"`);
    expect(text).toContain('Download the signed document (PDF)');
    expect(text).not.toContain('being prepared');
  });

  it('answers every kind of invalid link with the same 404 page, telling nothing', async () => {
    const sent = await sendForPage(stack, company);
    const other = await sendForPage(stack, company);
    const [recipient, mac] = sent.client.split('.') as [string, string];
    const variants = [
      `${recipient}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`, // another MAC
      `${recipient}.${mac.slice(0, 20)}`, // truncated
      `${recipient}.${other.client.split('.')[1]}`, // of another envelope
      'not-a-token',
      `${recipient}`,
      `${recipient}.${mac}.extra`,
      encodeURIComponent(`${recipient}.\u0000${mac}`),
      '%ED%A0%80.abc',
      'x'.repeat(3000),
    ];
    const bodies = new Set<string>();
    for (const token of variants) {
      const answer = await client.page(token);
      expect(answer.status, token).toBe(404);
      expectSecurityHeaders(answer, token);
      expect(answer.text).toContain('<h1 id="notice-title">This link is not valid</h1>');
      expect(answer.text).not.toContain(TITLE);
      bodies.add(answer.text);
    }
    expect(bodies.size).toBe(1);
    // None of them opened the link.
    expect((await actsOf(stack, sent.envelopeId, sent.clientId)).viewed).toEqual([]);
  });
});

describe('the PDF', () => {
  it('serves the document inline, or as an attachment with ?download=1', async () => {
    const sent = await sendForPage(stack, company);
    const inline = await stack.app.request(`/sign/${sent.client}/document.pdf`);
    expect(inline.status).toBe(200);
    expect(inline.headers.get('content-type')).toBe('application/pdf');
    const fileName = 'Mutual-Non-Disclosure-Agreement.pdf';
    expect(inline.headers.get('content-disposition')).toBe(`inline; filename="${fileName}"; filename*=UTF-8''${fileName}`);
    const bytes = new Uint8Array(await inline.arrayBuffer());
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-');
    expectSecurityHeaders(inline, 'the PDF');
    const download = await stack.app.request(`/sign/${sent.client}/document.pdf?download=1`);
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="${fileName}"; filename*=UTF-8''${fileName}`);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes);
  });

  it('answers a link without a document with the invalid-link page', async () => {
    const sent = await sendForPage(stack, company);
    await client.voidEnvelope(sent.envelopeId);
    const answer = await client.request('GET', `/sign/${sent.client}/document.pdf?download=1`);
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.text).toContain('This link is not valid');
  });
});
