/**
 * Every language's catalogue is complete and well formed: exactly the English keys, each message
 * parses as ICU MessageFormat, and each uses the same values and tags as its English original (a
 * translation that dropped `{max}` or `<b>` would show a sentence missing its number or emphasis).
 * Also how a language is chosen from what the request names.
 */
import { createHash } from 'node:crypto';
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { CONSENT_EDITION, consentFor, consentOfVersion } from '../../src/domain/signing/signing-state.js';
import { catalogues } from '../../src/i18n/catalogue.js';
import { LANGUAGES, type Language, acceptedTags, languageOfTag, messagesFor, negotiateLanguage } from '../../src/i18n/index.js';

type Element = { type: number; value?: string; options?: Record<string, { value: Element[] }>; children?: Element[] };

/** The names of the values and tags a message uses, from its parsed form. */
function namesIn(elements: Element[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    // Types of @formatjs/icu-messageformat-parser: 0 literal, 7 pound; the rest name a value or a tag.
    if (element.type !== 0 && element.type !== 7 && element.value) into.add(`${element.type === 8 ? 'tag' : 'value'}:${element.value}`);
    for (const option of Object.values(element.options ?? {})) namesIn(option.value, into);
    if (element.children) namesIn(element.children, into);
  }
  return into;
}

const english = catalogues.en;

describe('the catalogues', () => {
  it('has one catalogue for each of the twelve languages', () => {
    expect(Object.keys(catalogues).sort()).toEqual([...LANGUAGES].sort());
    expect(LANGUAGES).toEqual(['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'pl', 'ja', 'zh-Hans', 'ar', 'he']);
  });

  for (const language of LANGUAGES) {
    it(`${language}: has exactly the English keys, each message parses and uses the English values`, () => {
      const catalogue = catalogues[language];
      const missing = Object.keys(english).filter((key) => !(key in catalogue));
      const extra = Object.keys(catalogue).filter((key) => !(key in english));
      expect({ missing, extra }).toEqual({ missing: [], extra: [] });
      for (const [key, message] of Object.entries(catalogue)) {
        expect(message.trim(), `${language} ${key}`).not.toBe('');
        let parsed: IntlMessageFormat;
        try {
          parsed = new IntlMessageFormat(message, language);
        } catch (err) {
          throw new Error(`${language} ${key} does not parse: ${String(err)}`);
        }
        const wanted = namesIn(new IntlMessageFormat(english[key as keyof typeof english], 'en').getAst() as Element[]);
        expect(namesIn(parsed.getAst() as Element[]), `${language} ${key}`).toEqual(wanted);
      }
    });
  }

  it('formats plurals by each language’s rules', () => {
    expect(messagesFor('en').text('tooMany.lead', { minutes: 1 })).toContain('wait 1 minute and');
    expect(messagesFor('pl').text('tooMany.lead', { minutes: 2 })).toContain('Odczekaj 2 minuty');
    expect(messagesFor('pl').text('tooMany.lead', { minutes: 5 })).toContain('Odczekaj 5 minut');
    expect(messagesFor('ar').text('tooMany.lead', { minutes: 2 })).toContain('دقيقتين');
    expect(messagesFor('he').text('tooMany.lead', { minutes: 2 })).toContain('שתי דקות');
  });

  it('escapes values in HTML and isolates them in right-to-left messages', () => {
    expect(String(messagesFor('en').html('sign.sentBy', { sender: '<b>x</b>', senderEmail: 'o@x', name: 'A&B', email: 'a@b' }))).toBe(
      'Sent by <strong>&lt;b&gt;x&lt;/b&gt;</strong> (o@x) to A&amp;B (a@b)',
    );
    expect(String(messagesFor('ar').html('state.sentBy', { sender: 'Acme', senderEmail: 'olivia@acme.test' }))).toBe(
      'أرسله <bdi>Acme</bdi> (<bdi>olivia@acme.test</bdi>)',
    );
  });

  it('has a consent text for every language, its version naming the language', () => {
    for (const language of LANGUAGES) {
      expect(consentFor(language)).toEqual({ version: `esign-consent-2026-11/${language}`, language, text: catalogues[language]['consent.text'] });
      expect(consentOfVersion(`esign-consent-2026-11/${language}`)).toEqual(consentFor(language));
      // The catalogue's text is shown as it is: it holds no value, tag or plural to format.
      expect(messagesFor(language).text('consent.text')).toBe(consentFor(language).text);
    }
    // Records made before languages name the bare version: the English text.
    expect(consentOfVersion('esign-consent-2026-11')).toMatchObject({ language: 'en', text: catalogues.en['consent.text'] });
    expect(consentOfVersion('esign-consent-2026-11/xx')).toBeNull();
    expect(consentOfVersion('other-2020/de')).toBeNull();
  });

  it(`keeps each language's consent text of ${CONSENT_EDITION} as signers agreed to it: a new text needs a new edition`, () => {
    const agreed: Record<Language, string> = {
      en: 'b209fabb686fe98c65c12b692275041c6201d5970e520e7bb7ce481129c12e12',
      de: 'ab98522f893bde031b2e4dea6cbd43d43edefec4104da0d258766b87496006b6',
      fr: 'c742324956b77f72a8211815d0a6fefb94339899cd4b37969697faad5f6b174e',
      es: '0a41b4e6cb225e94a545ec330687380bb9433bc700e8f0e4b4628310418d93d9',
      it: '94b1b38e18dd9a39628a1d1158cbd657a4230b04764b307727d054ad760bd7fe',
      pt: 'd3fd5bfa653766a922c37dddeed458ad8f46e1f559b1d16877733da27cd602e3',
      nl: '670b0dbd7d10f54bb62c5f973489191e71369d1b523706a88295ec2f8a8a5d7b',
      pl: 'c5160ef126ca9a629643d726fe763aa3f9cb0576ae62316436b183fd7a2f7c06',
      ja: 'f03267d0037d546e2f6fb5027387842f3a8c224a4249af6ad1a5aacee217132d',
      'zh-Hans': '37ce46904ed48d2757e5e335b96e5298c97cd1af10be6d940c35273d995cc453',
      ar: '67a0d97364567c24776daba9e3f7554ac984d7b98ceec8dcb7f67e74dce85108',
      he: '316e3af5dcb3ae2dba07d883133b1af4874b05c0dea8b3464a0b8456c801dede',
    };
    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
    expect(Object.fromEntries(LANGUAGES.map((language) => [language, sha256(consentFor(language).text)]))).toEqual(agreed);
    expect(CONSENT_EDITION).toBe('esign-consent-2026-11');
  });
});

describe('choosing a language', () => {
  it('reads a tag as one of ours, or as none', () => {
    expect(['de', 'DE', 'de-AT', 'de_CH', 'pt-BR', 'zh', 'zh-CN', 'zh-Hans-SG', 'iw', 'he-IL'].map(languageOfTag)).toEqual([
      'de',
      'de',
      'de',
      'de',
      'pt',
      'zh-Hans',
      'zh-Hans',
      'zh-Hans',
      'he',
      'he',
    ]);
    expect(['zh-TW', 'zh-Hant', 'zh-HK', 'sv', '', 'x', 'english'].map(languageOfTag)).toEqual([null, null, null, null, null, null, null]);
  });

  it('orders Accept-Language by q-value, then as written, leaving out q=0, * and malformed entries', () => {
    expect(acceptedTags('fr;q=0.5, de, en;q=0.8, it;q=0, *;q=0.1, es;q=1.0')).toEqual(['de', 'es', 'en', 'fr']);
    expect(acceptedTags('da, en-GB;q=0.8, en;q=0.7')).toEqual(['da', 'en-GB', 'en']);
    expect(acceptedTags('de;q=2, fr;q=abc, it;q=0.001, <script>, ja;q=1.0001')).toEqual(['it']);
    expect(acceptedTags('')).toEqual([]);
  });

  it('takes ?lang=, then Accept-Language, then the template’s, then the company’s, then English', () => {
    const all = { query: 'ja', acceptLanguage: 'fr', template: 'de', company: 'es' };
    expect(negotiateLanguage(all)).toBe('ja');
    expect(negotiateLanguage({ ...all, query: 'xx' })).toBe('fr');
    expect(negotiateLanguage({ ...all, query: null, acceptLanguage: 'sv, fi;q=0.4' })).toBe('de');
    expect(negotiateLanguage({ ...all, query: null, acceptLanguage: null, template: null })).toBe('es');
    expect(negotiateLanguage({ company: 'tlh' })).toBe('en');
    expect(negotiateLanguage({})).toBe('en');
  });
});
