/**
 * The whole domain in one drizzle schema. One file although long: drizzle-kit generates the
 * migrations from it, and the tables' references to each other read best side by side. Every row below a company carries `company_id`, so that
 * every query can be scoped by tenant without a join (docs/api-reference.md, section 9.1).
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, customType, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { AuditKind, WebhookEventKind } from './event-kinds.js';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array | string }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (typeof value === 'string' ? hexToBytes(value) : new Uint8Array(value)),
});

/** Drivers hand bytea back as bytes, or as Postgres hex text (`\x0102…`) when asked for raw text. */
function hexToBytes(hex: string): Uint8Array {
  const digits = hex.startsWith('\\x') ? hex.slice(2) : hex;
  const out = new Uint8Array(digits.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(digits.slice(i * 2, i * 2 + 2), 16);
  return out;
}

const createdAt = () => timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow();
const companyId = () =>
  uuid('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' });

export const companies = pgTable('companies', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  /** The plan's API signature requests for one calendar month (UTC). */
  apiSignatureRequestsPerPeriod: integer('api_signature_requests_per_period').notNull(),
  /**
   * The countries (ISO 3166-1 alpha-2, as the numbering plans name them) whose numbers may get a
   * verification code by text message; null allows every country. Set through the admin API.
   */
  textMessageCountries: text('text_message_countries').array(),
  createdAt: createdAt(),
});

/** A company may keep several brand settings; exactly one is active and supplies defaults. */
export const brandSettings = pgTable(
  'brand_settings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: companyId(),
    defaultEmailMessage: text('default_email_message'),
    /** The name e-mails come from and the signing page and certificate show; the company's name when unset. */
    displayName: text('display_name'),
    /** A PNG or JPEG (never SVG: it can carry script), shown on e-mails, the signing page and the certificate. */
    logo: bytea('logo'),
    logoType: text('logo_type').$type<'image/png' | 'image/jpeg'>(),
    /**
     * The logo's SHA-256 (hex), made by the database as the logo is written (migration 0013), so
     * that reading a company's look for an e-mail or a page never hashes the image again.
     */
    logoSha256: text('logo_sha256').generatedAlwaysAs(sql`encode(sha256(logo), 'hex')`),
    /** `#rrggbb`, for buttons and headings. */
    accentColor: text('accent_color'),
    /** The company's language (a tag of the signing page's languages) for e-mails and pages, when a template names none. */
    language: text('language'),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('brand_settings_one_active').on(t.companyId).where(sql`${t.active}`)],
);

/** The origins (`https://app.example.com`) allowed to frame a company's signing pages; none without a row. */
export const embeddingSettings = pgTable('embedding_settings', {
  companyId: uuid('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  allowedOrigins: text('allowed_origins').array().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

export const userRoles = ['owner', 'admin', 'member', 'viewer'] as const;
export type UserRole = (typeof userRoles)[number];

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: companyId(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: text('role').$type<UserRole>().notNull(),
    active: boolean('active').notNull().default(true),
    esignSeat: boolean('esign_seat').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_company_email').on(t.companyId, sql`lower(${t.email})`)],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    companyId: companyId(),
    ownerUserId: uuid('owner_user_id')
      .notNull()
      .references(() => users.id),
    name: text('name'),
    /** The recognizable start of the key, safe to show in lists. */
    prefix: text('prefix').notNull(),
    /** SHA-256 of the whole key; the key itself is never stored. */
    keyHash: text('key_hash').notNull(),
    scopes: jsonb('scopes').$type<string[]>().notNull(),
    /** Bumped by every rotation; a token carries the version it was issued under. */
    version: integer('version').notNull().default(1),
    revokedAt: timestamp('revoked_at', { withTimezone: true, precision: 3 }),
    rotatedAt: timestamp('rotated_at', { withTimezone: true, precision: 3 }),
    /** The key's last exchange for a token (POST /v1/auth/token), and the client address it came from. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, precision: 3 }),
    lastUsedIp: text('last_used_ip'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('api_keys_hash').on(t.keyHash), index('api_keys_company').on(t.companyId)],
);

export type Reminders = { first_after_days: number; every_days: number };
export type SigningOrder = 'sequential' | 'parallel';

export const templates = pgTable(
  'templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: companyId(),
    name: text('name').notNull(),
    emailSubject: text('email_subject'),
    emailMessage: text('email_message'),
    expiryDays: integer('expiry_days'),
    reminders: jsonb('reminders').$type<Reminders | null>(),
    signingOrder: text('signing_order').$type<SigningOrder>().notNull(),
    shareSigningLinks: boolean('share_signing_links').notNull().default(false),
    /** The language of e-mails and the signing page for envelopes of this template; else the company's. */
    language: text('language'),
    /** The latest version: its document, roles and fields are the rows of this number; each save adds one. */
    version: integer('version').notNull().default(1),
    /** Set once archived: the template leaves the API, and its sent envelopes finish as usual. */
    archivedAt: timestamp('archived_at', { withTimezone: true, precision: 3 }),
    /** Who saved the latest version in the application; null for an import, a seed or the operator. */
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index('templates_company_created').on(t.companyId, t.createdAt, t.id)],
);

export type PageSize = { width: number; height: number };

/**
 * Each saved version's settings, as that version was saved, never changed after: the `templates`
 * row holds the latest's (what a send copies), this table every version's, so that an envelope
 * keeps speaking the language of the version it was sent with and an old version reads as it was.
 */
export const templateVersions = pgTable(
  'template_versions',
  {
    companyId: companyId(),
    templateId: uuid('template_id')
      .notNull()
      .references(() => templates.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    name: text('name').notNull(),
    emailSubject: text('email_subject'),
    emailMessage: text('email_message'),
    expiryDays: integer('expiry_days'),
    reminders: jsonb('reminders').$type<Reminders | null>(),
    signingOrder: text('signing_order').$type<SigningOrder>().notNull(),
    shareSigningLinks: boolean('share_signing_links').notNull(),
    language: text('language'),
    savedAt: timestamp('saved_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** The user who saved it in the application; null for an import, a seed or the operator. */
    savedBy: uuid('saved_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [primaryKey({ columns: [t.templateId, t.version], name: 'template_versions_pk' })],
);

/** One row per version of a template; a version that keeps the document repeats its row (the bytes are stored once). */
export const templateDocuments = pgTable(
  'template_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: companyId(),
    templateId: uuid('template_id')
      .notNull()
      .references(() => templates.id, { onDelete: 'cascade' }),
    version: integer('version').notNull().default(1),
    fileName: text('file_name').notNull(),
    /** The PDF in the document store (src/ports/document-store.ts); null only for a row still to be moved there. */
    storageKey: text('storage_key'),
    /** Bytes, as the store counted them. */
    size: integer('size'),
    /** Where the PDF lived before the store: emptied as the row moves (src/domain/documents/move-documents.ts). */
    content: bytea('content'),
    sha256: text('sha256').notNull(),
    pages: jsonb('pages').$type<PageSize[]>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('template_documents_version').on(t.templateId, t.version)],
);

/**
 * A PDF uploaded to start a template in the builder, stored before any template names it. Claimed
 * when a template or a version is saved from it; housekeeping removes from the store those left
 * unclaimed for a day (src/domain/templates/abandoned-uploads.ts).
 */
export const pendingUploads = pgTable(
  'pending_uploads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: companyId(),
    storageKey: text('storage_key').notNull(),
    createdAt: createdAt(),
    claimedAt: timestamp('claimed_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [index('pending_uploads_created').on(t.createdAt), index('pending_uploads_key').on(t.storageKey)],
);

export type RoleType = 'signer' | 'cc';

/** How a role's signer proves who they are before the document opens: nothing more than the link, or a code. */
export const verificationMethods = ['none', 'email_code', 'sms_code'] as const;
export type VerificationMethod = (typeof verificationMethods)[number];

export const templateRoles = pgTable(
  'template_roles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: companyId(),
    templateId: uuid('template_id')
      .notNull()
      .references(() => templates.id, { onDelete: 'cascade' }),
    /** The template version the role belongs to: each version has its own roles. */
    version: integer('version').notNull().default(1),
    name: text('name').notNull(),
    type: text('type').$type<RoleType>().notNull(),
    order: integer('order').notNull(),
    locked: boolean('locked').notNull().default(false),
    /** Locked roles keep their recipient fixed in the template. */
    recipientName: text('recipient_name'),
    recipientEmail: text('recipient_email'),
    verification: text('verification').$type<VerificationMethod>().notNull().default('none'),
  },
  (t) => [uniqueIndex('template_roles_name').on(t.templateId, t.version, t.name)],
);

export type FieldType = 'signature' | 'initials' | 'date_signed' | 'text' | 'checkbox' | 'name' | 'email' | 'date' | 'number' | 'dropdown' | 'radio';

/** A radio group's option: its value and its own box on the field's page (PDF points from the page's top-left). */
export type RadioOption = { value: string; x: number; y: number; width: number; height: number };
/** What a kind of field needs beyond its place: a number's bounds, a dropdown's or a radio group's options; null for the other kinds. */
export type FieldSettings = { min?: number; max?: number } | { options: string[] } | { options: RadioOption[] };

export const templateFields = pgTable(
  'template_fields',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: companyId(),
    templateId: uuid('template_id')
      .notNull()
      .references(() => templates.id, { onDelete: 'cascade' }),
    /** The version of its role. */
    version: integer('version').notNull().default(1),
    roleId: uuid('role_id')
      .notNull()
      .references(() => templateRoles.id, { onDelete: 'cascade' }),
    type: text('type').$type<FieldType>().notNull(),
    label: text('label'),
    /** 1-based page; coordinates in PDF points from the page's top-left corner. */
    page: integer('page').notNull(),
    x: integer('x').notNull(),
    y: integer('y').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    required: boolean('required').notNull().default(true),
    settings: jsonb('settings').$type<FieldSettings | null>(),
  },
  (t) => [index('template_fields_template').on(t.templateId, t.version)],
);

export const contacts = pgTable(
  'contacts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: companyId(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    contactNumber: text('contact_number'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('contacts_company_email').on(t.companyId, sql`lower(${t.email})`), index('contacts_company_created').on(t.companyId, t.createdAt, t.id)],
);

export const envelopeStatuses = ['sent', 'completed', 'declined', 'voided', 'expired'] as const;
export type EnvelopeStatus = (typeof envelopeStatuses)[number];

export const envelopes = pgTable(
  'envelopes',
  {
    id: text('id').primaryKey(),
    companyId: companyId(),
    templateId: uuid('template_id')
      .notNull()
      .references(() => templates.id),
    /** The template version it was sent with: its document and fields stay those, whatever is saved later. */
    templateVersion: integer('template_version').notNull().default(1),
    apiKeyId: text('api_key_id').references(() => apiKeys.id),
    senderUserId: uuid('sender_user_id')
      .notNull()
      .references(() => users.id),
    senderEmail: text('sender_email').notNull(),
    title: text('title').notNull(),
    emailSubject: text('email_subject').notNull(),
    emailMessage: text('email_message'),
    status: text('status').$type<EnvelopeStatus>().notNull(),
    signingOrder: text('signing_order').$type<SigningOrder>().notNull(),
    shareSigningLinks: boolean('share_signing_links').notNull(),
    reminders: jsonb('reminders').$type<Reminders | null>(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }),
    /** The template's document as it was at send time; the finished PDF once all have signed. */
    documentSha256: text('document_sha256').notNull(),
    /** Where the finished PDF lived before the store: emptied as the row moves to it. */
    signedDocument: bytea('signed_document'),
    /** The finished PDF in the document store, and its bytes. */
    signedDocumentKey: text('signed_document_key'),
    signedDocumentSize: integer('signed_document_size'),
    /** SHA-256 (hex) of the finished PDF, set with it. */
    signedDocumentSha256: text('signed_document_sha256'),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true, precision: 3 }),
    voidedAt: timestamp('voided_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [index('envelopes_company_created').on(t.companyId, t.createdAt)],
);

export type RecipientStatus = 'pending' | 'sent' | 'viewed' | 'signed' | 'declined';

export const recipients = pgTable(
  'recipients',
  {
    id: text('id').primaryKey(),
    companyId: companyId(),
    envelopeId: text('envelope_id')
      .notNull()
      .references(() => envelopes.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    type: text('type').$type<RoleType>().notNull(),
    order: integer('order').notNull(),
    /** Position in the request's `recipients`; locked-role recipients come after, in role order. */
    position: integer('position').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    contactNumber: text('contact_number'),
    status: text('status').$type<RecipientStatus>().notNull(),
    viewedAt: timestamp('viewed_at', { withTimezone: true, precision: 3 }),
    signedAt: timestamp('signed_at', { withTimezone: true, precision: 3 }),
    declinedAt: timestamp('declined_at', { withTimezone: true, precision: 3 }),
    /**
     * Copied from the role at the send: what the signer must prove before the document opens. Last,
     * as the migration added it: insertRows fills the columns in the table's order.
     */
    verification: text('verification').$type<VerificationMethod>().notNull().default('none'),
  },
  // No signing token is kept: links are derived from the ids (src/domain/envelopes/signing-links.ts).
  (t) => [index('recipients_envelope').on(t.envelopeId)],
);

export const envelopeFields = pgTable(
  'envelope_fields',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: companyId(),
    envelopeId: text('envelope_id')
      .notNull()
      .references(() => envelopes.id, { onDelete: 'cascade' }),
    recipientId: text('recipient_id')
      .notNull()
      .references(() => recipients.id, { onDelete: 'cascade' }),
    type: text('type').$type<FieldType>().notNull(),
    label: text('label'),
    page: integer('page').notNull(),
    x: integer('x').notNull(),
    y: integer('y').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    required: boolean('required').notNull(),
    value: text('value'),
    /** Copied from the template's field at the send; last, as the migration added it (the send's INSERT … SELECT lists the columns in order). */
    settings: jsonb('settings').$type<FieldSettings | null>(),
  },
  (t) => [index('envelope_fields_envelope').on(t.envelopeId)],
);

/**
 * The codes sent to signers who must prove who they are: only a keyed hash of each code is kept.
 * The newest code of a recipient is the one that counts; the rows also count the re-sends.
 */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: companyId(),
    envelopeId: text('envelope_id')
      .notNull()
      .references(() => envelopes.id, { onDelete: 'cascade' }),
    recipientId: text('recipient_id')
      .notNull()
      .references(() => recipients.id, { onDelete: 'cascade' }),
    channel: text('channel').$type<'email' | 'sms'>().notNull(),
    codeHash: text('code_hash').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true, precision: 3 }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    /** Tries made at this code, right or wrong: five at most, then it is dead. */
    attempts: integer('attempts').notNull().default(0),
    usedAt: timestamp('used_at', { withTimezone: true, precision: 3 }),
    /** The number a text message went to, in E.164 (null for e-mail): the limits per number count it. */
    destination: text('destination'),
  },
  (t) => [
    index('verification_codes_recipient').on(t.recipientId, t.sentAt),
    // The limits on text messages count a company's texts of the last day, by number and by envelope.
    index('verification_codes_company_texts').on(t.companyId, t.channel, t.sentAt),
  ],
);

/** Append-only trail of what happened, written in the same transaction as the change it records. */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /**
     * The order rows were written in: rows of one change share their `created_at` (a signature and
     * the completion it brings), and the trail must read in the order they happened.
     */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    companyId: companyId(),
    envelopeId: text('envelope_id').references(() => envelopes.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<AuditKind>().notNull(),
    actorType: text('actor_type').$type<'api_key' | 'admin' | 'recipient' | 'system' | 'user'>().notNull(),
    actorId: text('actor_id'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_events_company').on(t.companyId, t.createdAt),
    // The application's audit log pages a company's rows by seq, newest first.
    index('audit_events_company_seq').on(t.companyId, t.seq),
    index('audit_events_envelope').on(t.envelopeId),
  ],
);

export const webhookSubscriptions = pgTable(
  'webhook_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: companyId(),
    url: text('url').notNull(),
    events: jsonb('events').$type<string[]>().notNull(),
    description: text('description'),
    /** The signing secret, sealed with AES-GCM (see secret-box.ts); shown in the clear only at creation. */
    secretCiphertext: text('secret_ciphertext').notNull(),
    /** Which configured key sealed it, so keys can be rotated. */
    secretKeyId: text('secret_key_id').notNull(),
    /**
     * The secret a rotation replaced, sealed like the current one, and when it stops signing: until
     * then each delivery carries a signature under each secret, so receivers can switch over.
     */
    previousSecretCiphertext: text('previous_secret_ciphertext'),
    previousSecretKeyId: text('previous_secret_key_id'),
    previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, precision: 3 }),
    /** Set when the subscriber answered 410 Gone, or failed every attempt for too long: no more deliveries. */
    disabledAt: timestamp('disabled_at', { withTimezone: true, precision: 3 }),
    disabledReason: text('disabled_reason'),
    /**
     * The endpoint the URL names, as subscriptions are compared (webhook-target.ts, `endpointKey`): one
     * live subscription per key in a company. Null on rows stored before it was kept; those are compared
     * by their URL when a subscription is made.
     */
    endpoint: text('endpoint'),
  },
  (t) => [
    index('webhook_subscriptions_company').on(t.companyId, t.createdAt),
    uniqueIndex('webhook_subscriptions_url').on(t.companyId, t.url).where(sql`${t.deletedAt} is null`),
    uniqueIndex('webhook_subscriptions_endpoint').on(t.companyId, t.endpoint).where(sql`${t.deletedAt} is null`),
  ],
);

/** One row per event that happened; `id` is the Standard Webhooks `webhook-id`, stable across retries. */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: text('id').primaryKey(),
    companyId: companyId(),
    envelopeId: text('envelope_id').references(() => envelopes.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<WebhookEventKind>().notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /**
     * The event's place in its envelope's history, 1, 2, 3…; null for test events. Numbered by the
     * database as the row is written (the trigger of migration 0009), so that no writer can forget it.
     */
    sequence: integer('sequence'),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_events_company').on(t.companyId, t.createdAt),
    uniqueIndex('webhook_events_sequence').on(t.envelopeId, t.sequence),
    // Housekeeping removes events past their 30 days by this.
    index('webhook_events_created').on(t.createdAt),
  ],
);

export type DeliveryOrigin = 'event' | 'replay' | 'redelivery';

/**
 * One row per delivery attempt of one event to one subscription. A delivery is the attempts (up to
 * six) that share a `delivery_id`: the event's own, or one a replay or a redelivery started.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: companyId(),
    /** The event's own delivery has `uuidFromName(event_id.subscription_id)`; a replay's or redelivery's its own. */
    deliveryId: uuid('delivery_id').notNull(),
    origin: text('origin').$type<DeliveryOrigin>().notNull().default('event'),
    eventId: text('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    statusCode: integer('status_code'),
    /** What kind of failure, for whoever reads the list: timeout, network, refused_target, redirect, http_status. */
    errorType: text('error_type'),
    error: text('error'),
    durationMs: integer('duration_ms'),
    createdAt: createdAt(),
  },
  (t) => [
    // Two attempts running at once cannot both record the same number.
    uniqueIndex('webhook_deliveries_attempt').on(t.deliveryId, t.attempt),
    index('webhook_deliveries_subscription').on(t.subscriptionId, t.createdAt),
  ],
);

/**
 * A replay of a subscription's past events (POST /v1/webhooks/{id}/replay): handed to the queue one
 * event at a time, in the order they occurred, each after the one before was attempted. `cursor` is
 * the event handed last. At most one runs per subscription (the partial unique index).
 */
export const webhookReplays = pgTable(
  'webhook_replays',
  {
    id: uuid('id').primaryKey(),
    companyId: companyId(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: 'cascade' }),
    since: timestamp('since', { withTimezone: true, precision: 3 }).notNull(),
    until: timestamp('until', { withTimezone: true, precision: 3 }).notNull(),
    events: jsonb('events').$type<string[]>().notNull(),
    total: integer('total').notNull(),
    /** The last event handed on, and its place in the order events occurred (kept here: the event itself may be removed at 30 days while the replay runs). */
    cursor: text('cursor'),
    cursorAt: timestamp('cursor_at', { withTimezone: true, precision: 3 }),
    cursorSequence: integer('cursor_sequence'),
    handed: integer('handed').notNull().default(0),
    createdAt: createdAt(),
    /** When the last event was handed on: a replay that stops moving for long is given up. */
    progressedAt: timestamp('progressed_at', { withTimezone: true, precision: 3 }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    uniqueIndex('webhook_replays_running').on(t.subscriptionId).where(sql`${t.finishedAt} is null`),
    // The company's replays of the last day, counted against its daily budget.
    index('webhook_replays_company').on(t.companyId, t.createdAt),
  ],
);

/**
 * A redelivery (POST …/deliveries/{delivery_id}/redeliver) from when it is asked until its delivery
 * ends: `id` is the new delivery's id. At most one is pending per subscription and event (the partial
 * unique index), and the company's redeliveries of the last day are counted against its daily budget.
 */
export const webhookRedeliveries = pgTable(
  'webhook_redeliveries',
  {
    id: uuid('id').primaryKey(),
    companyId: companyId(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: 'cascade' }),
    /** No foreign key: an event removed at 30 days must not take its redelivery out of the day's count. */
    eventId: text('event_id').notNull(),
    createdAt: createdAt(),
    /** When its delivery ended (delivered, given up, or its subscription gone); null while it is pending. */
    settledAt: timestamp('settled_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    uniqueIndex('webhook_redeliveries_pending').on(t.subscriptionId, t.eventId).where(sql`${t.settledAt} is null`),
    index('webhook_redeliveries_company').on(t.companyId, t.createdAt),
  ],
);

/** A send's first answer, replayed for a retried request with the same `Idempotency-Key`. */
export const idempotencyRecords = pgTable(
  'idempotency_records',
  {
    apiKeyId: text('api_key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    companyId: companyId(),
    requestHash: text('request_hash').notNull(),
    /** The envelope the answer made, so a replay can show it as it is now (a voided one has no links). */
    envelopeId: text('envelope_id').references(() => envelopes.id, { onDelete: 'cascade' }),
    statusCode: integer('status_code').notNull(),
    body: jsonb('body').$type<unknown>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('idempotency_records_key').on(t.apiKeyId, t.key)],
);

/**
 * The transactional outbox: one row per side effect of a state change (an e-mail, a webhook
 * dispatch, a timer), written in the same batch as the change. Rows are handed to the queue after
 * the commit and marked relayed; a sweeper hands over what a crashed request left. The row id is
 * the queue's deduplication id, so relaying a row twice is harmless.
 */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: text('id').primaryKey(),
    companyId: companyId(),
    topic: text('topic').notNull(),
    body: jsonb('body').$type<Record<string, unknown>>().notNull(),
    /** Not to be delivered before this instant; null means at once. */
    dueAt: timestamp('due_at', { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
    relayedAt: timestamp('relayed_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [index('outbox_messages_unrelayed').on(t.createdAt).where(sql`${t.relayedAt} is null`)],
);

/**
 * The embedded server's queue (npm start): each message is a row from before its first attempt
 * until its consumer has succeeded, so a message due now, a pending reminder, an expiry or a retry
 * all outlive a restart, and a long wait holds no timer. Production hands its messages to QStash
 * instead and leaves this table empty.
 */
export const queuedMessages = pgTable(
  'queued_messages',
  {
    /** The message's deduplication id, or one of its own. */
    id: text('id').primaryKey(),
    /** Whose queue: each server's own name, so that servers sharing a database keep their messages apart. */
    queue: text('queue').notNull(),
    topic: text('topic').notNull(),
    body: jsonb('body').$type<Record<string, unknown>>().notNull(),
    dueAt: timestamp('due_at', { withTimezone: true, precision: 3 }).notNull(),
    /**
     * Deliveries started so far, counted as each starts: one cut short by a stopped process
     * counts too, so a job that brings the process down cannot run at every start for ever.
     */
    attempt: integer('attempt').notNull().default(0),
    /** Why the last attempt failed: kept for the dead job's record. */
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [index('queued_messages_due').on(t.queue, t.dueAt)],
);

/**
 * Queue jobs that failed every attempt, kept instead of dropped: on `npm start` the embedded queue
 * moves a message here from `queued_messages`; in production the QStash callback records the last
 * retry's failure. An operator lists them and hands one back to the queue (admin API).
 */
export const deadJobs = pgTable(
  'dead_jobs',
  {
    /** The message's id in its queue (QStash's message id in production). */
    id: text('id').primaryKey(),
    topic: text('topic').notNull(),
    body: jsonb('body').$type<Record<string, unknown>>().notNull(),
    attempts: integer('attempts').notNull(),
    /** The last failure, bounded; messages carry ids only, so this names no secret. */
    lastError: text('last_error').notNull(),
    failedAt: timestamp('failed_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index('dead_jobs_failed').on(t.failedAt)],
);

/**
 * The links the company application e-mails to sign in: one per request, for an address that is an
 * active user of at least one company. Only the SHA-256 of the link's token is kept; the link is
 * spent once (`used_at`), within 15 minutes. Kept by address, not by user: the person chooses the
 * company once the link is spent.
 */
export const signInLinks = pgTable(
  'sign_in_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** SHA-256 (base64url) of the token in the link. */
    tokenHash: text('token_hash').notNull(),
    /** The address as asked for, lower-cased: the users it may sign in as. */
    email: text('email').notNull(),
    /**
     * An invitation's link signs in as the one user it was made for, in that company; a link asked
     * for on the sign-in page has none and may sign in as any active user with the address.
     */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [uniqueIndex('sign_in_links_token').on(t.tokenHash), index('sign_in_links_expiry').on(t.expiresAt)],
);

/**
 * A person signed in to the company application. The cookie holds a random id; only its SHA-256 is
 * kept. Until the person chooses a company (an address that is a user of several) `user_id` is
 * null. `role` is the user's role when the session began with that user: a change of role ends the
 * session on the next request. No reference to `users`: a removed user's session must still be
 * found, to be ended and recorded as such.
 */
export const appSessions = pgTable(
  'app_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** SHA-256 (base64url) of the id in the cookie. */
    secretHash: text('secret_hash').notNull(),
    email: text('email').notNull(),
    userId: uuid('user_id'),
    companyId: uuid('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    role: text('role').$type<UserRole>(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [uniqueIndex('app_sessions_secret').on(t.secretHash), index('app_sessions_user').on(t.userId)],
);
