/**
 * The service's languages: which one a page or an e-mail is in, and its words.
 *
 *   const language = negotiateLanguage({ query, acceptLanguage, template, company });
 *   const m = messagesFor(language);
 *   m.text('signed.lead', { date: '…' })        // plain text (e-mails, titles)
 *   m.html('sign.sentBy', { sender, name, email }) // escaped HTML, `<b>` as <strong>
 *   m.date(at, { withTime: true })              // in the language's locale, UTC
 *
 * The functions here are stable: the e-mails use them too.
 */
import { type HtmlEscapedString, escapeToBuffer } from 'hono/utils/html';
import { html, raw } from 'hono/html';
import { IntlMessageFormat } from 'intl-messageformat';
import { type MessageKey, catalogues } from './catalogue.js';
import { type Direction, type Language, directionOf, languageNames, localeOf } from './languages.js';

export {
  LANGUAGES,
  DEFAULT_LANGUAGE,
  type Language,
  type Direction,
  isLanguage,
  languageOfTag,
  languageNames,
  englishNames,
  directionOf,
  localeOf,
} from './languages.js';
export { negotiateLanguage, acceptedTags, type LanguageChoices } from './negotiate.js';
export type { Catalogue, MessageKey } from './catalogue.js';

type Html = HtmlEscapedString | Promise<HtmlEscapedString>;
/** A message's values: text and numbers, or (for `html`) already-escaped HTML such as a <time>. */
export type MessageValues = Record<string, string | number | Date | Html>;

/** A language's words: `K` the keys of the catalogue they come from (the signing page's, else another's such as the application's). */
export type Messages<K extends string = MessageKey> = {
  language: Language;
  /** The locale dates and numbers are written in. */
  locale: string;
  dir: Direction;
  /** The language's own name. */
  name: string;
  /** A message as plain text; tags are dropped, their content kept. */
  text(key: K, values?: Record<string, string | number | Date>): string;
  /** A message as HTML: its text and values escaped, `<b>` as <strong>, HTML values kept as they are. */
  html(key: K, values?: MessageValues): HtmlEscapedString;
  /** A date (and time) as this language writes it, in UTC: the service does not know the signer's time zone. */
  date(at: Date, options?: { withTime?: boolean }): string;
};

const made = new Map<Language, Messages>();

/** The words of a language, made once per language per isolate. */
export function messagesFor(language: Language): Messages {
  let messages = made.get(language);
  if (!messages) made.set(language, (messages = buildMessages(language, catalogues[language])));
  return messages;
}

const richTags = {
  b: (chunks: unknown[]) => html`<strong>${chunks}</strong>`,
};
const plainTags = { b: (chunks: unknown[]) => chunks.join('') };

/** The words of `catalogue` in `language`: each message parsed on its first use. Callers keep what it makes (once per language per isolate). */
export function buildMessages<K extends string>(language: Language, catalogue: Readonly<Record<K, string>>): Messages<K> {
  const locale = localeOf[language];
  const formats = new Map<K, IntlMessageFormat>();
  const formatOf = (key: K) => {
    let format = formats.get(key);
    if (!format) formats.set(key, (format = new IntlMessageFormat(catalogue[key], locale)));
    return format;
  };
  // Made on first use: a formatter loads locale data, which the API's own requests never need.
  let dates: { date: Intl.DateTimeFormat; dateTime: Intl.DateTimeFormat } | undefined;
  const dateFormats = () =>
    (dates ??= {
      date: new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }),
      dateTime: new Intl.DateTimeFormat(locale, {
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        timeZone: 'UTC',
        timeZoneName: 'short',
      }),
    });
  const rtl = directionOf(language) === 'rtl';
  return {
    language,
    locale,
    dir: directionOf(language),
    name: languageNames[language],
    text: (key, values) => {
      const out = formatOf(key).format<string>({ ...plainTags, ...values });
      return Array.isArray(out) ? out.join('') : String(out);
    },
    html: (key, values) => {
      const out = formatOf(key).format<unknown>({ ...richTags, ...isolated(values, rtl) });
      const parts = Array.isArray(out) ? out : [out];
      return raw(parts.map((part) => (typeof part === 'string' || typeof part === 'number' ? escaped(String(part)) : String(part))).join(''));
    },
    date: (at, options) => (options?.withTime ? dateFormats().dateTime : dateFormats().date).format(at),
  };
}

/**
 * In a right-to-left message, each text value (an e-mail address, a title in another script) is
 * isolated in <bdi>, so its own direction does not reorder the words and brackets around it.
 */
function isolated(values: MessageValues | undefined, rtl: boolean): MessageValues | undefined {
  if (!rtl || !values) return values;
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, typeof value === 'string' ? raw(`<bdi>${escaped(value)}</bdi>`) : value]));
}

function escaped(text: string): string {
  const buffer: [string] = [''];
  escapeToBuffer(text, buffer);
  return buffer[0];
}
