/**
 * Every language's catalogue is complete and well formed: exactly the English keys, each message
 * parses as ICU MessageFormat, and each uses the same values and tags as its English original (a
 * translation that dropped `{max}` or `<b>` would show a sentence missing its number or emphasis).
 * Also how a language is chosen from what the request names.
 */
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { consentFor, consentOfVersion, consentTexts } from '../../src/domain/signing/signing-state.js';
import { catalogues } from '../../src/i18n/catalogue.js';
import { LANGUAGES, acceptedTags, languageOfTag, messagesFor, negotiateLanguage } from '../../src/i18n/index.js';

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
    expect(String(messagesFor('en').html('sign.sentBy', { sender: '<b>x</b>', name: 'A&B', email: 'a@b' }))).toBe(
      'Sent by <strong>&lt;b&gt;x&lt;/b&gt;</strong> to A&amp;B (a@b)',
    );
    expect(String(messagesFor('ar').html('state.sentBy', { sender: 'olivia@acme.test' }))).toBe('أرسله <bdi>olivia@acme.test</bdi>');
  });

  it('has a consent text for every language, its version naming the language', () => {
    expect(Object.keys(consentTexts).sort()).toEqual([...LANGUAGES].sort());
    for (const language of LANGUAGES) {
      expect(consentFor(language).version).toBe(`esign-consent-2026-11/${language}`);
      expect(consentOfVersion(`esign-consent-2026-11/${language}`)?.text).toBe(consentTexts[language]);
    }
    // Records made before languages name the bare version: the English text.
    expect(consentOfVersion('esign-consent-2026-11')).toMatchObject({ language: 'en', text: consentTexts.en });
    expect(consentOfVersion('esign-consent-2026-11/xx')).toBeNull();
    expect(consentOfVersion('other-2020/de')).toBeNull();
  });
});

describe('choosing a language', () => {
  it('reads a tag as one of ours, or as none', () => {
    expect(['de', 'DE', 'de-AT', 'de_CH', 'pt-BR', 'zh', 'zh-CN', 'zh-Hans-SG', 'iw', 'he-IL'].map(languageOfTag)).toEqual([
      'de', 'de', 'de', 'de', 'pt', 'zh-Hans', 'zh-Hans', 'zh-Hans', 'he', 'he',
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
