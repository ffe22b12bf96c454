/**
 * The settings page's forms read from their posts and checked: what each would change, or what
 * is wrong with each field, in the catalogue's words. The rules are the admin API's for the same
 * fields (brand-schemas.ts, embedding.ts), so a value the one takes the other takes too.
 */
import { type BrandChange, MAX_DEFAULT_MESSAGE_CHARS, MAX_DISPLAY_NAME_CHARS } from '../domain/companies/brand.js';
import { allowsLoopbackHttp, MAX_ALLOWED_ORIGINS, MAX_ORIGIN_CHARS, normaliseOrigin } from '../domain/companies/embedding.js';
import { multiLineText, singleLineText } from '../domain/shared/text-fields.js';
import type { FormEntries } from '../http/page-forms.js';
import { singleValue } from '../http/page-forms.js';
import type { AppMessages } from '../i18n/app-messages.js';
import { isLanguage } from '../i18n/languages.js';
import { checkLogo, MAX_LOGO_BYTES } from '../lib/brand-logo.js';
import type { AppConfig } from '../services.js';

export type BrandForm = { displayName: string; accentColor: string; message: string; language: string };
export type BrandErrors = Partial<Record<keyof BrandForm, string>>;

const displayNameRule = singleLineText(MAX_DISPLAY_NAME_CHARS);
const messageRule = multiLineText(MAX_DEFAULT_MESSAGE_CHARS);
const accentRule = /^#[0-9a-fA-F]{6}$/;

/** The brand form as posted (a field sent twice or not as text reads as empty). */
export function brandFormOf(entries: FormEntries): BrandForm {
  return {
    displayName: singleValue(entries, 'display_name')?.trim() ?? '',
    accentColor: singleValue(entries, 'accent_color')?.trim() ?? '',
    // A browser posts a textarea's line breaks as CRLF: the message keeps them as LF, as the API's.
    message: (singleValue(entries, 'default_email_message') ?? '').replace(/\r\n?/g, '\n').trim(),
    language: singleValue(entries, 'language') ?? '',
  };
}

/** The change the brand form asks (an empty field clears its setting), or each field's mistake. */
export function checkBrandForm(m: AppMessages, form: BrandForm): { change: BrandChange } | { errors: BrandErrors } {
  const errors: BrandErrors = {};
  if (!displayNameRule.safeParse(form.displayName).success) errors.displayName = m.text('settings.brand.displayNameInvalid', { max: MAX_DISPLAY_NAME_CHARS });
  if (form.accentColor !== '' && !accentRule.test(form.accentColor)) errors.accentColor = m.text('settings.brand.accentInvalid');
  if (!messageRule.safeParse(form.message).success) errors.message = m.text('settings.brand.messageInvalid', { max: MAX_DEFAULT_MESSAGE_CHARS });
  if (form.language !== '' && !isLanguage(form.language)) errors.language = m.text('settings.brand.languageInvalid');
  if (Object.keys(errors).length > 0) return { errors };
  return {
    change: {
      display_name: form.displayName || null,
      accent_color: form.accentColor || null,
      default_email_message: form.message || null,
      language: form.language || null,
    },
  };
}

/**
 * The logo posted (`logo`, a file), checked as the brand checks it: its bytes, or what is wrong.
 * The body limit of the route (settings-routes.ts) already refused a post far past the logo's.
 */
export async function checkLogoUpload(m: AppMessages, entries: FormEntries): Promise<{ logo: Uint8Array } | { error: string }> {
  const files = entries.filter(([name]) => name === 'logo').map(([, value]) => value);
  const file = files.length === 1 && typeof files[0] !== 'string' ? files[0] : undefined;
  if (!file || file.size === 0) return { error: m.text('settings.logo.missing') };
  if (file.size > MAX_LOGO_BYTES) return { error: m.text('settings.logo.tooBig', { bytes: file.size, max: MAX_LOGO_BYTES }) };
  const bytes = new Uint8Array(await file.arrayBuffer());
  // Checked here to answer on the page; putBrand checks the same bytes again before it keeps them.
  const checked = checkLogo(bytes);
  if ('refused' in checked) return { error: m.text('settings.logo.refusedBecause', { reason: checked.refused }) };
  return { logo: bytes };
}

/** The origins as typed, one per line, blank lines left out. */
export const originLines = (text: string): string[] =>
  text
    .split(/\r\n?|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** The list of origins in their stored spelling, or what is wrong with it, line by line. */
export function checkOrigins(m: AppMessages, config: AppConfig, lines: string[]): { origins: string[] } | { errors: string[] } {
  if (lines.length > MAX_ALLOWED_ORIGINS) return { errors: [m.text('settings.embedding.tooMany', { max: MAX_ALLOWED_ORIGINS, count: lines.length })] };
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const [index, line] of lines.entries()) {
    const checked =
      line.length > MAX_ORIGIN_CHARS
        ? { problem: m.text('settings.embedding.originsHint', { max: MAX_ALLOWED_ORIGINS }) }
        : normaliseOrigin(line, { allowLoopbackHttp: allowsLoopbackHttp(config) });
    if ('problem' in checked) errors.push(m.text('settings.embedding.lineInvalid', { line: index + 1, problem: checked.problem }));
    else if (seen.has(checked.origin)) errors.push(m.text('settings.embedding.twice', { line: index + 1, origin: checked.origin }));
    else seen.add(checked.origin);
  }
  return errors.length > 0 ? { errors } : { origins: [...seen] };
}
