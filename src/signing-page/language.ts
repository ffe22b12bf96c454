/**
 * The language of a page under `/sign/`: the form's own (the page it was sent from), else `?lang=`
 * on the link, else the browser's `Accept-Language`, else the envelope's (its template's, else its
 * company's), else English. Answers given before the envelope is known (refusals, errors) use the
 * request alone.
 */
import type { Context } from 'hono';
import { type Language, type Messages, languageOfTag, messagesFor, negotiateLanguage } from '../i18n/index.js';
import type { SigningEnv } from './signing-env.js';

export function pageLanguage(c: Context<SigningEnv>, options: { envelope?: Language | null; form?: Language | null } = {}): Language {
  if (options.form) return options.form;
  return negotiateLanguage({ query: queryLanguageTag(c), acceptLanguage: c.req.header('accept-language'), template: options.envelope });
}

export const pageMessages = (c: Context<SigningEnv>, options?: Parameters<typeof pageLanguage>[1]): Messages => messagesFor(pageLanguage(c, options));

/** `?lang=` when it names one of our languages, as that language's tag; a choice the page keeps on its forms. */
export function chosenLanguage(c: Context<SigningEnv>): Language | null {
  const tag = queryLanguageTag(c);
  return tag ? languageOfTag(tag) : null;
}

function queryLanguageTag(c: Context<SigningEnv>): string | null {
  const tag = c.req.query('lang');
  return typeof tag === 'string' && tag.length <= 35 ? tag : null;
}
