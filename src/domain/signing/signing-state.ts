/**
 * What a signer's link shows, as the signing domain decides it: the signing page's view model.
 * The HTTP layer renders it; nothing here knows of HTML. A link that does not verify, whatever
 * the reason (tampered, truncated, of another envelope, malformed), is `invalid` and tells nothing.
 */
import type { PageSize } from '../../data/schema.js';
import type { FieldPlacement } from '../templates/field-placement.js';

/** The consent to sign electronically, versioned: the version a signer agreed to is recorded. */
export const consent = {
  version: 'esign-consent-2026-11',
  text:
    'I agree to sign this document electronically. My electronic signature has the same effect as a handwritten one. ' +
    'I can download the signed document when everyone has signed.',
} as const;

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
    }
  /** Sequential order: earlier signers have not all signed yet. */
  | { kind: 'not_your_turn'; envelope: SigningEnvelope; recipient: { name: string } }
  | { kind: 'signed'; envelope: SigningEnvelope; signedAt: Date }
  | { kind: 'declined'; envelope: SigningEnvelope; byThisRecipient: boolean }
  | { kind: 'voided'; envelope: SigningEnvelope }
  | { kind: 'expired'; envelope: SigningEnvelope }
  /** Everyone has signed; `documentReady` once the finished PDF is made (a queue job after completion). */
  | { kind: 'completed'; envelope: SigningEnvelope; documentReady: boolean }
  /** A copy recipient's link, before completion: nothing to sign. */
  | { kind: 'copy'; envelope: SigningEnvelope };

/** Who acted, for the audit trail. */
export type SignerContext = { ip: string; userAgent: string | null };

/** A signing form as posted: values by field id; a drawn signature is a `data:image/png;base64,` URL. */
export type SigningSubmission = { consent: boolean; values: Record<string, string> };

/** A submission that cannot be accepted as it is; the page shows it again with these problems. */
export class SigningRefused extends Error {
  constructor(readonly problems: { field: string | null; message: string }[]) {
    super('The signing form is not complete.');
  }
}

/** Largest drawn signature accepted, as a data URL (a canvas PNG of a signature is far smaller). */
export const MAX_DRAWN_SIGNATURE_CHARS = 300_000;
/** Longest typed value of a text field, and of a decline reason. */
export const MAX_TEXT_VALUE_CHARS = 500;
