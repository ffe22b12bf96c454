/**
 * What the second signer and the sender see: the next signer's page shows what the signers before
 * them put on the document (their own envelope's only, and only once they signed), the sender's
 * Completed e-mail leads to the envelope's page in the application, a typed signature too long to
 * be read in its box is refused in the signer's language, and the page names the sender as the
 * certificate does, each value isolated in <bdi>.
 *
 * One file although long: its cases share one stack and its companies, which take seconds to make.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { putBrand } from '../../src/domain/companies/brand.js';
import { companyContext } from '../../src/domain/verb-context.js';
import { fittedSize } from '../../src/pdf/draw-fields.js';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { textMeasure } from '../../src/pdf/fonts/typesetter.js';
import { DRAWN_TEXT_SIZES } from '../../src/ports/pdf-maker.js';
import { appClient, signIn } from '../support/app-client.js';
import { drained } from '../support/drained.js';
import { storedBytes } from '../support/stored-documents.js';
import { pdfText, pdfWords } from '../support/pdf-text.js';
import { canvasRows, encodePng, pngDataUrl } from '../support/png.js';
import {
  completeForm,
  createPageCompany,
  finished,
  openPageStack,
  type PageCompany,
  type pageClient,
  pageTemplate,
  type SentLinks,
  sendForPage,
  storedValues,
} from '../support/signing-page.js';
import { BASE_URL, type TestStack } from '../support/stack.js';
import { envelopes, recipients } from '../../src/data/schema.js';
import { eq } from 'drizzle-orm';

let stack: TestStack;
let company: PageCompany;
let client: ReturnType<typeof pageClient>;

const SEQUENTIAL = pageTemplate({}, { signing_order: 'sequential' });
/** Walt's signature box in the page's template: 200 × 40 points. */
const WALT_BOX = { width: 200, height: 40 };
const DISPLAY_NAME = 'אקמה בע״מ';

beforeAll(async () => {
  ({ stack, company, client } = await openPageStack());
  await putBrand(companyContext(stack.services, { kind: 'operator' }, company.id), { display_name: DISPLAY_NAME });
});
afterAll(() => stack.close());

/** Walt's one field, read from his page (the sign form names it). */
async function waltsFieldName(sent: SentLinks, lang = 'en'): Promise<string> {
  const page = await client.page(`${sent.witness}?lang=${lang}`);
  expect(page.status).toBe(200);
  return /name="(field\.[^"]+)"/.exec(page.text)![1]!;
}

/** Cleo signs: her company's name typed, her initials typed, her signature drawn. */
async function cleoSigns(sent: SentLinks, company = 'Acme Ltd') {
  const drawn = pngDataUrl(encodePng(canvasRows(60, 20), 60, 20));
  const signed = await client.sign(sent.client, { ...completeForm(sent.ids), [`field.${sent.ids.text}`]: company, [`field.${sent.ids.signature}`]: drawn });
  expect(signed.status, signed.text.slice(0, 300)).toBe(303);
  return drawn;
}

/** The earlier values' boxes of a page's HTML. */
const earlierIn = (html: string) => [...html.matchAll(/<div class="earlier-value[^"]*"[^>]*>.*?<\/div>/g)].map((match) => match[0]);

describe('the next signer sees what the earlier signers put on the document', () => {
  it('in signing order, Walt sees Cleo’s typed value, initials, drawing, tick and name at their places', async () => {
    const sent = await sendForPage(stack, company, { template: SEQUENTIAL });
    const drawn = await cleoSigns(sent);
    const page = await client.page(sent.witness);
    expect(page.status).toBe(200);
    const boxes = earlierIn(page.text);
    // The company name at its box less the PDF's 2-point padding, as the finished PDF draws it.
    expect(boxes).toContainEqual(
      expect.stringMatching(/class="earlier-value earlier-text" data-earlier data-x="74" data-y="562" data-w="216" data-h="20".*>Acme Ltd</),
    );
    expect(boxes).toContainEqual(
      expect.stringMatching(
        /earlier-typed-signature" data-earlier data-x="482" data-y="702" data-w="66" data-h="32" data-max-size="48" data-min-size="12".*>CC</,
      ),
    );
    // The drawing as the service keeps it (its own encoding of the pixels), scaled into the box.
    expect(drawn).toMatch(/^data:image\/png;base64,/);
    expect(boxes).toContainEqual(
      expect.stringMatching(
        /earlier-drawn" data-earlier data-x="74" data-y="562" data-w="216" data-h="46"><img src="data:image\/png;base64,[A-Za-z0-9+/=]+" alt="Signature drawn by Cleo Client">/,
      ),
    );
    expect(boxes).toContainEqual(
      expect.stringMatching(/earlier-checkbox" data-earlier data-x="72" data-y="610" data-w="18" data-h="18" role="img" aria-label="Ticked by Cleo Client"/),
    );
    expect(boxes).toContainEqual(expect.stringMatching(/earlier-name" data-earlier .*>Cleo Client</));
    // The page in the PDF's font, for those values.
    expect(page.text).toContain('<link rel="stylesheet" href="/static/vendor/fonts/noto-sans.css">');
    // Its PDF links serve the document with Cleo's values drawn in (filled-copy.test.ts), and the page says so.
    expect(page.text).toContain('The PDF includes what earlier signers filled in.');
  });

  it('shows nothing of another envelope, and nothing of a signer who has not signed', async () => {
    const mine = await sendForPage(stack, company, { template: pageTemplate() });
    const other = await sendForPage(stack, company, { template: pageTemplate() });
    await cleoSigns(other, 'Other Envelope Co');
    // Parallel order: Walt may sign first, and Cleo has not signed hers yet.
    const before = await client.page(mine.witness);
    expect(before.status).toBe(200);
    expect(earlierIn(before.text)).toEqual([]);
    expect(before.text).not.toContain('Other Envelope Co');
    expect(before.text).not.toContain('noto-sans.css');
    expect(before.text).not.toContain('The PDF includes what earlier signers filled in.');
    // Once Cleo has signed, the parallel envelope shows hers too.
    await cleoSigns(mine, 'Mine Co');
    const after = await client.page(mine.witness);
    expect(earlierIn(after.text).join('')).toContain('Mine Co');
    expect(after.text).not.toContain('Other Envelope Co');
    // Cleo's own page is the signed page: it shows nobody's values.
    expect((await client.page(mine.client)).text).not.toContain('earlier-value');
  });

  it('shows nothing to a next signer whose role asks for a code until this browser entered it', async () => {
    const base = pageTemplate();
    const coded = pageTemplate({}, { roles: base.roles!.map((role) => (role.name === 'Witness' ? { ...role, verification: 'email_code' as const } : role)) });
    const sent = await sendForPage(stack, company, { template: coded });
    await cleoSigns(sent, 'Coded Envelope Co');
    const page = await client.page(sent.witness);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Confirm it is you');
    expect(page.text).not.toContain('field.');
    expect(earlierIn(page.text)).toEqual([]);
    expect(page.text).not.toContain('Coded Envelope Co');
  });
});

describe('the sender’s Completed e-mail', () => {
  it('links to the envelope’s page in the application, which the company’s user opens and another company’s does not', async () => {
    const sent = await sendForPage(stack, company, { template: SEQUENTIAL });
    await cleoSigns(sent);
    const field = await waltsFieldName(sent);
    const signed = await client.sign(sent.witness, { consent: 'yes', [field]: 'Walt Witness' });
    expect(signed.status).toBe(303);
    // The e-mail goes out from the queue, after the answer.
    const mail = await vi.waitFor(
      () => {
        const found = stack.services.mailbox.list().find((each) => each.tags?.envelope_id === sent.envelopeId && each.tags?.kind === 'completed');
        if (!found) throw new Error('no Completed e-mail yet');
        return found;
      },
      { timeout: 20_000, interval: 100 },
    );
    const link = `${BASE_URL}/app/envelopes/${sent.envelopeId}`;
    expect(mail?.text).toContain(link);
    expect(mail?.html).toContain(`href="${link}"`);
    expect(mail?.text).toContain('Open the envelope');
    expect(mail?.text).not.toContain('webhook');

    const sender = appClient(stack);
    expect((await signIn(stack, sender, company.senderEmail)).status).toBe(303);
    const shown = await sender.get(new URL(link).pathname);
    expect(shown.status).toBe(200);
    expect(shown.body).toContain('Mutual Non-Disclosure Agreement');

    const stranger = await createPageCompany(stack);
    const outsider = appClient(stack);
    expect((await signIn(stack, outsider, stranger.senderEmail)).status).toBe(303);
    expect((await outsider.get(new URL(link).pathname)).status).toBe(404);
  });
});

/** The longest repetition of `unit` that fits Walt's box at a signature's least size, and one character more. */
async function bound(unit: string): Promise<{ fits: string; past: string }> {
  const long = unit.repeat(40);
  const font = (await textMeasure(nodeFontSource(), [long]))('auto');
  let length = 1;
  while (fittedSize(font, long.slice(0, length + 1), WALT_BOX, DRAWN_TEXT_SIZES.signature).fits) length++;
  return { fits: long.slice(0, length), past: long.slice(0, length + 1) };
}

describe('a typed signature must be readable in the finished PDF', () => {
  it('takes one that fits exactly at the least size, drawn whole at that size or larger; one character more is refused, nothing stored', async () => {
    const { fits, past } = await bound('Witness');
    const sent = await sendForPage(stack, company, { template: SEQUENTIAL });
    await cleoSigns(sent);
    const field = await waltsFieldName(sent);
    const waltId = (await stack.services.database.db.select().from(recipients).where(eq(recipients.envelopeId, sent.envelopeId))).find(
      (person) => person.name === 'Walt Witness',
    )!.id;

    const refused = await client.sign(sent.witness, { consent: 'yes', [field]: past });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('“Signature” is too long to fit its place in the document. Shorten it (to initials, say), or draw it instead.');
    expect(Object.values(await storedValues(stack, waltId))).toEqual([null]);
    const [row] = await stack.services.database.db.select().from(recipients).where(eq(recipients.id, waltId));
    expect(row!.status).not.toBe('signed');

    expect((await client.sign(sent.witness, { consent: 'yes', [field]: fits })).status).toBe(303);
    await drained(stack);
    await vi.waitFor(
      async () =>
        expect((await stack.services.database.db.select().from(envelopes).where(eq(envelopes.id, sent.envelopeId)))[0]?.signedDocumentKey).toBeTruthy(),
      {
        timeout: 20_000,
        interval: 100,
      },
    );
    await finished(stack, sent.envelopeId);
    const [envelope] = await stack.services.database.db.select().from(envelopes).where(eq(envelopes.id, sent.envelopeId));
    const bytes = await storedBytes(stack.services.documents, envelope!.signedDocumentKey!);
    expect(pdfText(bytes)).toContain(fits);
    // Drawn whole, at least as wide as the text at the least size: it was not shrunk below it.
    const font = (await textMeasure(nodeFontSource(), [fits]))('auto');
    const word = pdfWords(bytes, 2).find((each) => each.text === fits)!;
    expect(word.xMax - word.xMin).toBeGreaterThanOrEqual(font.widthOfTextAtSize(fits, DRAWN_TEXT_SIZES.signature.min) * 0.97);
  });

  it('measures a wide script with its own font: Japanese at the bound signs, one character more is refused in Japanese', async () => {
    const { fits, past } = await bound('山田太郎');
    // The least size leaves room for far fewer of these than of Latin letters.
    expect(fits.length).toBeLessThan(20);
    const sent = await sendForPage(stack, company, { template: SEQUENTIAL });
    await cleoSigns(sent);
    const field = await waltsFieldName(sent, 'ja');
    const refused = await client.post(`/sign/${sent.witness}?lang=ja`, sent.witness, { consent: 'yes', lang: 'ja', [field]: past });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('は長すぎて文書内の欄に収まりません');
    expect((await client.post(`/sign/${sent.witness}?lang=ja`, sent.witness, { consent: 'yes', lang: 'ja', [field]: fits })).status).toBe(303);
  });

  it('measures Arabic, joined, with its own font too', async () => {
    const { fits, past } = await bound('محمد');
    const sent = await sendForPage(stack, company, { template: SEQUENTIAL });
    await cleoSigns(sent);
    const field = await waltsFieldName(sent, 'ar');
    const refused = await client.post(`/sign/${sent.witness}?lang=ar`, sent.witness, { consent: 'yes', lang: 'ar', [field]: past });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('أطول من أن يتسع لمكانه في المستند');
    expect((await client.post(`/sign/${sent.witness}?lang=ar`, sent.witness, { consent: 'yes', lang: 'ar', [field]: fits })).status).toBe(303);
  });
});

describe('the page names the sender as the certificate does', () => {
  it('the display name, then the address, each isolated, in English and in Hebrew', async () => {
    const sent = await sendForPage(stack, company, { template: SEQUENTIAL });
    const english = await client.page(sent.client);
    expect(english.text).toContain(`Sent by <strong><bdi>${DISPLAY_NAME}</bdi></strong> (<bdi>${company.senderEmail}</bdi>) to <bdi>Cleo Client</bdi>`);
    const hebrew = await client.page(`${sent.client}?lang=he`);
    expect(hebrew.text).toContain(`נשלח על ידי <strong><bdi>${DISPLAY_NAME}</bdi></strong> (<bdi>${company.senderEmail}</bdi>) אל <bdi>Cleo Client</bdi>`);
    // Walt's turn has not come: his page says who sent it the same way.
    const waiting = await client.page(sent.witness);
    expect(waiting.text).toContain(`Sent by <bdi>${DISPLAY_NAME}</bdi> (<bdi>${company.senderEmail}</bdi>)`);
    expect(waiting.text).not.toContain(`Sent by ${company.senderEmail}`);
  });
});
