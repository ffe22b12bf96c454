/**
 * Reading the signing page's forms. Whatever a browser (or anything else) posts is checked here
 * before the signing domain sees it: text the database can store, within the limits of
 * signing-state.ts, each field once. What fails comes back as problems by field, shown on the page
 * like the domain's own refusals, never as an error of ours.
 */
import type { Context } from 'hono';
import { MAX_DRAWN_SIGNATURE_CHARS, MAX_TEXT_VALUE_CHARS, type Problem, type ProblemCode, type SigningSubmission } from '../domain/signing/signing-state.js';
import { type Language, isLanguage } from '../i18n/languages.js';
import { hasLoneSurrogate, hasNul } from '../lib/storable-text.js';
import type { AppEnv } from '../http/app-env.js';

export type FormEntries = [string, FormDataEntryValue][];

/** A token shaped like one the service makes (`rcp_….{mac}`); anything else is an invalid link without a look-up. */
export const isTokenShaped = (token: string) => /^[A-Za-z0-9_-]{1,64}\.[A-Za-z0-9_-]{1,128}$/.test(token);

/** Field ids are UUIDs; a longer key is not one of ours, and is not worth passing on. */
const MAX_FIELD_ID_CHARS = 64;
/** Far more than any template has fields; bounds the work a post can cause. */
const MAX_ENTRIES = 200;
const DRAWN = /^data:image\/png;base64,[A-Za-z0-9+/]*={0,2}$/;
const FIELD_PREFIX = 'field.';

/** The posted form's entries, or null when the body is not a form (another content type, malformed multipart). */
export async function readForm(c: Context<AppEnv>): Promise<FormEntries | null> {
  const type = c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded' && type !== 'multipart/form-data') return null;
  try {
    return [...(await c.req.formData()).entries()];
  } catch {
    return null;
  }
}

/** The one `form_token` posted, if there is exactly one and it is text. */
export function formTokenOf(entries: FormEntries): string | undefined {
  const tokens = entries.filter(([key]) => key === 'form_token').map(([, value]) => value);
  return tokens.length === 1 && typeof tokens[0] === 'string' ? tokens[0] : undefined;
}

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
export function readSignForm(entries: FormEntries, pageLanguage: Language = 'en'): { submission: SigningSubmission; consentGiven: boolean; problems: Problem[] } {
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
    const problem = valueProblem(value);
    if (problem) problems.push({ field: id, ...problem });
    else values[id] = value as string;
  }
  return { submission: { consent: consentGiven, values, language }, consentGiven, problems };
}

function valueProblem(value: FormDataEntryValue): { code: ProblemCode; max?: number } | null {
  if (typeof value !== 'string') return { code: 'file_sent' };
  if (unstorable(value)) return { code: 'unstorable' };
  if (value.startsWith('data:image/')) {
    if (!DRAWN.test(value)) return { code: 'drawing_unreadable' };
    if (value.length > MAX_DRAWN_SIGNATURE_CHARS) return { code: 'drawing_too_large' };
    return null;
  }
  if (value.length > MAX_TEXT_VALUE_CHARS) return { code: 'too_long', max: MAX_TEXT_VALUE_CHARS };
  return null;
}

/** The reason of a decline: required, at most MAX_TEXT_VALUE_CHARS, storable. */
export function readDeclineForm(entries: FormEntries): { reason: string; problems: Problem[] } {
  const reasons = entries.filter(([key]) => key === 'reason').map(([, value]) => value);
  const problem = (code: ProblemCode, max?: number) => ({ reason: '', problems: [{ field: 'reason', code, ...(max ? { max } : {}) }] });
  if (reasons.length > 1) return problem('reason_twice');
  const reason = reasons[0];
  if (reason !== undefined && typeof reason !== 'string') return problem('file_sent');
  const text = (reason ?? '').trim();
  if (text.length === 0) return problem('reason_missing');
  if (unstorable(text)) return problem('unstorable');
  if (text.length > MAX_TEXT_VALUE_CHARS) return problem('too_long', MAX_TEXT_VALUE_CHARS);
  return { reason: text, problems: [] };
}
