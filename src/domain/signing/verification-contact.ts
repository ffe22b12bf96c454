/**
 * Where a verification code goes, and how the trail and the page name that place without giving
 * it away: a signer's e-mail address, or their contact number in E.164 for a text message.
 */
import type { VerificationMethod } from '../../data/schema.js';
import type { Issue } from '../../errors.js';

/** E.164: a plus and 8 to 15 digits, the first not a zero. */
const E164 = /^\+[1-9]\d{7,14}$/;

/**
 * A number as people write it (`+44 (0)7700 900-789` less the `(0)`, `+1.415.555.0100`) in E.164,
 * or null when it is not one: spaces, dashes, dots and parentheses go; a leading `00` is not taken
 * for a `+`, since the sender should say which country they mean.
 */
export function e164(raw: string): string | null {
  const compact = raw.replace(/[\s\-.()]/g, '');
  return E164.test(compact) ? compact : null;
}

/** `dana@example.com` as `d***@example.com`. */
export function maskedEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}

/** `+447700900789` as `+44 *******789`: the country, and the last three digits. */
export function maskedNumber(number: string): string {
  const digits = number.replace(/\D/g, '');
  if (digits.length < 6) return '+***';
  return `+${digits.slice(0, 2)} ${'*'.repeat(digits.length - 5)}${digits.slice(-3)}`;
}

export type ContactCheck = { verification: VerificationMethod; contactNumber: string | null };

/**
 * The recipient's contact number as the envelope keeps it: in E.164 when their role's code goes by
 * text message (then it is required), as given otherwise. Problems are named by the recipient's
 * place in the request (`recipients[1].contact_number`).
 */
export function contactNumberFor(index: number, verification: VerificationMethod, given: string | null | undefined, issues: Issue[]): string | null {
  if (verification !== 'sms_code') return given ?? null;
  const path = `recipients[${index}].contact_number`;
  if (!given) {
    issues.push({ path, message: 'This role’s signer gets a code by text message: give the recipient’s contact_number (E.164, such as +447700900789).' });
    return null;
  }
  const number = e164(given);
  if (!number) issues.push({ path, message: 'Not a phone number in international form: a + and 8 to 15 digits (spaces, dashes, dots and parentheses are ignored).' });
  return number;
}
