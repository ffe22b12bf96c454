/**
 * The kinds of the audit trail's rows and of webhook events, as typed unions: a row written with a
 * kind not listed here does not compile. Stored as text (schema.ts types the columns with these),
 * so adding a kind needs no migration; a kind once written stays, as old rows carry it.
 */

/** Every kind of audit row the service writes: what GET /admin/v1/envelopes/{id}/audit answers as `kind` (docs/admin.md). */
export const auditKinds = [
  'api_key.created',
  'api_key.rotated',
  'api_key.revoked',
  'template.imported',
  /** A template saved as a new version (its data names the version), and archived (src/domain/templates). */
  'template.version_saved',
  'template.archived',
  /** A company's settings changed by one of its users in the application: the brand (the fields set), the origins allowed to embed signing. */
  'settings.brand_changed',
  'settings.embedding_changed',
  'envelope.sent',
  'envelope.voided',
  'envelope.expired',
  'envelope.completed',
  'envelope.document_ready',
  'recipient.emailed',
  /** Someone of the company reminded a signer by hand, from the application (src/domain/envelopes/remind-recipient.ts). */
  'recipient.reminded',
  'recipient.code_sent',
  'recipient.code_failed',
  'recipient.verified',
  'recipient.viewed',
  'recipient.consented',
  'recipient.signed',
  'recipient.declined',
  /** Counts a recipient's further events of one kind past the first ten (src/domain/signing/repeated-events.ts). */
  'recipient.repeated',
  /** The company application (src/domain/app-access): a person signed in, signed out, or was signed out by a change to their user. */
  'user.signed_in',
  'user.signed_out',
  'user.session_ended',
  /** The company's users managed in the application (src/domain/users): invited, their role or seat changed, deactivated or reactivated. */
  'user.invited',
  'user.role_changed',
  'user.seat_changed',
  'user.deactivated',
  'user.reactivated',
] as const;

export type AuditKind = (typeof auditKinds)[number];

/** Every event kind a subscription may ask for; src/domain/webhooks/event-catalog.ts says what each means. */
export type EventKind =
  | 'envelope.sent'
  | 'envelope.viewed'
  | 'envelope.signed'
  | 'envelope.declined'
  | 'envelope.voided'
  | 'envelope.expired'
  | 'envelope.completed'
  | 'envelope.document_ready';

/** The event a test delivery sends; never recorded for an envelope, never subscribable. */
export const testEventKind = 'webhook.test' as const;

/** The kind of a stored webhook event. */
export type WebhookEventKind = EventKind | typeof testEventKind;
