/**
 * The e-mails in the company's brand: HTML with a plain-text alternative, from the display name,
 * with its logo and accent colour; every text a sender or signer gave escaped; links readable with
 * images off; the decline's reason told to the sender; and each signing link only in its own
 * recipient's e-mail. The certificate of completion names the sender as the e-mails did.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { putBrand } from '../../src/domain/companies/brand.js';
import { companyContext } from '../../src/domain/verb-context.js';
import { DEFAULT_ACCENT } from '../../src/domain/companies/brand-look.js';
import { declineAsRecipient } from '../../src/domain/signing/decline-as-recipient.js';
import { openSigningLink } from '../../src/domain/signing/open-link.js';
import { signAsRecipient } from '../../src/domain/signing/sign-as-recipient.js';
import { signingDocument } from '../../src/domain/signing/signing-document.js';
import type { SigningState } from '../../src/domain/signing/signing-state.js';
import { devMailboxRoutes } from '../../src/dev-pages/mailbox-page.js';
import { createTestCompany, createTestTemplate, type TestCompany } from '../support/factories.js';
import { call } from '../support/http.js';
import { logoPng } from '../support/logo-images.js';
import { installed } from '../support/outside-tools.js';
import { BASE_URL, openStack, type TestStack } from '../support/stack.js';
import { unique } from '../support/unique.js';
import { bySigner, testSigner } from '../support/signer-verbs.js';
import { storedBytes } from '../support/stored-documents.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await openStack();
});
afterAll(() => stack.close());

const who = { ip: '198.51.100.7', userAgent: 'Mozilla/5.0 (test)' };
const mailsOf = (envelopeId: string, kind?: string) =>
  stack.services.mailbox.list().filter((mail) => mail.tags?.envelope_id === envelopeId && (!kind || mail.tags.kind === kind));

const HOSTILE_NAME = '<b>Acme</b> & "Sons" <script>alert(1)</script>';
const HOSTILE_TITLE = 'NDA <img src=x onerror=alert(1)>';
const HOSTILE_MESSAGE = 'Hello <a href="https://evil.example">click</a>\nSecond line & more';
const HOSTILE_SIGNER = '<i>Cleo</i> "Client"';

async function brandedCompany(brand: Parameters<typeof putBrand>[1] = {}) {
  const company = await createTestCompany(stack);
  const brandRecord = await putBrand(companyContext(stack.services, { kind: 'operator' }, company.id), brand);
  return { company, brand: brandRecord };
}

/** Sends an envelope to two parallel signers; answers its id, each signer's link, and the addresses. */
async function send(company: TestCompany, body: Record<string, unknown> = {}) {
  const template = await createTestTemplate(stack, company.id, { signing_order: 'parallel' });
  const tag = unique();
  const recipients = [
    { role: 'Client', name: HOSTILE_SIGNER, email: `cleo-${tag}@example.test` },
    { role: 'Witness', name: 'Walt Witness', email: `walt-${tag}@example.test` },
  ];
  const answer = await call(stack, 'POST', '/v1/envelopes/from-template', {
    token: company.owner.token,
    body: { template_id: template.id, recipients, ...body },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  const links = answer.body.signing_urls.filter((entry: { signing_url: string | null }) => entry.signing_url) as { email: string; signing_url: string }[];
  return { envelopeId: answer.body.envelope_id as string, links, recipients };
}

function completeForm(state: SigningState) {
  if (state.kind !== 'sign') throw new Error(`expected a sign state, got ${state.kind}`);
  return { consent: true, values: Object.fromEntries(state.fields.map((field) => [field.id, field.type === 'checkbox' ? 'true' : 'Signed'])) };
}

async function signAs(signingUrl: string) {
  const token = signingUrl.split('/sign/')[1]!;
  return bySigner(stack.services, who, signAsRecipient, { token, submission: completeForm(await bySigner(stack.services, who, openSigningLink, { token })) });
}

describe('the signing e-mail', () => {
  it('is HTML in the brand, from the display name, with a plain-text alternative, and escapes everything people gave', async () => {
    const { company, brand } = await brandedCompany({ display_name: HOSTILE_NAME, logo: logoPng(), accent_color: '#0b7a53' });
    const { envelopeId, links } = await send(company, { title: HOSTILE_TITLE, email_message: HOSTILE_MESSAGE });
    await vi.waitFor(() => expect(mailsOf(envelopeId, 'signing_request')).toHaveLength(2));

    for (const link of links) {
      const mail = mailsOf(envelopeId, 'signing_request').find((each) => each.to.email === link.email)!;
      expect(mail.from).toEqual({ name: HOSTILE_NAME });
      const html = mail.html!;
      expect(html).toMatch(/^<!doctype html>/);
      // The display name, escaped, as the logo's alt text: what a reader sees with images off.
      const escapedName = '&lt;b&gt;Acme&lt;/b&gt; &amp; &quot;Sons&quot; &lt;script&gt;alert(1)&lt;/script&gt;';
      expect(html).toContain(`<img src="${brand.logo!.url}" alt="${escapedName}"`);
      expect(html).toContain('NDA &lt;img src=x onerror=alert(1)&gt;');
      expect(html).toContain('Hello &lt;a href=&quot;https://evil.example&quot;&gt;click&lt;/a&gt;<br>Second line &amp; more');
      // Nothing anyone typed became markup.
      expect(html).not.toMatch(/<script|<img src=x|<a href="https:\/\/evil|<b>Acme|<i>Cleo/);
      // The button in the accent colour, with text that reads on it, and the link also as text.
      expect(html).toContain('background:#0b7a53');
      expect(html).toContain(`<a href="${link.signing_url}" style="display:inline-block`);
      expect(html).toContain(`>${link.signing_url}</a>`);
      // Its own link, and no other recipient's.
      for (const other of links.filter((each) => each !== link)) {
        expect(html).not.toContain(other.signing_url);
        expect(mail.text).not.toContain(other.signing_url);
      }
      // The text alternative says the same, the link written out.
      expect(mail.text).toContain(HOSTILE_NAME);
      expect(mail.text).toContain(`"${HOSTILE_TITLE}"`);
      expect(mail.text).toContain(HOSTILE_MESSAGE);
      expect(mail.text).toContain(`Review and sign: ${link.signing_url}`);
    }

    // The logo the e-mail points at is there, for anyone the e-mail reached.
    const logo = await stack.app.request(brand.logo!.url.replace(BASE_URL, ''));
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/png');
  });

  it('comes from the company name, without a logo, in the default colour, for a company without a brand', async () => {
    const company = await createTestCompany(stack);
    const { envelopeId } = await send(company);
    await vi.waitFor(() => expect(mailsOf(envelopeId, 'signing_request')).toHaveLength(2));
    const mail = mailsOf(envelopeId, 'signing_request')[0]!;
    expect(mail.from).toEqual({ name: company.name });
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain(`>${company.name}</span>`);
    expect(mail.html).toContain(`background:${DEFAULT_ACCENT}`);
    expect(mail.text.startsWith(`${company.name}\n\n`)).toBe(true);
  });

  it('puts dark text on a pale accent, so the button stays legible', async () => {
    const { company } = await brandedCompany({ accent_color: '#ffe600' });
    const { envelopeId } = await send(company);
    await vi.waitFor(() => expect(mailsOf(envelopeId, 'signing_request')).toHaveLength(2));
    expect(mailsOf(envelopeId, 'signing_request')[0]!.html).toMatch(/background:#ffe600"><a [^>]*color:#111111/);
  });

  it('shows in the dev mailbox: from the display name, the HTML in a sandboxed frame, escaped once more for the attribute', async () => {
    const { company } = await brandedCompany({ display_name: 'Mailbox & Co', accent_color: '#123456' });
    const { envelopeId } = await send(company, { title: 'Box <b>title</b>' });
    await vi.waitFor(() => expect(mailsOf(envelopeId, 'signing_request')).toHaveLength(2));
    const mailbox = new Hono().route('/dev', devMailboxRoutes(stack.services.mailbox));
    const page = await (await mailbox.request('/dev/mailbox')).text();
    expect(page).toContain('From Mailbox &amp; Co');
    expect(page).toMatch(/<iframe sandbox title="[^"]*" srcdoc="&lt;!doctype html&gt;/);
    // The e-mail's own escaping, escaped again inside the attribute: the title shows as text.
    expect(page).toContain('Box &amp;lt;b&amp;gt;title&amp;lt;/b&amp;gt;');
    expect(page).not.toContain('Box <b>title</b>');

    const mail = mailsOf(envelopeId, 'signing_request')[0]!;
    const alone = await mailbox.request(`/dev/mailbox/${mail.id}.html`);
    expect(alone.status).toBe(200);
    expect(alone.headers.get('content-security-policy')).toContain('sandbox');
    expect(await alone.text()).toBe(mail.html);
    expect((await mailbox.request(`/dev/mailbox/${crypto.randomUUID()}.html`)).status).toBe(404);
  });
});

describe('the e-mails of the ceremony', () => {
  it('tells the sender the decline with the reason, escaped in HTML, as written in text', async () => {
    const { company } = await brandedCompany({ display_name: 'Decline Co', accent_color: '#aa3300' });
    const { envelopeId, links, recipients } = await send(company);
    const reason = 'The amount is wrong: <b>1,000</b> & not 100.\nPlease resend.';
    await bySigner(stack.services, who, declineAsRecipient, { token: links[0]!.signing_url.split('/sign/')[1]!, reason });
    await vi.waitFor(() => expect(mailsOf(envelopeId, 'declined')).toHaveLength(1));
    const mail = mailsOf(envelopeId, 'declined')[0]!;
    expect(mail.to.email).toBe(company.owner.ownerEmail);
    expect(mail.from).toEqual({ name: 'Decline Co' });
    expect(mail.text).toContain(`${HOSTILE_SIGNER} (${recipients[0]!.email}) declined to sign`);
    expect(mail.text).toContain(`Their reason:\n${reason}`);
    expect(mail.html).toContain('The amount is wrong: &lt;b&gt;1,000&lt;/b&gt; &amp; not 100.<br>Please resend.');
    expect(mail.html).toContain('&lt;i&gt;Cleo&lt;/i&gt; &quot;Client&quot;');
    expect(mail.html).toContain('border-left:4px solid #aa3300');
    // The sender gets no signing link.
    for (const link of links) expect(`${mail.text}${mail.html}`).not.toContain(link.signing_url);
  });

  it('sends the completed and document-ready e-mails in the brand, each recipient only their own link', async () => {
    const { company, brand } = await brandedCompany({ display_name: 'Done Co', logo: logoPng(), accent_color: '#334455' });
    const { envelopeId, links } = await send(company);
    for (const link of links) await signAs(link.signing_url);
    await vi.waitFor(() => expect(mailsOf(envelopeId, 'document_ready')).toHaveLength(3), { timeout: 15_000 });
    const [completed] = mailsOf(envelopeId, 'completed');
    expect(completed!.from).toEqual({ name: 'Done Co' });
    expect(completed!.html).toContain(`src="${brand.logo!.url}"`);
    for (const link of links) expect(`${completed!.text}${completed!.html}`).not.toContain(link.signing_url);

    for (const mail of mailsOf(envelopeId, 'document_ready')) {
      expect(mail.from).toEqual({ name: 'Done Co' });
      expect(mail.html).toContain('background:#334455');
      const own = /Download the signed document: (\S+)/.exec(mail.text)?.[1];
      expect(own).toMatch(new RegExp(`^${BASE_URL}/sign/`));
      expect(mail.html).toContain(`href="${own}"`);
      const others = links.filter((link) => link.email !== mail.to.email);
      for (const other of others) expect(`${mail.text}${mail.html}`).not.toContain(other.signing_url);
    }
  });
});

describe('the certificate of completion', () => {
  it.skipIf(!installed('pdftotext'))(
    "names the brand's display name as the sender, with the sender's address",
    async () => {
      const { company } = await brandedCompany({ display_name: 'Договор & Co' });
      const { envelopeId, links } = await send(company);
      for (const link of links) await signAs(link.signing_url);
      // The document-ready e-mails go out in the same batch that stores the finished PDF.
      await vi.waitFor(() => expect(mailsOf(envelopeId, 'document_ready')).toHaveLength(3), { timeout: 15_000 });
      const finished = await bySigner(stack.services, testSigner, signingDocument, { token: links[0]!.signing_url.split('/sign/')[1]! });
      const dir = mkdtempSync(join(tmpdir(), 'certificate-'));
      try {
        writeFileSync(join(dir, 'finished.pdf'), await storedBytes(stack.services.documents, finished!.key));
        // -layout keeps each label on the line of its value.
        const text = execFileSync('pdftotext', ['-layout', join(dir, 'finished.pdf'), '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
        expect(text).toContain('Sent by Договор & Co');
        expect(text).toContain(`Sender ${company.owner.ownerEmail}`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});

describe('the language of e-mails', () => {
  it("writes to recipients in the template's language, else the company's, and to the sender in the company's", async () => {
    const { company } = await brandedCompany({ display_name: 'Sprache GmbH', language: 'de' });
    const { envelopeId, links } = await send(company);
    await vi.waitFor(() => expect(mailsOf(envelopeId, 'signing_request')).toHaveLength(2));
    const mail = mailsOf(envelopeId, 'signing_request')[0]!;
    expect(mail.html).toMatch(/^<!doctype html>\n<html lang="de" dir="ltr">/);
    expect(mail.text).toContain('hat Ihnen „');
    expect(mail.text).toContain(`Prüfen und unterschreiben: ${links.find((link) => link.email === mail.to.email)!.signing_url}`);
    // The sender's own subject is kept as they wrote it.
    expect(mail.subject).toBe('Please sign the NDA');

    await bySigner(stack.services, who, declineAsRecipient, { token: links[0]!.signing_url.split('/sign/')[1]!, reason: 'Falscher Betrag' });
    await vi.waitFor(() => expect(mailsOf(envelopeId, 'declined')).toHaveLength(1));
    const declined = mailsOf(envelopeId, 'declined')[0]!;
    expect(declined.subject).toMatch(/^Abgelehnt: /);
    expect(declined.text).toContain('Begründung:\nFalscher Betrag');
  });

  it('writes Arabic right to left, the template naming it over the company', async () => {
    const { company } = await brandedCompany({ language: 'de' });
    const template = await createTestTemplate(stack, company.id, { signing_order: 'parallel', language: 'ar' });
    const answer = await call(stack, 'POST', '/v1/envelopes/from-template', {
      token: company.owner.token,
      body: {
        template_id: template.id,
        recipients: [
          { role: 'Client', name: 'Cleo', email: `cleo-${unique()}@example.test` },
          { role: 'Witness', name: 'Walt', email: `walt-${unique()}@example.test` },
        ],
      },
    });
    expect(answer.status).toBe(201);
    await vi.waitFor(() => expect(mailsOf(answer.body.envelope_id, 'signing_request')).toHaveLength(2));
    const mail = mailsOf(answer.body.envelope_id, 'signing_request')[0]!;
    expect(mail.html).toMatch(/<html lang="ar" dir="rtl">/);
    expect(mail.html).toContain('border-right:4px solid');
    expect(mail.text).toContain('المراجعة والتوقيع: ');
  });
});
