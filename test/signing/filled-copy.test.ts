/**
 * The next signer's "Open the PDF" and "Download the PDF": the document as sent followed by an
 * update drawing what earlier signers put on it, whole; the page's viewer keeps the original, over
 * which the page draws those values itself. Only for the signer whose turn it is, behind the same
 * gate and the same 404s as the document itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installed } from '../support/outside-tools.js';
import { pdfText, pdfWords } from '../support/pdf-text.js';
import { completeForm, openPageStack, type PageCompany, type pageClient, pageTemplate, type SentLinks, sendForPage } from '../support/signing-page.js';
import type { TestStack } from '../support/stack.js';

let stack: TestStack;
let company: PageCompany;
let client: ReturnType<typeof pageClient>;
const tools = installed('pdftotext');

const SEQUENTIAL = pageTemplate({}, { signing_order: 'sequential' });
/** Cleo's company name's box on page 1 of the page's template. */
const COMPANY_BOX = { x: 72, y: 560, width: 220, height: 24 };

beforeAll(async () => {
  ({ stack, company, client } = await openPageStack());
});
afterAll(() => stack.close());

async function cleoSigns(sent: SentLinks) {
  const signed = await client.sign(sent.client, completeForm(sent.ids));
  expect(signed.status, signed.text.slice(0, 300)).toBe(303);
}

async function pdf(path: string, headers: Record<string, string> = {}) {
  const response = await stack.app.request(path, { headers });
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

describe('the filled copy of the document', () => {
  it('gives Walt the document as sent followed by Cleo’s values, whole, and his page links to it while its viewer keeps the original', async () => {
    const sent = await sendForPage(stack, company, { template: SEQUENTIAL });
    await cleoSigns(sent);
    const original = await pdf(`/sign/${sent.witness}/document.pdf`);
    expect(original.status).toBe(200);

    const filled = await pdf(`/sign/${sent.witness}/document.pdf?filled=1`);
    expect(filled.status).toBe(200);
    expect(filled.headers.get('content-type')).toBe('application/pdf');
    expect(filled.headers.get('content-disposition')).toMatch(/^inline; filename="/);
    expect(Number(filled.headers.get('content-length'))).toBe(filled.bytes.length);
    expect(filled.bytes.length).toBeGreaterThan(original.bytes.length);
    expect(sameBytes(filled.bytes.subarray(0, original.bytes.length), original.bytes)).toBe(true);
    if (tools) {
      expect(pdfText(original.bytes)).not.toContain('Acme Ltd');
      expect(pdfText(filled.bytes)).toContain('Acme Ltd');
      const words = pdfWords(filled.bytes, 1).filter((word) => word.text === 'Acme');
      expect(words).toHaveLength(1);
      expect(words[0]!.xMin).toBeGreaterThanOrEqual(COMPANY_BOX.x);
      expect(words[0]!.yMin).toBeGreaterThanOrEqual(COMPANY_BOX.y);
      expect(words[0]!.yMax).toBeLessThanOrEqual(COMPANY_BOX.y + COMPANY_BOX.height);
    }

    // Saved rather than shown; and a range is answered with the whole copy.
    const saved = await pdf(`/sign/${sent.witness}/document.pdf?filled=1&download=1`);
    expect(saved.headers.get('content-disposition')).toMatch(/^attachment; filename="/);
    expect(sameBytes(saved.bytes, filled.bytes)).toBe(true);
    const ranged = await pdf(`/sign/${sent.witness}/document.pdf?filled=1`, { range: 'bytes=0-99' });
    expect(ranged.status).toBe(200);
    expect(ranged.headers.get('content-range')).toBeNull();
    expect(sameBytes(ranged.bytes, filled.bytes)).toBe(true);

    const page = await client.page(sent.witness);
    expect(page.text).toContain(`<a href="/sign/${sent.witness}/document.pdf?filled=1" target="_blank"`);
    expect(page.text).toContain(`<a href="/sign/${sent.witness}/document.pdf?filled=1&amp;download=1">Download the PDF</a>`);
    expect(page.text).toContain(`data-document="/sign/${sent.witness}/document.pdf"`);
    expect(page.text).toContain('The PDF includes what earlier signers filled in.');
  });

  it('is the document as sent when nobody has put anything on it yet, and to a signer who has signed', async () => {
    const sent = await sendForPage(stack, company, { template: pageTemplate() });
    const original = await pdf(`/sign/${sent.witness}/document.pdf`);
    const filled = await pdf(`/sign/${sent.witness}/document.pdf?filled=1`);
    expect(filled.status).toBe(200);
    expect(sameBytes(filled.bytes, original.bytes)).toBe(true);
    const page = await client.page(sent.witness);
    expect(page.text).not.toContain('document.pdf?filled=1');
    expect(page.text).not.toContain('The PDF includes what earlier signers filled in.');
    // Cleo has signed, Walt not yet: her own copy is still the document as sent (the finished PDF will have everything).
    await cleoSigns(sent);
    const hers = await pdf(`/sign/${sent.client}/document.pdf?filled=1`);
    expect(hers.status).toBe(200);
    expect(sameBytes(hers.bytes, original.bytes)).toBe(true);
  });

  it('is refused as the document is: 403 before a coded role’s code (given once it is entered), 404 for a link that is not genuine or an envelope voided', async () => {
    const base = pageTemplate();
    const coded = pageTemplate({}, { roles: base.roles!.map((role) => (role.name === 'Witness' ? { ...role, verification: 'email_code' as const } : role)) });
    const gated = await sendForPage(stack, company, { template: coded });
    await cleoSigns(gated);
    const locked = await pdf(`/sign/${gated.witness}/document.pdf?filled=1&download=1`);
    expect(locked.status).toBe(403);
    expect(Buffer.from(locked.bytes).toString()).not.toContain('%PDF');
    // Once this browser entered the code, the same link gives it the filled copy.
    expect((await client.post(`/sign/${gated.witness}/code`, gated.witness, {})).status).toBe(303);
    const mail = stack.services.mailbox.list().find((email) => email.tags?.kind === 'verification_code' && email.tags.envelope_id === gated.envelopeId);
    const code = / is (\d{6})\./.exec(mail?.text ?? '')![1]!;
    const verified = await client.post(`/sign/${gated.witness}/verify`, gated.witness, { code });
    expect(verified.status).toBe(303);
    const cookie = verified.headers.get('set-cookie')!.split(';')[0]!;
    const unlocked = await pdf(`/sign/${gated.witness}/document.pdf?filled=1&download=1`, { cookie });
    expect(unlocked.status).toBe(200);
    if (tools) expect(pdfText(unlocked.bytes)).toContain('Acme Ltd');

    const sent = await sendForPage(stack, company, { template: SEQUENTIAL });
    await cleoSigns(sent);
    // Another link's token, its MAC altered: not a link at all.
    const altered = `${sent.witness.slice(0, -2)}${sent.witness.endsWith('A') ? 'BB' : 'AA'}`;
    expect((await pdf(`/sign/${altered}/document.pdf?filled=1`)).status).toBe(404);
    expect((await pdf(`/sign/${gated.witness.split('.')[0]}.${sent.witness.split('.').slice(1).join('.')}/document.pdf?filled=1`)).status).toBe(404);
    await client.voidEnvelope(sent.envelopeId);
    expect((await pdf(`/sign/${sent.witness}/document.pdf?filled=1`)).status).toBe(404);
  });

  it('answers the page’s retry page (503) when the PDF work fails, without the link in it; the document as sent still serves', async () => {
    const sent = await sendForPage(stack, company, { template: SEQUENTIAL });
    await cleoSigns(sent);
    const maker = stack.services.pdf;
    stack.services.pdf = { ...maker, filledCopy: () => Promise.reject(new Error('The PDF Worker (filledCopy) passed its deadline')) };
    try {
      const failed = await pdf(`/sign/${sent.witness}/document.pdf?filled=1&download=1`);
      expect(failed.status).toBe(503);
      expect(failed.headers.get('content-type')).toMatch(/^text\/html/);
      const body = Buffer.from(failed.bytes).toString();
      expect(body).toContain('Please try again in a moment.');
      expect(body).not.toContain(sent.witness);
      expect(body).not.toContain('deadline');
      expect((await pdf(`/sign/${sent.witness}/document.pdf`)).status).toBe(200);
    } finally {
      stack.services.pdf = maker;
    }
  });
});
