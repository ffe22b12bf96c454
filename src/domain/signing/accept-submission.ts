import { redrawPngDataUrl } from '../../lib/drawn-png.js';
import { isStorableText } from '../../lib/storable-text.js';
import { MAX_DRAWN_SIGNATURE_CHARS, MAX_TEXT_VALUE_CHARS, type Problem, type ProblemCode, type SigningField, SigningRefused, type SigningSubmission } from './signing-state.js';

const PNG_DATA_URL = /^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/;
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
    if ('problem' in result) problems.push({ field: field.id, code: result.problem, ...(result.max ? { max: result.max } : {}) });
    else values.set(field.id, result.value);
  }
  if (problems.length > 0) throw new SigningRefused(problems);
  return values;
}

type Outcome = { value: string | null } | { problem: ProblemCode; max?: number };

/** The page names the field (its label, or its kind in the signer's language) in the problem's words. */
function postedValue(field: SigningField, raw: string): Outcome {
  if (field.type === 'checkbox') {
    const checked = ['true', 'on', 'yes'].includes(raw);
    return field.required && !checked ? { problem: 'tick_required' } : { value: checked ? 'true' : 'false' };
  }
  const value = raw.trim();
  if (value === '') return field.required ? { problem: 'fill_in' } : { value: null };
  if (!isStorableText(value)) return { problem: 'field_unstorable' };
  if (field.type === 'signature' || field.type === 'initials') {
    if (value.startsWith('data:')) return drawn(value);
    return value.length > MAX_TYPED_SIGNATURE_CHARS ? { problem: 'field_too_long', max: MAX_TYPED_SIGNATURE_CHARS } : { value };
  }
  return value.length > MAX_TEXT_VALUE_CHARS ? { problem: 'field_too_long', max: MAX_TEXT_VALUE_CHARS } : { value };
}

/**
 * A drawn signature must be a PNG of a sensible size that decodes within its declared size; what is
 * kept is the service's own encoding of its pixels, so nothing a signer made reaches the PDF's
 * decoder. Anything else is refused, not stored.
 */
function drawn(value: string): Outcome {
  const tooLarge = { problem: 'drawn_too_large' } as const;
  if (value.length > MAX_DRAWN_SIGNATURE_CHARS) return tooLarge;
  const unreadable = { problem: 'drawn_unreadable' } as const;
  if (!PNG_DATA_URL.test(value)) return unreadable;
  const redrawn = redrawPngDataUrl(value);
  if ('refused' in redrawn) return redrawn.refused === 'too_large' ? tooLarge : unreadable;
  return { value: redrawn.dataUrl };
}
