/**
 * The text message of a verification code in each language: the code and the company's display
 * name only, within one segment whatever the name (cut to fit, whole characters kept), and the
 * segment counter it is measured with, at each bound and one past.
 */
import { describe, expect, it } from 'vitest';
import { codeTextMessage } from '../../src/domain/signing/code-text-message.js';
import { LANGUAGES, messagesFor } from '../../src/i18n/index.js';
import { segmentCount } from '../../src/lib/text-message-segments.js';

describe('the segment counter', () => {
  it('counts 160 GSM characters as one segment and 161 as more, the extension characters as two', () => {
    expect(segmentCount('a'.repeat(160))).toEqual({ encoding: 'GSM-7', units: 160, limit: 160 });
    expect(segmentCount('a'.repeat(161)).units).toBe(161);
    expect(segmentCount(`${'a'.repeat(158)}€`)).toEqual({ encoding: 'GSM-7', units: 160, limit: 160 });
    expect(segmentCount(`${'a'.repeat(159)}€`).units).toBe(161);
    expect(segmentCount('Ä ö ñ ü à é è ù ì ò Ç ß £ ¥ § ¿ ¡ Δ Ω').encoding).toBe('GSM-7');
  });

  it('counts anything else in UCS-2: 70 units in one segment, an emoji as two', () => {
    expect(segmentCount(`ó${'a'.repeat(69)}`)).toEqual({ encoding: 'UCS-2', units: 70, limit: 70 });
    expect(segmentCount(`ó${'a'.repeat(70)}`).units).toBe(71);
    expect(segmentCount('…').encoding).toBe('UCS-2');
    expect(segmentCount('🙂').units).toBe(2);
  });
});

describe('the code’s text message', () => {
  const names = {
    short: 'Acme Ltd',
    'long, GSM': `Müller & Söhne Vermögensverwaltung ${'A'.repeat(100)}`,
    'long, Latin beyond GSM': `Łódź Spółka Akcyjna ${'ż'.repeat(80)}`,
    'long, CJK': '株式会社'.repeat(25),
    'long, Arabic': 'شركة الأمثلة المحدودة '.repeat(5),
    'long, emoji': '🙂👍🏽👨‍👩‍👧'.repeat(30),
  };

  for (const language of LANGUAGES) {
    it(`in ${language}: the code and the name, nothing else, in one segment whatever the name`, () => {
      const m = messagesFor(language);
      const fixed = (from: string) => m.text('sms.code', { code: '123456', from });
      for (const [kind, name] of Object.entries(names)) {
        const body = codeTextMessage(m, name, '123456');
        const { units, limit } = segmentCount(body);
        expect(units, `${kind}: ${body}`).toBeLessThanOrEqual(limit);
        // The fixed text around the whole name, or around a beginning of it (whole characters) and an ellipsis.
        const parts = Array.from(new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(name), (part) => part.segment);
        const candidates = parts.flatMap((_, kept) =>
          ['...', '…'].map((ellipsis) =>
            fixed(
              `${parts
                .slice(0, kept + 1)
                .join('')
                .trimEnd()}${ellipsis}`,
            ),
          ),
        );
        expect([fixed(name), ...candidates], `${kind}: ${body}`).toContain(body);
        // Cut no more than needed: at most one grapheme of these names (8 units) and an ellipsis short of full.
        if (body !== fixed(name)) expect(units, `${kind}: ${body}`).toBeGreaterThan(limit - 11);
      }
      expect(codeTextMessage(m, names.short, '123456')).toBe(fixed('Acme Ltd'));
    });
  }

  it('keeps a GSM message in GSM: three dots, not an ellipsis, and all of a name that fits', () => {
    const m = messagesFor('en');
    const body = codeTextMessage(m, 'A'.repeat(200), '123456');
    expect(body).toMatch(/^123456 is your code from A+\.\.\.\. Do not share it\.$/);
    expect(segmentCount(body)).toEqual({ encoding: 'GSM-7', units: 160, limit: 160 });
    expect(codeTextMessage(m, 'A'.repeat(117), '123456')).toBe(`123456 is your code from ${'A'.repeat(117)}. Do not share it.`);
  });

  it('cuts a name between whole characters, and drops invisible and control characters', () => {
    const m = messagesFor('en');
    const body = codeTextMessage(m, '👨‍👩‍👧'.repeat(40), '123456');
    expect(body).toMatch(/^123456 is your code from (👨‍👩‍👧)+…\. Do not share it\.$/u);
    expect(codeTextMessage(m, 'Acme\u202e Ltd\r\nline two', '123456')).toBe('123456 is your code from Acme Ltd line two. Do not share it.');
  });
});
