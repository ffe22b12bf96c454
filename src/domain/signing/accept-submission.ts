/**
 * What a signer's values must be to be stored and signed, stated once: every way of signing comes
 * through here, so no caller can skip it. The signing page only reads its form (field names,
 * duplicates, files, the consent box); whatever it passes on is checked here, and what is wrong
 * comes back as problems by field, in the codes the page words.
 */
import { redrawPngDataUrl } from '../../lib/drawn-png.js';
import { numberBounds, optionValues } from '../templates/field-kinds.js';
import { chosenValue, dateValue, numberValue } from './field-values.js';
import { isStorableText } from '../../lib/storable-text.js';
import {
  MAX_DRAWN_SIGNATURE_CHARS,
  MAX_TEXT_VALUE_CHARS,
  type Problem,
  type ProblemCode,
  type SigningField,
  SigningRefused,
  type SigningSubmission,
} from './signing-state.js';

const PNG_DATA_URL = /^data:image\/png;base64,[A-Za-z0-9+/]*={0,2}$/;
/** A typed signature or initials: a name, not an essay. */
const MAX_TYPED_SIGNATURE_CHARS = 200;

/**
 * The value each field will hold, from what the signer posted: the service's own values for the
 * fields it fills (name, e-mail, date signed), the signer's for the rest, checked. Everything that
 * is wrong is told at once, by field.
 */
export function acceptSubmission(fields: SigningField[], submission: SigningSubmission): Map<string, string | null> {
  const problems: Problem[] = [];
  if (!submission.consent) problems.push({ field: null, code: 'consent_missing' });
  const values = new Map<string, string | null>();
  for (const field of fields) {
    const posted = submission.values[field.id];
    const result = field.prefill !== null ? { value: field.prefill } : postedValue(field, typeof posted === 'string' ? posted : '');
    if ('problem' in result) {
      const { problem: code, ...bounds } = result;
      problems.push({ field: field.id, code, ...bounds });
    } else values.set(field.id, result.value);
  }
  if (problems.length > 0) throw new SigningRefused(problems);
  return values;
}

/** The reason of a decline as it is kept: trimmed, given, storable, at most MAX_TEXT_VALUE_CHARS. */
export function acceptDeclineReason(reason: string): string {
  const text = reason.trim();
  const problem: Outcome = text === '' ? { problem: 'reason_missing' } : textOutcome(text, MAX_TEXT_VALUE_CHARS);
  if ('problem' in problem) throw new SigningRefused([{ field: 'reason', code: problem.problem, ...(problem.max ? { max: problem.max } : {}) }]);
  return text;
}

type Outcome = { value: string | null } | { problem: ProblemCode; max?: number; min?: number };

/** Text Postgres can keep as given, within `max` characters. */
function textOutcome(value: string, max: number): Outcome {
  if (!isStorableText(value)) return { problem: 'unstorable' };
  return value.length > max ? { problem: 'too_long', max } : { value };
}

/** The page names the field (its label, or its kind in the signer's language) in the problem's words. */
function postedValue(field: SigningField, raw: string): Outcome {
  // Whatever the field, a value Postgres cannot hold is refused as such, not read as something else (an unticked box).
  if (!isStorableText(raw)) return { problem: 'unstorable' };
  if (field.type === 'checkbox') {
    const checked = ['true', 'on', 'yes'].includes(raw);
    return field.required && !checked ? { problem: 'tick_required' } : { value: checked ? 'true' : 'false' };
  }
  const value = raw.trim();
  const choice = field.type === 'dropdown' || field.type === 'radio';
  if (value === '') return field.required ? { problem: choice ? 'choose_one' : 'fill_in' } : { value: null };
  if (field.type === 'date') return dateValue(value) ?? { problem: 'date_invalid' };
  if (field.type === 'number') return numberValue(value, numberBounds(field.settings));
  if (choice) return chosenValue(raw, optionValues(field.settings)) ?? { problem: 'option_unknown' };
  if (field.type === 'signature' || field.type === 'initials') return value.startsWith('data:') ? drawn(value) : textOutcome(value, MAX_TYPED_SIGNATURE_CHARS);
  return textOutcome(value, MAX_TEXT_VALUE_CHARS);
}

/**
 * A drawn signature must be a PNG data URL of a sensible size that decodes within its declared
 * size; what is kept is the service's own encoding of its pixels, so nothing a signer made reaches
 * the PDF's decoder. Anything else is refused, not stored: a value that is no PNG data URL at all
 * apart from a PNG that does not decode, so that the signer is told which.
 */
function drawn(value: string): Outcome {
  if (!PNG_DATA_URL.test(value)) return { problem: 'drawn_not_png' };
  if (value.length > MAX_DRAWN_SIGNATURE_CHARS) return { problem: 'drawn_too_large' };
  const redrawn = redrawPngDataUrl(value);
  if ('refused' in redrawn) return { problem: redrawn.refused === 'too_large' ? 'drawn_too_large' : 'drawn_unreadable' };
  return { value: redrawn.dataUrl };
}
