/**
 * Reading the signing page's forms: how a browser's post becomes what the signing domain takes.
 * Here only the form itself is checked (its field names, each field once, no files, the consent
 * box); what a value must be to be stored and signed is the domain's to say (accept-submission.ts),
 * for every way of signing alike. What fails comes back as problems by field, shown on the page
 * like the domain's own refusals, never as an error of ours.
 */
import { acceptDeclineReason } from '../domain/signing/accept-submission.js';
import { type Problem, SigningRefused, type SigningSubmission } from '../domain/signing/signing-state.js';
import { type Language, isLanguage } from '../i18n/languages.js';
import { hasLoneSurrogate, hasNul } from '../lib/storable-text.js';

export { type FormEntries, formTokenOf, readForm } from '../http/page-forms.js';
import type { FormEntries } from '../http/page-forms.js';

/** A token shaped like one the service makes (`rcp_….{mac}`); anything else is an invalid link without a look-up. */
export const isTokenShaped = (token: string) => /^[A-Za-z0-9_-]{1,64}\.[A-Za-z0-9_-]{1,128}$/.test(token);

/** Field ids are UUIDs; a longer key is not one of ours, and is not worth passing on. */
const MAX_FIELD_ID_CHARS = 64;
/** Far more than any template has fields; bounds the work a post can cause. */
const MAX_ENTRIES = 200;
const FIELD_PREFIX = 'field.';

/** A NUL or a broken Unicode character: no field id of ours, and nothing a page can show again. */
const unstorable = (value: string) => hasNul(value) || hasLoneSurrogate(value);

/** The language of the page the form was sent from (its hidden `lang`), if it is one of ours. */
export function formLanguageOf(entries: FormEntries): Language | null {
  const tags = entries.filter(([key]) => key === 'lang').map(([, value]) => value);
  return tags.length === 1 && isLanguage(tags[0]) ? tags[0] : null;
}

/**
 * The signing form as the domain takes it, with what the page shows again and what is wrong. The
 * submission's language is the page's (`lang` in the form), else `pageLanguage`, the one negotiated
 * for this request: the consent recorded is the one shown in that language.
 */
export function readSignForm(
  entries: FormEntries,
  pageLanguage: Language = 'en',
): { submission: SigningSubmission; consentGiven: boolean; problems: Problem[] } {
  const problems: Problem[] = [];
  const values: Record<string, string> = {};
  const language = formLanguageOf(entries) ?? pageLanguage;
  let consentGiven = false;
  if (entries.length > MAX_ENTRIES) {
    return { submission: { consent: false, values, language }, consentGiven, problems: [{ field: null, code: 'too_many_entries' }] };
  }
  const seen = new Set<string>();
  for (const [key, value] of entries) {
    if (key === 'consent') {
      if (seen.has(key)) problems.push({ field: 'consent', code: 'consent_twice' });
      consentGiven = typeof value === 'string' && value === 'yes';
      seen.add(key);
      continue;
    }
    if (!key.startsWith(FIELD_PREFIX)) continue; // form_token, lang, the script's own inputs (mode.*), a button's name
    const id = key.slice(FIELD_PREFIX.length);
    if (id.length === 0 || id.length > MAX_FIELD_ID_CHARS || unstorable(id)) {
      problems.push({ field: null, code: 'unknown_field' });
      continue;
    }
    if (seen.has(key)) {
      problems.push({ field: id, code: 'field_twice' });
      delete values[id];
      continue;
    }
    seen.add(key);
    if (typeof value === 'string') values[id] = value;
    else problems.push({ field: id, code: 'file_sent' });
  }
  return { submission: { consent: consentGiven, values, language }, consentGiven, problems };
}

/**
 * What a refused form shows again of the values sent: a value with a NUL or a broken Unicode
 * character is left out, to be typed again, as a page cannot carry it (the domain refused it).
 */
export const valuesShownAgain = (values: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(values).filter(([, value]) => !unstorable(value)));

/** The reason of a decline, as the domain keeps it (acceptDeclineReason): sent once, as text. */
export function readDeclineForm(entries: FormEntries): { reason: string; problems: Problem[] } {
  const reasons = entries.filter(([key]) => key === 'reason').map(([, value]) => value);
  const refused = (problems: Problem[]) => ({ reason: '', problems });
  if (reasons.length > 1) return refused([{ field: 'reason', code: 'reason_twice' }]);
  const reason = reasons[0];
  if (reason !== undefined && typeof reason !== 'string') return refused([{ field: 'reason', code: 'file_sent' }]);
  try {
    return { reason: acceptDeclineReason(reason ?? ''), problems: [] };
  } catch (err) {
    if (err instanceof SigningRefused) return refused(err.problems);
    throw err;
  }
}
