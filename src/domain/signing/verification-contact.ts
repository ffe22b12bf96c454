/**
 * Where a verification code goes, and how the trail and the page name that place without giving
 * it away: a signer's e-mail address, or their contact number in E.164 for a text message.
 *
 * A number for text messages is checked against the real numbering plans (libphonenumber's
 * metadata for mobile numbers): a number no plan has (`+999999999999999`), a fixed line, a
 * premium-rate or shared-cost number, or one of an international network without a country
 * (satellite phones, +881 and +882) never gets a code. Those are what text-message pumping dials,
 * and a code sent there reaches nobody who signs.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/mobile';
import type { VerificationMethod } from '../../data/schema.js';
import type { Issue } from '../../errors.js';

/** How people write a number in international form: a plus, digits, and spaces, dashes, dots or parentheses. */
const WRITTEN = /^\+[\d\s\-.()]+$/;

export type TextableNumber = { number: string; country: string };

/**
 * A number as people write it (`+44 (0)7400 123-456`, `+1.415.555.0100`) in E.164 with its
 * country (ISO 3166-1 alpha-2), or why it cannot get a text message. A leading `00` is not taken
 * for a `+`, since the sender should say which country they mean; an extension is refused, as a
 * text message cannot reach one.
 */
export function textableNumber(raw: string, countries: readonly string[] | null = null): TextableNumber | { problem: string } {
  if (!WRITTEN.test(raw.trim()))
    return { problem: 'Not a phone number in international form: a + and the digits (spaces, dashes, dots and parentheses are ignored).' };
  const parsed = parsePhoneNumberFromString(raw.trim());
  if (!parsed?.isValid() || !parsed.country)
    return { problem: 'Not a mobile number of any country’s numbering plan: a code by text message could not reach it.' };
  if (countries && !countries.includes(parsed.country)) {
    const allowed = countries.length > 0 ? `only to numbers of ${countries.join(', ')}` : 'to no country';
    return { problem: `A number of ${parsed.country}: this company’s codes go by text message ${allowed}.` };
  }
  return { number: parsed.number, country: parsed.country };
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
 * text message (then it is required, a mobile number, and of one of `countries` when the company
 * names some), as given otherwise. Problems are named by the recipient's place in the request
 * (`recipients[1].contact_number`).
 */
export function contactNumberFor(
  index: number,
  verification: VerificationMethod,
  given: string | null | undefined,
  issues: Issue[],
  countries: readonly string[] | null = null,
): string | null {
  if (verification !== 'sms_code') return given ?? null;
  const path = `recipients[${index}].contact_number`;
  if (!given) {
    issues.push({ path, message: 'This role’s signer gets a code by text message: give the recipient’s contact_number (E.164, such as +447400123456).' });
    return null;
  }
  const checked = textableNumber(given, countries);
  if ('problem' in checked) {
    issues.push({ path, message: checked.problem });
    return null;
  }
  return checked.number;
}
