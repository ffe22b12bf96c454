/**
 * The signing page in the signer's language, over the real domain and database: which language a
 * link shows (`?lang=`, then Accept-Language with its q-values, then the template's, then the
 * company's, then English), the page's direction, dates in the signer's locale, and the consent
 * recorded in the language the signer saw, down to the certificate of completion.
 *
 * One file although long: one choice of language, followed from the link to the page, the e-mails
 * and the certificate.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditEvents, envelopes, templates } from '../../src/data/schema.js';
import { signingDocument } from '../../src/domain/signing/signing-document.js';
import type { TemplateDefinition } from '../../src/domain/templates/template-definition.js';
import { DomainError } from '../../src/errors.js';
import { LANGUAGES } from '../../src/i18n/index.js';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { loadSeed } from '../../src/seed/load-seed.js';
import { createTestCompany, ndaDefinition, sendTestEnvelope, type TestCompany } from '../support/factories.js';
import { call } from '../support/http.js';
import { installed } from '../support/outside-tools.js';
import { ADMIN_TOKEN, BASE_URL, openStack, type TestStack } from '../support/stack.js';
import { bySigner, testSigner } from '../support/signer-verbs.js';
import { storedBytes } from '../support/stored-documents.js';

let stack: TestStack;
let company: TestCompany;
beforeAll(async () => {
  stack = await openStack();
  // A fixed time ahead of the real one (the embedded queue keeps real time, so timers set by the
  // clock stay in the future): envelopes sent now expire 30 days later, 14 February 2027, 09:30 UTC.
  stack.clock.set('2027-01-15T09:30:00.000Z');
  company = await createTestCompany(stack, { quota: 1000 });
});
afterAll(() => stack.close());

type Page = { status: number; html: string; location: string | null };

async function open(path: string, headers: Record<string, string> = {}): Promise<Page> {
  const answer = await call<string>(stack, 'GET', path, { headers });
  return { status: answer.status, html: String(answer.body), location: answer.headers.get('location') };
}

/** A Client's link of a freshly sent envelope of a template with these settings. */
async function clientLink(template: Partial<TemplateDefinition> = {}, to: TestCompany = company) {
  const { envelopeId, links } = await sendTestEnvelope(stack, to, { signing_order: 'parallel', ...template });
  return { envelopeId, token: links[0]!.token, other: links[1]!.token };
}

const htmlTag = (html: string) => /<html lang="([^"]+)" dir="([^"]+)">/.exec(html)?.slice(1, 3);

/** The sign form's inputs as a browser would post them: every named field filled in, the consent ticked. */
function filledSignForm(html: string): { action: string; form: URLSearchParams } {
  const form = html.slice(html.indexOf('<form class="sign-form"'), html.indexOf('</form>', html.indexOf('<form class="sign-form"')));
  const action = /action="([^"]+)"/.exec(form)![1]!.replace(/&amp;/g, '&');
  const body = new URLSearchParams();
  for (const [input] of form.matchAll(/<input [^>]*>/g)) {
    const name = /name="([^"]+)"/.exec(input)?.[1];
    if (!name || name.startsWith('mode.')) continue;
    const value = /value="([^"]*)"/.exec(input)?.[1] ?? '';
    if (name === 'consent') body.append(name, 'yes');
    else if (name.startsWith('field.')) body.append(name, input.includes('type="checkbox"') ? 'yes' : 'Cleo Client');
    else body.append(name, value);
  }
  return { action, form: body };
}

async function post(path: string, form: URLSearchParams, headers: Record<string, string> = {}): Promise<Page> {
  const answer = await call<string>(stack, 'POST', path, {
    rawBody: form.toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: BASE_URL, ...headers },
  });
  return { status: answer.status, html: String(answer.body), location: answer.headers.get('location') };
}

async function consentedEvent(envelopeId: string) {
  const rows = await stack.services.database.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.envelopeId, envelopeId), eq(auditEvents.kind, 'recipient.consented')));
  return rows.map((row) => row.data);
}

describe('which language the page is in', () => {
  it('is English when nothing names a language', async () => {
    const { token } = await clientLink();
    const page = await open(`/sign/${token}`);
    expect(page.status).toBe(200);
    expect(htmlTag(page.html)).toEqual(['en', 'ltr']);
    expect(page.html).toContain('Please review and sign');
  });

  it('follows Accept-Language by its q-values, skipping languages not ours and q=0', async () => {
    const { token } = await clientLink();
    const cases: [header: string, lang: string, words: string][] = [
      ['de-AT,de;q=0.9,en;q=0.8', 'de', 'Bitte prüfen und unterschreiben'],
      ['en;q=0.2, pl;q=0.9, sv', 'pl', 'Sprawdź i podpisz'],
      ['sv, fi;q=0.9, fr;q=0.5', 'fr', 'Veuillez vérifier et signer'],
      ['ja;q=0, es;q=0.1', 'es', 'Revise y firme, por favor'],
      ['zh-CN,zh;q=0.9', 'zh-Hans', '请审阅并签署'],
      ['pt-BR', 'pt', 'Reveja e assine'],
      ['zh-TW, it;q=0.5', 'it', 'Controlla e firma'],
    ];
    for (const [header, lang, words] of cases) {
      const page = await open(`/sign/${token}`, { 'accept-language': header });
      expect(htmlTag(page.html)?.[0], header).toBe(lang);
      expect(page.html, header).toContain(words);
    }
  });

  it('lets ?lang= override Accept-Language, and ignores an unknown ?lang=', async () => {
    const { token } = await clientLink();
    const chosen = await open(`/sign/${token}?lang=ja`, { 'accept-language': 'fr' });
    expect(htmlTag(chosen.html)).toEqual(['ja', 'ltr']);
    expect(chosen.html).toContain('内容を確認して署名してください');
    // zh and zh-CN name Simplified Chinese too.
    for (const tag of ['zh', 'zh-CN', 'zh-Hans']) expect(htmlTag((await open(`/sign/${token}?lang=${tag}`)).html)?.[0]).toBe('zh-Hans');
    // Unknown: the next choice decides, as if no ?lang= were there.
    const unknown = await open(`/sign/${token}?lang=xx-YY`, { 'accept-language': 'nl' });
    expect(unknown.status).toBe(200);
    expect(htmlTag(unknown.html)).toEqual(['nl', 'ltr']);
    expect(htmlTag((await open(`/sign/${token}?lang=klingon`)).html)).toEqual(['en', 'ltr']);
  });

  it('falls back to the template’s language, then the company’s, below Accept-Language', async () => {
    const branded = await createTestCompany(stack, { quota: 100 });
    const brand = await call(stack, 'PUT', `/admin/v1/companies/${branded.id}/brand`, { token: ADMIN_TOKEN, body: { language: 'es' } });
    expect(brand.status, JSON.stringify(brand.body)).toBe(200);
    expect(brand.body.language).toBe('es');

    const companyOnly = await clientLink({}, branded);
    expect(htmlTag((await open(`/sign/${companyOnly.token}`)).html)?.[0]).toBe('es');
    const templateToo = await clientLink({ language: 'de' }, branded);
    expect(htmlTag((await open(`/sign/${templateToo.token}`)).html)?.[0]).toBe('de');
    // The signer's browser comes before both; ?lang= before everything.
    expect(htmlTag((await open(`/sign/${templateToo.token}`, { 'accept-language': 'it' })).html)?.[0]).toBe('it');
    expect(htmlTag((await open(`/sign/${templateToo.token}?lang=fr`, { 'accept-language': 'it' })).html)?.[0]).toBe('fr');
    // A browser asking only for languages not ours leaves the choice to the template.
    expect(htmlTag((await open(`/sign/${templateToo.token}`, { 'accept-language': 'sv, fi;q=0.5' })).html)?.[0]).toBe('de');
  });

  it('keeps another company’s language to that company', async () => {
    const spanish = await createTestCompany(stack, { quota: 100 });
    await call(stack, 'PUT', `/admin/v1/companies/${spanish.id}/brand`, { token: ADMIN_TOKEN, body: { language: 'es' } });
    const { token } = await clientLink();
    expect(htmlTag((await open(`/sign/${token}`)).html)?.[0]).toBe('en');
  });
});

describe('the page in each language', () => {
  it('sets dir="rtl" for Arabic and Hebrew, and ltr for the others', async () => {
    const { token } = await clientLink();
    for (const lang of LANGUAGES) {
      const page = await open(`/sign/${token}?lang=${lang}`);
      expect(htmlTag(page.html), lang).toEqual([lang, lang === 'ar' || lang === 'he' ? 'rtl' : 'ltr']);
    }
  });

  it('offers every language as a link that keeps the token, each named in itself', async () => {
    const { token } = await clientLink();
    const page = await open(`/sign/${token}?lang=de`);
    const links = [...page.html.matchAll(/<a href="([^"]+)" hreflang="([^"]+)" lang="[^"]+"( aria-current="true")?>([^<]+)<\/a>/g)];
    expect(links.map((link) => link[2])).toEqual([...LANGUAGES]);
    for (const [, href, lang] of links) expect(href).toBe(`/sign/${token}?lang=${lang}`);
    expect(links.find((link) => link[3])?.[4]).toBe('Deutsch');
    expect(links.map((link) => link[4])).toContain('العربية');
    // The forms keep the choice, so the answer to a post is in it too.
    expect(page.html).toContain(`action="/sign/${token}?lang=de"`);
    expect(page.html).toContain(`action="/sign/${token}/decline?lang=de"`);
  });

  it('writes dates in the signer’s locale', async () => {
    const { token } = await clientLink();
    const deadline = (lang: string) =>
      open(`/sign/${token}?lang=${lang}`).then((page) => /<time datetime="2027-02-14T09:30:00.000Z">([^<]+)<\/time>/.exec(page.html)?.[1]);
    expect(await deadline('en')).toBe('14 February 2027 at 09:30 UTC');
    expect(await deadline('de')).toBe('14. Februar 2027 um 09:30 UTC');
    expect(await deadline('fr')).toBe('14 février 2027 à 09:30 UTC');
    expect(await deadline('ja')).toBe('2027年2月14日 09:30 UTC');
    expect(await deadline('he')).toBe('14 בפברואר 2027 בשעה 09:30 UTC');
  });

  it('shows the consent in the page’s language with its version', async () => {
    const { token } = await clientLink();
    const german = await open(`/sign/${token}?lang=de`);
    expect(german.html).toContain('Ich bin damit einverstanden, dieses Dokument elektronisch zu unterschreiben.');
    expect(german.html).toContain('Version der Einwilligung esign-consent-2026-11/de');
    expect(german.html).toContain('<input type="hidden" name="lang" value="de">');
    const english = await open(`/sign/${token}`);
    expect(english.html).toContain('I agree to sign this document electronically.');
    expect(english.html).toContain('Consent version esign-consent-2026-11/en');
  });

  it('answers an invalid link in the browser’s language, with nothing of the link', async () => {
    const page = await open('/sign/rcp_nothingnothingnothingno.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', { 'accept-language': 'ar' });
    expect(page.status).toBe(404);
    expect(htmlTag(page.html)).toEqual(['ar', 'rtl']);
    expect(page.html).toContain('هذا الرابط غير صالح');
    expect(page.html).not.toContain('rcp_nothing');
  });

  it('tells a refused form’s problems in the page’s language, 422', async () => {
    const { token } = await clientLink();
    const { action, form } = filledSignForm((await open(`/sign/${token}?lang=fr`)).html);
    form.delete('consent');
    const refused = await post(action, form);
    expect(refused.status).toBe(422);
    expect(htmlTag(refused.html)).toEqual(['fr', 'ltr']);
    expect(refused.html).toContain('Rien n’a encore été signé : veuillez vérifier le formulaire');
    expect(refused.html).toContain('Acceptez de signer électroniquement pour continuer.');
  });

  it('tells a missing decline reason in the page’s language, 422', async () => {
    const { token } = await clientLink();
    const page = await open(`/sign/${token}`, { 'accept-language': 'he' });
    const formToken = /name="form_token" value="([^"]+)"/.exec(page.html)![1]!;
    const refused = await post(`/sign/${token}/decline`, new URLSearchParams({ form_token: formToken, lang: 'he', reason: ' ' }));
    expect(refused.status).toBe(422);
    expect(htmlTag(refused.html)).toEqual(['he', 'rtl']);
    expect(refused.html).toContain('נא לציין סיבה לסירוב.');
  });
});

describe('the consent, per language', () => {
  it('records the version of the language the signer saw, and the signed page in it', async () => {
    const { envelopeId, token } = await clientLink();
    const { action, form } = filledSignForm((await open(`/sign/${token}?lang=de`, { 'accept-language': 'en' })).html);
    const signed = await post(action, form);
    expect(signed.status, signed.html).toBe(303);
    expect(signed.location).toBe(`/sign/${token}?lang=de`);
    expect(await consentedEvent(envelopeId)).toEqual([expect.objectContaining({ consent_version: 'esign-consent-2026-11/de', language: 'de' })]);
    const after = await open(signed.location!, { 'accept-language': 'en' });
    expect(after.html).toContain('Sie haben unterschrieben');
    expect(after.html).toContain('Sie haben am <time datetime="2027-01-15T09:30:00.000Z">15. Januar 2027 um 09:30 UTC</time> unterschrieben.');
  });

  it('records the language the browser chose when no ?lang= was given', async () => {
    const { envelopeId, token } = await clientLink();
    const { action, form } = filledSignForm((await open(`/sign/${token}`, { 'accept-language': 'ar' })).html);
    expect(action).toBe(`/sign/${token}`);
    expect((await post(action, form, { 'accept-language': 'ar' })).status).toBe(303);
    expect(await consentedEvent(envelopeId)).toEqual([expect.objectContaining({ consent_version: 'esign-consent-2026-11/ar', language: 'ar' })]);
  });

  it('takes a form naming no language of ours in the request’s language', async () => {
    const { envelopeId, token } = await clientLink();
    const { action, form } = filledSignForm((await open(`/sign/${token}`)).html);
    form.set('lang', 'tlh');
    expect((await post(action, form, { 'accept-language': 'nl' })).status).toBe(303);
    expect(await consentedEvent(envelopeId)).toEqual([expect.objectContaining({ consent_version: 'esign-consent-2026-11/nl', language: 'nl' })]);
  });

  it.skipIf(!installed('pdftotext'))(
    'prints each signer’s language and consent on the certificate of completion',
    async () => {
      const { envelopeId, token, other } = await clientLink();
      for (const [link, lang] of [
        [token, 'de'],
        [other, 'ja'],
      ] as const) {
        const { action, form } = filledSignForm((await open(`/sign/${link}?lang=${lang}`)).html);
        expect((await post(action, form)).status).toBe(303);
      }
      await vi.waitFor(
        async () => {
          const [row] = await stack.services.database.db.select({ sha: envelopes.signedDocumentSha256 }).from(envelopes).where(eq(envelopes.id, envelopeId));
          expect(row?.sha).toMatch(/^[0-9a-f]{64}$/);
        },
        { timeout: 40_000, interval: 200 },
      );
      const finished = await bySigner(stack.services, testSigner, signingDocument, { token });
      const dir = mkdtempSync(join(tmpdir(), 'certificate-'));
      try {
        writeFileSync(join(dir, 'finished.pdf'), await storedBytes(stack.services.documents, finished!.key));
        const text = execFileSync('pdftotext', [join(dir, 'finished.pdf'), '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
        expect(text).toContain('esign-consent-2026-11/de');
        expect(text).toContain('esign-consent-2026-11/ja');
        expect(text).toContain('saw the signing page and the consent in German (de)');
        expect(text).toContain('saw the signing page and the consent in Japanese (ja)');
        expect(text).toContain('Ich bin damit einverstanden, dieses Dokument elektronisch zu unterschreiben.');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});

describe('the template’s and the company’s language in the admin API', () => {
  it('stores a template’s language and shows it on the template, null when unset', async () => {
    await clientLink();
    const { envelopeId } = await clientLink({ language: 'pl' });
    const [envelope] = await stack.services.database.db.select({ templateId: envelopes.templateId }).from(envelopes).where(eq(envelopes.id, envelopeId));
    const shown = await call(stack, 'GET', `/v1/templates/${envelope!.templateId}`, { token: company.owner.token });
    expect(shown.status).toBe(200);
    expect(shown.body.language).toBe('pl');
    const list = await call(stack, 'GET', '/v1/templates?per_page=100', { token: company.owner.token });
    const languages = (list.body.data as { id: string; language: string | null }[]).map((template) => [
      template.id === envelope!.templateId,
      template.language,
    ]);
    expect(languages).toContainEqual([true, 'pl']);
    expect(languages).toContainEqual([false, null]);
  });

  it('refuses a company language not of the twelve, 422, and clears it with null', async () => {
    const other = await createTestCompany(stack, { quota: 10 });
    for (const language of ['zh', 'de-DE', 'EN', '', 7]) {
      const refused = await call(stack, 'PUT', `/admin/v1/companies/${other.id}/brand`, { token: ADMIN_TOKEN, body: { language } });
      expect(refused.status, String(language)).toBe(422);
      expect(refused.body.error.code).toBe('validation_failed');
    }
    expect((await call(stack, 'PUT', `/admin/v1/companies/${other.id}/brand`, { token: ADMIN_TOKEN, body: { language: 'he' } })).body.language).toBe('he');
    expect((await call(stack, 'GET', `/admin/v1/companies/${other.id}/brand`, { token: ADMIN_TOKEN })).body.language).toBe('he');
    expect((await call(stack, 'PUT', `/admin/v1/companies/${other.id}/brand`, { token: ADMIN_TOKEN, body: { language: null } })).body.language).toBeNull();
  });

  it('takes a template’s language on the admin import, 422 for a tag not of the twelve', async () => {
    const bytes = await generateDocument('Mutual NDA', 2, nodeFontSource());
    const importWith = (language: unknown) => {
      const form = new FormData();
      form.append('template', JSON.stringify({ ...ndaDefinition(), language }));
      form.append('document', new File([bytes as Uint8Array<ArrayBuffer>], 'nda.pdf', { type: 'application/pdf' }));
      return call(stack, 'POST', `/admin/v1/companies/${company.id}/templates`, { token: ADMIN_TOKEN, rawBody: form });
    };
    const imported = await importWith('ar');
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(imported.body.language).toBe('ar');
    expect((await call(stack, 'GET', `/v1/templates/${imported.body.id}`, { token: company.owner.token })).body.language).toBe('ar');
    expect((await importWith(null)).body.language).toBeNull();
    for (const language of ['zh-CN', 'en-US', 'xx', 1]) {
      const refused = await importWith(language);
      expect(refused.status, String(language)).toBe(422);
      expect(refused.body.error.code).toBe('validation_failed');
      expect(JSON.stringify(refused.body.error)).toContain('language');
    }
  });

  it('takes a template’s language from the seed file, and refuses one not of the twelve with its path', async () => {
    const seed = (language: unknown) => ({
      companies: [
        {
          name: `Seeded ${crypto.randomUUID().slice(0, 8)}`,
          api_signature_requests_per_period: 10,
          users: [],
          templates: [{ ...ndaDefinition(), name: 'Seeded NDA', language, document: { generate: { title: 'Seeded NDA', pages: 2 } } }],
        },
      ],
    });
    await loadSeed(stack.services, seed('ja'), tmpdir());
    const [row] = await stack.services.database.db.select({ language: templates.language }).from(templates).where(eq(templates.name, 'Seeded NDA'));
    expect(row?.language).toBe('ja');
    const refused = await loadSeed(stack.services, seed('japanese'), tmpdir()).then(
      () => null,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(DomainError);
    expect(JSON.stringify((refused as DomainError).details)).toContain('companies[0].templates[0].language');
  });
});
