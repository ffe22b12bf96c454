/**
 * The languages the signing page (and the e-mails) speak: BCP 47 tags, each with its own name as
 * its speakers write it (a language switcher names every language in that language), the locale
 * dates are formatted in, and the direction of its script.
 */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'pl', 'ja', 'zh-Hans', 'ar', 'he'] as const;
export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = 'en';

export const languageNames: Readonly<Record<Language, string>> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  it: 'Italiano',
  pt: 'Português',
  nl: 'Nederlands',
  pl: 'Polski',
  ja: '日本語',
  'zh-Hans': '简体中文',
  ar: 'العربية',
  he: 'עברית',
};

/** Each language's name in English: for the certificate of completion, which is in English. */
export const englishNames: Readonly<Record<Language, string>> = {
  en: 'English',
  de: 'German',
  fr: 'French',
  es: 'Spanish',
  it: 'Italian',
  pt: 'Portuguese',
  nl: 'Dutch',
  pl: 'Polish',
  ja: 'Japanese',
  'zh-Hans': 'Simplified Chinese',
  ar: 'Arabic',
  he: 'Hebrew',
};

/** The locale of dates and numbers: English dates are written day-month-year, as most signers outside the US read them. */
export const localeOf: Readonly<Record<Language, string>> = {
  en: 'en-GB',
  de: 'de-DE',
  fr: 'fr-FR',
  es: 'es-ES',
  it: 'it-IT',
  pt: 'pt-PT',
  nl: 'nl-NL',
  pl: 'pl-PL',
  ja: 'ja-JP',
  'zh-Hans': 'zh-Hans-CN',
  ar: 'ar',
  he: 'he-IL',
};

export type Direction = 'ltr' | 'rtl';
export const directionOf = (language: Language): Direction => (language === 'ar' || language === 'he' ? 'rtl' : 'ltr');

export const isLanguage = (value: unknown): value is Language => typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/**
 * One of our languages for a tag as people and browsers write it, or null: case-insensitive, a
 * region ignored (`de-AT` is German, `pt-BR` Portuguese), Chinese only in simplified script
 * (`zh`, `zh-CN`, `zh-SG`, `zh-Hans-*`; `zh-TW`, `zh-HK` and `zh-Hant` are not ours), and the old
 * `iw` for Hebrew.
 */
export function languageOfTag(tag: string): Language | null {
  const parts = tag.trim().toLowerCase().replace(/_/g, '-').split('-');
  const primary = parts[0] ?? '';
  if (primary === 'zh') {
    const rest = parts.slice(1);
    if (rest.includes('hant') || rest.some((part) => ['tw', 'hk', 'mo'].includes(part))) return null;
    return 'zh-Hans';
  }
  if (primary === 'iw') return 'he';
  return (LANGUAGES as readonly string[]).includes(primary) ? (primary as Language) : null;
}
