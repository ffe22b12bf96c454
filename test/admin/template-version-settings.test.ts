/**
 * Each template version keeps its own settings: an envelope sent with version 1 in French keeps
 * speaking French on its signing page, in its e-mails and on its certificate after version 2 is
 * saved in German with another name and subject; a new send speaks German; and the admin API reads
 * each version with the settings it was saved with.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { envelopes, templateVersions } from '../../src/data/schema.js';
import { expectError } from '../support/expect-error.js';
import { createTestCompany, createTestTemplate, ndaDefinition, type TestCompany } from '../support/factories.js';
import { call } from '../support/http.js';
import { installed } from '../support/outside-tools.js';
import { pdfText } from '../support/pdf-text.js';
import { ADMIN_TOKEN, BASE_URL, openStack, type TestStack } from '../support/stack.js';
import { finishedPdf } from '../support/stored-documents.js';
import { unique } from '../support/unique.js';

let stack: TestStack;
let company: TestCompany;
beforeAll(async () => {
  stack = await openStack();
  company = await createTestCompany(stack, { quota: 1000 });
});
afterAll(() => stack.close());

const base = (templateId: string) => `/admin/v1/companies/${company.id}/templates/${templateId}`;
const mailsOf = (envelopeId: string, kind: string) =>
  stack.services.mailbox.list().filter((mail) => mail.tags?.envelope_id === envelopeId && mail.tags.kind === kind);
const langOf = (html: string | undefined) => /<html lang="([^"]+)"/.exec(html ?? '')?.[1];

async function send(templateId: string) {
  const tag = unique();
  const answer = await call(stack, 'POST', '/v1/envelopes/from-template', {
    token: company.owner.token,
    body: {
      template_id: templateId,
      recipients: [
        { role: 'Client', name: 'Cleo Client', email: `cleo-${tag}@example.test` },
        { role: 'Witness', name: 'Walt Witness', email: `walt-${tag}@example.test` },
      ],
    },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  const first = (answer.body.signing_urls as { signing_url: string | null }[]).find((entry) => entry.signing_url)!;
  return { envelopeId: answer.body.envelope_id as string, clientToken: first.signing_url!.split('/sign/')[1]!, witness: `walt-${tag}@example.test` };
}

/** The signing page as a browser that names no language opens it. */
const page = async (token: string) => String((await call<string>(stack, 'GET', `/sign/${token}`)).body);

/** Signs through the page's form, as a browser would: every field filled in, the consent ticked. */
async function signOnPage(token: string) {
  const html = await page(token);
  const start = html.indexOf('<form class="sign-form"');
  const form = html.slice(start, html.indexOf('</form>', start));
  const action = /action="([^"]+)"/.exec(form)![1]!.replace(/&amp;/g, '&');
  const body = new URLSearchParams();
  for (const [input] of form.matchAll(/<input [^>]*>/g)) {
    const name = /name="([^"]+)"/.exec(input)?.[1];
    if (!name || name.startsWith('mode.')) continue;
    if (name === 'consent') body.append(name, 'yes');
    else if (name.startsWith('field.')) body.append(name, input.includes('type="checkbox"') ? 'yes' : 'Signed');
    else body.append(name, /value="([^"]*)"/.exec(input)?.[1] ?? '');
  }
  const answer = await call(stack, 'POST', action, {
    rawBody: body.toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: BASE_URL },
  });
  expect(answer.status).toBe(303);
}

const v2Definition = () => ({ ...ndaDefinition({ name: 'Vertrag v2', email_subject: 'Betreff v2', language: 'de', signing_order: 'sequential' }) });

async function saveVersion(templateId: string, definition: object) {
  const form = new FormData();
  form.set('template', JSON.stringify(definition));
  const saved = await call(stack, 'POST', `${base(templateId)}/versions`, { token: ADMIN_TOKEN, rawBody: form });
  expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  return saved;
}

describe('a version’s settings', () => {
  it.skipIf(!installed('pdftotext'))(
    'stay those of the envelopes sent with it: page, e-mails and certificate keep v1’s language after v2 changes it',
    async () => {
      const v1 = await createTestTemplate(stack, company.id, { name: 'Accord v1', email_subject: 'Sujet v1', language: 'fr', signing_order: 'sequential' });
      const old = await send(v1.id);
      await saveVersion(v1.id, v2Definition());

      // The v1 envelope's page still speaks French.
      expect(langOf(await page(old.clientToken))).toBe('fr');

      // Signed in order: the Witness is asked only now, after the save, in v1's language and subject.
      await signOnPage(old.clientToken);
      await vi.waitFor(() => expect(mailsOf(old.envelopeId, 'signing_request').filter((mail) => mail.to.email === old.witness)).toHaveLength(1), {
        timeout: 20_000,
      });
      const asked = mailsOf(old.envelopeId, 'signing_request').find((mail) => mail.to.email === old.witness)!;
      expect(langOf(asked.html)).toBe('fr');
      expect(asked.subject).toBe('Sujet v1');
      const witnessToken = /\/sign\/([A-Za-z0-9._~-]+)/.exec(asked.text)![1]!;
      expect(langOf(await page(witnessToken))).toBe('fr');
      await signOnPage(witnessToken);

      // The finished PDF's certificate: both signers saw the page and the consent in French.
      await vi.waitFor(async () => expect(await finishedPdf(stack.services, old.envelopeId)).not.toBeNull(), { timeout: 40_000, interval: 200 });
      const text = pdfText((await finishedPdf(stack.services, old.envelopeId))!);
      expect(text.match(/saw the signing page and the consent in French \(fr\)/g)).toHaveLength(2);
      expect(text).not.toContain('German (de)');
      // The e-mails that hand the finished document to the recipients speak French too.
      await vi.waitFor(() => expect(mailsOf(old.envelopeId, 'document_ready').length).toBeGreaterThan(0), { timeout: 20_000 });
      for (const mail of mailsOf(old.envelopeId, 'document_ready')) expect(langOf(mail.html)).toBe('fr');

      // A new send takes v2: German, its subject, its version on the envelope.
      const next = await send(v1.id);
      expect(langOf(await page(next.clientToken))).toBe('de');
      await vi.waitFor(() => expect(mailsOf(next.envelopeId, 'signing_request')).toHaveLength(1), { timeout: 20_000 });
      const nextMail = mailsOf(next.envelopeId, 'signing_request')[0]!;
      expect(langOf(nextMail.html)).toBe('de');
      expect(nextMail.subject).toBe('Betreff v2');
      const [row] = await stack.services.database.db.select().from(envelopes).where(eq(envelopes.id, next.envelopeId));
      expect(row).toMatchObject({ templateVersion: 2, title: 'Vertrag v2' });
    },
    90_000,
  );

  it('reads each version as it was saved in the admin API, the list and the latest read', async () => {
    const v1 = await createTestTemplate(stack, company.id, { name: 'Accord v1', email_subject: 'Sujet v1', language: 'fr', expiry_days: 10 });
    await saveVersion(v1.id, { ...v2Definition(), expiry_days: 20, share_signing_links: false });

    const one = await call(stack, 'GET', `${base(v1.id)}/versions/1`, { token: ADMIN_TOKEN });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      id: v1.id,
      version: 1,
      name: 'Accord v1',
      email_subject: 'Sujet v1',
      language: 'fr',
      expiry_days: 10,
      share_signing_links: true,
    });
    const two = await call(stack, 'GET', `${base(v1.id)}/versions/2`, { token: ADMIN_TOKEN });
    expect(two.body).toMatchObject({
      version: 2,
      name: 'Vertrag v2',
      email_subject: 'Betreff v2',
      language: 'de',
      expiry_days: 20,
      share_signing_links: false,
    });

    const read = await call(stack, 'GET', base(v1.id), { token: ADMIN_TOKEN });
    expect(read.body).toMatchObject({ version: 2, name: 'Vertrag v2', language: 'de' });
    expect(read.body.versions).toMatchObject([
      { version: 2, name: 'Vertrag v2', email_subject: 'Betreff v2', language: 'de', expiry_days: 20 },
      { version: 1, name: 'Accord v1', email_subject: 'Sujet v1', language: 'fr', expiry_days: 10 },
    ]);
    const api = await call(stack, 'GET', `/v1/templates/${v1.id}`, { token: company.owner.token });
    expect(api.body).toMatchObject({ name: 'Vertrag v2', email_subject: 'Betreff v2', language: 'de' });

    // Each version's row, as saved, never changed by the next save.
    const rows = await stack.services.database.db
      .select({ version: templateVersions.version, name: templateVersions.name, language: templateVersions.language })
      .from(templateVersions)
      .where(and(eq(templateVersions.templateId, v1.id), eq(templateVersions.companyId, company.id)));
    expect(rows.sort((a, b) => a.version - b.version)).toEqual([
      { version: 1, name: 'Accord v1', language: 'fr' },
      { version: 2, name: 'Vertrag v2', language: 'de' },
    ]);
  });

  it('answers a version the template never had, or no number, 404 template_not_found', async () => {
    const template = await createTestTemplate(stack, company.id);
    for (const version of ['0', '2', '-1', '1.5', 'abc', '99999999999', '01']) {
      expectError(await call(stack, 'GET', `${base(template.id)}/versions/${version}`, { token: ADMIN_TOKEN }), 404, 'template_not_found');
    }
    expectError(
      await call(stack, 'GET', `/admin/v1/companies/${company.id}/templates/${crypto.randomUUID()}/versions/1`, { token: ADMIN_TOKEN }),
      404,
      'template_not_found',
    );
    expectError(
      await call(stack, 'GET', `/admin/v1/companies/${crypto.randomUUID()}/templates/${template.id}/versions/1`, { token: ADMIN_TOKEN }),
      404,
      'company_not_found',
    );
    expect((await call(stack, 'GET', `${base(template.id)}/versions/1`)).status).toBe(401);
  });
});
