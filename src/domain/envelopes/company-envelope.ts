/**
 * One envelope of a company as its people see it in the application: its recipients with the time
 * of each step (sent, viewed, verified, signed, declined), its audit trail oldest first, and what
 * may be done with it now. Read in one wave, every query scoped to the company: another company's
 * envelope is not found, as an unknown one is.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { AuditKind } from '../../data/event-kinds.js';
import { auditEvents, type EnvelopeStatus, envelopes, type RecipientStatus, recipients, templates, templateVersions, users } from '../../data/schema.js';
import { isEnvelopeId } from '../../lib/ids.js';
import type { CompanyReadContext } from '../read-context.js';
import { isWaiting } from '../shared/waiting-recipients.js';
import { envelopeNotFound } from './envelope-not-found.js';
import { whoseTurn } from './whose-turn.js';

/**
 * The most rows of the trail a page shows. An ordinary trail is a few dozen rows; past the first ten
 * of a kind a signer's repeats are counted on one row, so this bound is met only by a trail an older
 * version let grow, whose whole stays in the admin API's pages.
 */
export const TIMELINE_ROWS = 300;

export type RecipientProgress = {
  id: string;
  name: string;
  email: string;
  role: string;
  type: 'signer' | 'cc';
  order: number;
  state: RecipientStatus;
  /** When they were e-mailed: the request to sign, or for a copy-only recipient the finished PDF. */
  sentAt: Date | null;
  viewedAt: Date | null;
  verifiedAt: Date | null;
  signedAt: Date | null;
  declinedAt: Date | null;
  /** When someone of the company last reminded them by hand. */
  remindedAt: Date | null;
  /** A signer still to act whose turn it is, on an envelope still out. */
  turn: boolean;
};

export type TimelineEntry = {
  id: string;
  kind: AuditKind;
  actorType: string;
  actorId: string | null;
  actorName: string | null;
  data: Record<string, unknown>;
  at: Date;
};

export type CompanyEnvelope = {
  id: string;
  title: string;
  state: EnvelopeStatus;
  template: string | null;
  sender: { userId: string; name: string | null; email: string };
  sentAt: Date;
  completedAt: Date | null;
  voidedAt: Date | null;
  expiresAt: Date | null;
  /** The finished PDF is in the store: it may be downloaded. */
  documentReady: boolean;
  recipients: RecipientProgress[];
  timeline: TimelineEntry[];
  /** More rows than the timeline shows. */
  timelineCut: boolean;
};

const recipientOf = (data: Record<string, unknown>, actorId: string | null) => (typeof data.recipient_id === 'string' ? data.recipient_id : actorId);

export async function companyEnvelope({ services, companyId, now }: CompanyReadContext, { envelopeId }: { envelopeId: string }): Promise<CompanyEnvelope> {
  if (!isEnvelopeId(envelopeId)) throw envelopeNotFound(envelopeId);
  const { db } = services.database;
  const [[envelope], recipientRows, auditRows] = await Promise.all([
    db
      .select({
        id: envelopes.id,
        title: envelopes.title,
        state: envelopes.status,
        // The name of the version it was sent with, as its signers saw it; a later rename does not change it.
        template: sql<string | null>`coalesce(${templateVersions.name}, ${templates.name})`,
        senderUserId: envelopes.senderUserId,
        senderName: users.name,
        senderEmail: envelopes.senderEmail,
        signingOrder: envelopes.signingOrder,
        sentAt: envelopes.createdAt,
        completedAt: envelopes.completedAt,
        voidedAt: envelopes.voidedAt,
        expiresAt: envelopes.expiresAt,
        signedDocumentSha256: envelopes.signedDocumentSha256,
      })
      .from(envelopes)
      .leftJoin(templates, eq(templates.id, envelopes.templateId))
      .leftJoin(templateVersions, and(eq(templateVersions.templateId, envelopes.templateId), eq(templateVersions.version, envelopes.templateVersion)))
      .leftJoin(users, eq(users.id, envelopes.senderUserId))
      .where(and(eq(envelopes.id, envelopeId), eq(envelopes.companyId, companyId)))
      .limit(1),
    db
      .select({
        id: recipients.id,
        name: recipients.name,
        email: recipients.email,
        role: recipients.role,
        type: recipients.type,
        order: recipients.order,
        state: recipients.status,
        viewedAt: recipients.viewedAt,
        signedAt: recipients.signedAt,
        declinedAt: recipients.declinedAt,
      })
      .from(recipients)
      .where(and(eq(recipients.envelopeId, envelopeId), eq(recipients.companyId, companyId)))
      .orderBy(asc(recipients.position)),
    db
      .select({
        id: auditEvents.id,
        kind: auditEvents.kind,
        actorType: auditEvents.actorType,
        actorId: auditEvents.actorId,
        actorName: users.name,
        data: auditEvents.data,
        at: auditEvents.createdAt,
      })
      .from(auditEvents)
      // A user's name for the rows a user wrote (actor_id is text: a user's uuid, a key's or a recipient's id).
      .leftJoin(users, and(eq(auditEvents.actorType, 'user'), eq(users.companyId, companyId), eq(sql`${users.id}::text`, auditEvents.actorId)))
      .where(and(eq(auditEvents.envelopeId, envelopeId), eq(auditEvents.companyId, companyId)))
      .orderBy(asc(auditEvents.createdAt), asc(auditEvents.seq))
      .limit(TIMELINE_ROWS + 1),
  ]);
  if (!envelope) throw envelopeNotFound(envelopeId);
  const timeline = auditRows.slice(0, TIMELINE_ROWS);

  const firstOf = (kind: AuditKind, recipientId: string, also: (data: Record<string, unknown>) => boolean = () => true) =>
    timeline.find((row) => row.kind === kind && recipientOf(row.data, row.actorId) === recipientId && also(row.data))?.at ?? null;
  const lastOf = (kind: AuditKind, recipientId: string) =>
    timeline.findLast((row) => row.kind === kind && recipientOf(row.data, row.actorId) === recipientId)?.at ?? null;

  const documentReadyAt = timeline.find((row) => row.kind === 'envelope.document_ready')?.at ?? null;
  const out = envelope.state === 'sent' && (!envelope.expiresAt || envelope.expiresAt > now);
  const turn = new Set(
    out
      ? whoseTurn(
          recipientRows.filter((r) => r.type === 'signer' && isWaiting(r.state)),
          envelope.signingOrder,
        ).map((r) => r.id)
      : [],
  );
  return {
    id: envelope.id,
    title: envelope.title,
    state: envelope.state,
    template: envelope.template,
    sender: { userId: envelope.senderUserId, name: envelope.senderName, email: envelope.senderEmail },
    sentAt: envelope.sentAt,
    completedAt: envelope.completedAt,
    voidedAt: envelope.voidedAt,
    expiresAt: envelope.expiresAt,
    documentReady: envelope.state === 'completed' && envelope.signedDocumentSha256 !== null,
    recipients: recipientRows.map((r) => ({
      ...r,
      // A copy-only recipient gets no request to sign: their one e-mail is the finished PDF's,
      // sent to every recipient when the document is ready, as the trail's row of it says.
      sentAt: r.type === 'cc' ? documentReadyAt : firstOf('recipient.emailed', r.id, (data) => data.reminder !== true),
      verifiedAt: firstOf('recipient.verified', r.id),
      remindedAt: lastOf('recipient.reminded', r.id),
      turn: turn.has(r.id),
    })),
    timeline,
    timelineCut: auditRows.length > TIMELINE_ROWS,
  };
}
