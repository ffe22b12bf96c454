/**
 * What a signer's link shows, as the signing domain decides it: the signing page's view model.
 * The HTTP layer renders it; nothing here knows of HTML. A link that does not verify, whatever
 * the reason (tampered, truncated, of another envelope, malformed), is `invalid` and tells nothing.
 */
import type { PageSize } from '../../data/schema.js';
import { catalogues } from '../../i18n/catalogue.js';
import { type Language, isLanguage } from '../../i18n/languages.js';
import type { FieldPlacement } from '../templates/field-placement.js';
import type { EarlierValue } from './earlier-values.js';

/**
 * The consent to sign electronically, versioned per language: a signer agrees to the text in the
 * language of their page (`consent.text` in the catalogue), and the version recorded names both
 * (`esign-consent-2026-11/de`). A change to any text is a new version. Records made before
 * languages name the bare version: English.
 */
export const CONSENT_EDITION = 'esign-consent-2026-11';

export type Consent = { version: string; language: Language; text: string };

/** The consent a signer sees and agrees to on a page in `language`. */
export const consentFor = (language: Language): Consent => ({
  version: `${CONSENT_EDITION}/${language}`,
  language,
  text: catalogues[language]['consent.text'],
});

/** The consent a recorded version names, or null for a version this service never had. */
export function consentOfVersion(version: string): Consent | null {
  if (version === CONSENT_EDITION) return { ...consentFor('en'), version };
  const [edition, language] = version.split('/');
  return edition === CONSENT_EDITION && isLanguage(language) ? consentFor(language) : null;
}

/** The English consent: what a page shows when nothing names a language. */
export const consent = consentFor('en');

/** One of this signer's fields: where it sits (PDF points from the page's top-left) and what it is. */
export type SigningField = FieldPlacement & {
  id: string;
  /** Filled in for the signer (name, e-mail) or by the service (date signed); they may not change it. */
  prefill: string | null;
};

export type SigningEnvelope = {
  id: string;
  title: string;
  message: string | null;
  senderEmail: string;
  expiresAt: Date | null;
  /** The language the sender chose for it: the template's, else the company's; null when neither names one. */
  language: Language | null;
};

export type SigningState =
  | { kind: 'invalid' }
  | {
      kind: 'sign';
      envelope: SigningEnvelope;
      recipient: { id: string; name: string; email: string };
      /** The document's pages, for laying out the fields before pdf.js has rendered them. */
      pages: PageSize[];
      /** This recipient's fields only. */
      fields: SigningField[];
      /** What the recipients who signed already put on the document, as the finished PDF will show it (the page's read only). */
      earlier?: EarlierValue[];
    }
  /** Sequential order: earlier signers have not all signed yet. */
  | { kind: 'not_your_turn'; envelope: SigningEnvelope; recipient: { name: string } }
  | { kind: 'signed'; envelope: SigningEnvelope; signedAt: Date }
  | { kind: 'declined'; envelope: SigningEnvelope; byThisRecipient: boolean }
  | { kind: 'voided'; envelope: SigningEnvelope }
  | { kind: 'expired'; envelope: SigningEnvelope }
  /** Everyone has signed; `documentReady` once the finished PDF is made (a queue job after completion). */
  | { kind: 'completed'; envelope: SigningEnvelope; documentReady: boolean; signedByThisRecipient?: boolean }
  /** A copy recipient's link, before completion: nothing to sign. */
  | { kind: 'copy'; envelope: SigningEnvelope }
  /** The signer's role asks for a code first: nothing of the document shows until it is entered. */
  | { kind: 'verify'; envelope: SigningEnvelope; recipient: { name: string }; step: VerificationStep };

/** Where a signer stands in proving who they are (verification-gate.ts). */
export type VerificationStep = {
  channel: 'email' | 'sms';
  /** The address or number the code goes to, masked (`d***@example.com`). */
  destination: string;
  /** The code that counts now, while it can still be entered; null before the first or after it died. */
  code: { expiresAt: Date; triesLeft: number } | null;
  /** When a new code may be sent; null: now. */
  nextSendAt: Date | null;
};

/**
 * Who acted, for the audit trail; and, for a role that asks for a code, this browser's proof that
 * it was entered here (verification-proof.ts).
 */
export type SignerContext = { ip: string; userAgent: string | null; proof?: string | null };

/**
 * A signing form as posted: values by field id (a drawn signature is a `data:image/png;base64,`
 * URL), and the language of the page the signer agreed on, which names the consent they agreed to
 * (English when not given).
 */
export type SigningSubmission = { consent: boolean; values: Record<string, string>; language?: Language };

/**
 * What is wrong with a form, as a code the page words in the signer's language (problem.<code> in
 * the catalogue); `field` is the field's id (or `consent`, `reason`), null for the whole form.
 */
export type ProblemCode =
  // The page's reading of a browser's form (src/signing-page/forms.ts).
  | 'too_many_entries'
  | 'consent_twice'
  | 'unknown_field'
  | 'field_twice'
  | 'file_sent'
  | 'reason_twice'
  // What a value must be to be stored and signed (accept-submission.ts); `consent_tick` words consent_missing beside the box.
  | 'consent_missing'
  | 'consent_tick'
  | 'tick_required'
  | 'fill_in'
  | 'unstorable'
  | 'too_long'
  | 'drawn_not_png'
  | 'drawn_too_large'
  | 'drawn_unreadable'
  | 'reason_missing'
  // The kinds with a value of their own shape (field-values.ts).
  | 'choose_one'
  | 'option_unknown'
  | 'date_invalid'
  | 'number_invalid'
  | 'number_below'
  | 'number_above'
  // A typed signature that fits its box only below the smallest size a signature is drawn at (pdf-maker.ts).
  | 'signature_too_wide';
export type Problem = { field: string | null; code: ProblemCode; max?: number; min?: number };

/** A submission that cannot be accepted as it is; the page shows it again with these problems. */
export class SigningRefused extends Error {
  constructor(readonly problems: Problem[]) {
    super('The signing form is not complete.');
  }
}

/** Largest drawn signature accepted, as a data URL (a canvas PNG of a signature is far smaller). */
export const MAX_DRAWN_SIGNATURE_CHARS = 300_000;
/** Longest typed value of a text field, and of a decline reason. */
export const MAX_TEXT_VALUE_CHARS = 500;
