import { DEFAULT_LANGUAGE, type Language, languageOfTag } from './languages.js';

/** What a page's language is chosen from, strongest first; any of them may be missing or not ours. */
export type LanguageChoices = {
  /** `?lang=` on the link: the signer's own choice on the page. */
  query?: string | null;
  /** The browser's `Accept-Language` header. */
  acceptLanguage?: string | null;
  /** The template's language (templates.language). */
  template?: string | null;
  /** The company's language (the active brand setting's). */
  company?: string | null;
};

/** The first of the choices that names one of our languages; English when none does. */
export function negotiateLanguage(choices: LanguageChoices): Language {
  const fromQuery = choices.query ? languageOfTag(choices.query) : null;
  if (fromQuery) return fromQuery;
  for (const tag of acceptedTags(choices.acceptLanguage ?? '')) {
    const language = languageOfTag(tag);
    if (language) return language;
  }
  for (const setting of [choices.template, choices.company]) {
    const language = setting ? languageOfTag(setting) : null;
    if (language) return language;
  }
  return DEFAULT_LANGUAGE;
}

/**
 * The tags of an `Accept-Language` header, most wanted first: by q-value (missing is 1), ties in
 * the order written; `q=0` means "not this" and `*` names no language, so both are left out.
 * A malformed entry is skipped, never an error.
 */
export function acceptedTags(header: string): string[] {
  return header
    .slice(0, 1000)
    .split(',')
    .map((entry, index) => {
      const [tag = '', ...params] = entry.trim().split(';');
      const q = params.map((param) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(param)).find(Boolean);
      const quality = q ? Number(q[1]) : params.some((param) => /^\s*q\s*=/i.test(param)) ? 0 : 1;
      return { tag: tag.trim(), quality, index };
    })
    .filter((entry) => entry.quality > 0 && entry.quality <= 1 && /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(entry.tag))
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
    .map((entry) => entry.tag);
}
