/**
 * Reading the signing page's forms. Whatever a browser (or anything else) posts is checked here
 * before the signing domain sees it: text the database can store, within the limits of
 * signing-state.ts, each field once. What fails comes back as problems by field, shown on the page
 * like the domain's own refusals, never as an error of ours.
 */
import type { Context } from 'hono';
import { MAX_DRAWN_SIGNATURE_CHARS, MAX_TEXT_VALUE_CHARS, type SigningSubmission } from '../domain/signing/signing-state.js';
import { hasLoneSurrogate, hasNul } from '../lib/storable-text.js';
import type { AppEnv } from './app-env.js';
import type { Problem } from './signing-page/sign-page.js';

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
const UNSTORABLE = 'This contains a character that cannot be accepted (a NUL character or a broken Unicode character). Please retype it.';

/** The signing form as the domain takes it, with what the page shows again and what is wrong. */
export function readSignForm(entries: FormEntries): { submission: SigningSubmission; consentGiven: boolean; problems: Problem[] } {
  const problems: Problem[] = [];
  const values: Record<string, string> = {};
  let consentGiven = false;
  if (entries.length > MAX_ENTRIES) {
    return { submission: { consent: false, values }, consentGiven, problems: [{ field: null, message: 'The form has too many entries.' }] };
  }
  const seen = new Set<string>();
  for (const [key, value] of entries) {
    if (key === 'consent') {
      if (seen.has(key)) problems.push({ field: 'consent', message: 'The consent was sent more than once.' });
      consentGiven = typeof value === 'string' && value === 'yes';
      seen.add(key);
      continue;
    }
    if (!key.startsWith(FIELD_PREFIX)) continue; // form_token, the script's own inputs (mode.*), a button's name
    const id = key.slice(FIELD_PREFIX.length);
    if (id.length === 0 || id.length > MAX_FIELD_ID_CHARS || unstorable(id)) {
      problems.push({ field: null, message: 'The form has a field this page does not have.' });
      continue;
    }
    if (seen.has(key)) {
      problems.push({ field: id, message: 'This field was sent more than once.' });
      delete values[id];
      continue;
    }
    seen.add(key);
    const problem = valueProblem(value);
    if (problem) problems.push({ field: id, message: problem });
    else values[id] = value as string;
  }
  return { submission: { consent: consentGiven, values }, consentGiven, problems };
}

function valueProblem(value: FormDataEntryValue): string | null {
  if (typeof value !== 'string') return 'Files cannot be sent here.';
  if (unstorable(value)) return UNSTORABLE;
  if (value.startsWith('data:image/')) {
    if (!DRAWN.test(value)) return 'The drawing could not be read. Clear it and draw it again.';
    if (value.length > MAX_DRAWN_SIGNATURE_CHARS) return 'The drawing is too large. Clear it and draw it again, or type instead.';
    return null;
  }
  if (value.length > MAX_TEXT_VALUE_CHARS) return `Must be at most ${MAX_TEXT_VALUE_CHARS} characters.`;
  return null;
}

/** The reason of a decline: required, at most MAX_TEXT_VALUE_CHARS, storable. */
export function readDeclineForm(entries: FormEntries): { reason: string; problems: Problem[] } {
  const reasons = entries.filter(([key]) => key === 'reason').map(([, value]) => value);
  const problem = (message: string) => ({ reason: '', problems: [{ field: 'reason', message }] });
  if (reasons.length > 1) return problem('The reason was sent more than once.');
  const reason = reasons[0];
  if (reason !== undefined && typeof reason !== 'string') return problem('Files cannot be sent here.');
  const text = (reason ?? '').trim();
  if (text.length === 0) return problem('Please give a reason for declining.');
  if (unstorable(text)) return problem(UNSTORABLE);
  if (text.length > MAX_TEXT_VALUE_CHARS) return { reason: '', problems: [{ field: 'reason', message: `Must be at most ${MAX_TEXT_VALUE_CHARS} characters.` }] };
  return { reason: text, problems: [] };
}
