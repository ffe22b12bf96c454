import { redrawPngDataUrl } from '../../lib/drawn-png.js';
import { isStorableText } from '../../lib/storable-text.js';
import { MAX_DRAWN_SIGNATURE_CHARS, MAX_TEXT_VALUE_CHARS, type SigningField, SigningRefused, type SigningSubmission } from './signing-state.js';

const PNG_DATA_URL = /^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/;
/** A typed signature or initials: a name, not an essay. */
const MAX_TYPED_SIGNATURE_CHARS = 200;

/**
 * The value each field will hold, from what the signer posted: the service's own values for the
 * fields it fills (name, e-mail, date signed), the signer's for the rest, checked. Everything that
 * is wrong is told at once, by field.
 */
export function acceptSubmission(fields: SigningField[], submission: SigningSubmission): Map<string, string | null> {
  const problems: { field: string | null; message: string }[] = [];
  if (!submission.consent) problems.push({ field: null, message: 'Agree to sign electronically to continue.' });
  const values = new Map<string, string | null>();
  for (const field of fields) {
    const posted = submission.values[field.id];
    const result = field.prefill !== null ? { value: field.prefill } : valueOf(field, typeof posted === 'string' ? posted : '');
    if ('problem' in result) problems.push({ field: field.id, message: result.problem });
    else values.set(field.id, result.value);
  }
  if (problems.length > 0) throw new SigningRefused(problems);
  return values;
}

function valueOf(field: SigningField, raw: string): { value: string | null } | { problem: string } {
  const name = field.label ?? field.type.replace('_', ' ');
  if (field.type === 'checkbox') {
    const checked = ['true', 'on', 'yes'].includes(raw);
    return field.required && !checked ? { problem: `Tick “${name}” to continue.` } : { value: checked ? 'true' : 'false' };
  }
  const value = raw.trim();
  if (value === '') return field.required ? { problem: `Fill in ${name}.` } : { value: null };
  if (!isStorableText(value)) return { problem: `The ${name} contains characters that cannot be kept.` };
  if (field.type === 'signature' || field.type === 'initials') {
    if (value.startsWith('data:')) return drawn(value, name);
    return value.length > MAX_TYPED_SIGNATURE_CHARS ? { problem: `The ${name} is longer than ${MAX_TYPED_SIGNATURE_CHARS} characters.` } : { value };
  }
  return value.length > MAX_TEXT_VALUE_CHARS ? { problem: `The ${name} is longer than ${MAX_TEXT_VALUE_CHARS} characters.` } : { value };
}

/**
 * A drawn signature must be a PNG of a sensible size that decodes within its declared size; what is
 * kept is the service's own encoding of its pixels, so nothing a signer made reaches the PDF's
 * decoder. Anything else is refused, not stored.
 */
function drawn(value: string, name: string): { value: string } | { problem: string } {
  const tooLarge = { problem: `The drawn ${name} is too large; draw it again, smaller.` };
  if (value.length > MAX_DRAWN_SIGNATURE_CHARS) return tooLarge;
  const unreadable = { problem: `The drawn ${name} is not an image we can keep; draw it again.` };
  if (!PNG_DATA_URL.test(value)) return unreadable;
  const redrawn = redrawPngDataUrl(value);
  if ('refused' in redrawn) return redrawn.refused === 'too_large' ? tooLarge : unreadable;
  return { value: redrawn.dataUrl };
}
