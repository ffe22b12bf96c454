/**
 * POST /v1/envelopes/from-template: create the envelope from a template and send it, atomically.
 *
 * On the request path a send costs two sequential database round trips and one Redis round trip:
 * one wave of parallel reads (made while the caller's key is checked), one Redis pipeline (the
 * send rate limit and the quota, together), one write batch; then the queue hand-off. A failure at
 * any step leaves nothing: the quota is given back, and an envelope already written is deleted
 * before any of its follow-ups can go out, since they are only handed over after the write.
 */
import { and, eq } from 'drizzle-orm';
import { auditEvents, envelopeFields, envelopes, idempotencyRecords, recipients, webhookEvents } from '../../data/schema.js';
import { isUniqueViolation } from '../../data/errors.js';
import { ApiError, validationFailed } from '../../errors.js';
import { randomBase62 } from '../../lib/crypto.js';
import { unavailable } from '../shared/unavailable.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { placementOf } from '../templates/field-placement.js';
import { templateNotFound } from '../templates/get-template.js';
import { type Envelope, sentEventData, withLinks, withoutLinks } from './envelope-answer.js';
import { envelopeFollowUps } from './follow-ups.js';
import { recordAnswer, replayOf, requestHash } from './idempotency.js';
import { loadSendContext, type SendContext } from './load-send-context.js';
import { duplicateRoleIssues, type EnvelopeRecipient, resolveRecipients } from './resolve-recipients.js';
import { takeSendAllowance } from './send-allowance.js';
import type { SendRequest } from './send-request.js';
import { signingLinkEntries } from './signing-links.js';

export type { Envelope };

export type SendAnswer = { status: 201; body: Envelope; headers: Record<string, string> };

const DAY_MS = 24 * 3600 * 1000;

export async function sendEnvelope(
  services: Services,
  principal: Principal,
  request: SendRequest,
  context: SendContext,
  idempotencyKey?: string,
): Promise<SendAnswer> {
  const now = services.clock.now();
  const hash = idempotencyKey ? await requestHash(request) : '';
  const replay = replayOf(context.earlier, hash, now);
  if (replay) return { status: 201, body: await withLinks(services, replay.body as Envelope), headers: { 'Idempotent-Replayed': 'true' } };

  const duplicates = duplicateRoleIssues(request.recipients);
  if (duplicates.length > 0) throw validationFailed(duplicates, 'Each role may have one recipient only.');
  const { template, company } = context;
  if (!template || !context.documentSha256 || !company) throw templateNotFound(request.template_id);
  const envelopeRecipients = resolveRecipients(context.roles, request.recipients);
  const sender = request.sender_email ? context.sender : principal.owner;
  if (!sender || !sender.active || !sender.esignSeat) {
    throw new ApiError('sender_not_found', 'The sender must be an active user of the company with an e-signing seat.', {
      sender_email: request.sender_email ?? principal.owner.email,
    });
  }

  const limits = await takeSendAllowance(services, principal, company.allowance, now);

  const envelopeId = `env_${randomBase62(22)}`;
  const withIds = envelopeRecipients.map((recipient) => ({ ...recipient, id: `rcp_${randomBase62(22)}` }));
  const emailMessage = request.email_message ?? template.emailMessage ?? company.defaultEmailMessage ?? null;
  const body: Envelope = {
    envelope_id: envelopeId,
    status: 'sent',
    title: request.title ?? template.name,
    sender: { email: sender.email },
    recipients: request.recipients.map(({ role, name, email }) => ({ role, name, email })),
    signing_urls: template.shareSigningLinks ? await signingLinkEntries(services.config, envelopeId, withIds) : null,
    created_at: now.toISOString(),
  };
  const eventId = `msg_${randomBase62(24)}`;

  try {
    await services.database.atomic((q) => [
      q.insert(envelopes).values({
        id: envelopeId,
        companyId: principal.companyId,
        templateId: template.id,
        apiKeyId: principal.apiKeyId,
        senderUserId: sender.id,
        senderEmail: sender.email,
        title: body.title,
        emailSubject: request.email_subject ?? template.emailSubject ?? `Please sign: ${body.title}`,
        emailMessage,
        status: 'sent',
        signingOrder: template.signingOrder,
        shareSigningLinks: template.shareSigningLinks,
        reminders: template.reminders ?? null,
        expiresAt: template.expiryDays ? new Date(now.getTime() + template.expiryDays * DAY_MS) : null,
        documentSha256: context.documentSha256!,
        createdAt: now,
      }),
      q.insert(recipients).values(withIds.map((recipient) => recipientRow(recipient, principal.companyId, envelopeId))),
      ...fieldRows(q, context, withIds, principal.companyId, envelopeId),
      q.insert(auditEvents).values({
        companyId: principal.companyId,
        envelopeId,
        kind: 'envelope.sent',
        actorType: 'api_key',
        actorId: principal.apiKeyId,
        data: { template_id: template.id, sender_email: sender.email, recipients: withIds.map(({ id, role, email }) => ({ id, role, email })) },
        createdAt: now,
      }),
      q.insert(webhookEvents).values({
        id: eventId,
        companyId: principal.companyId,
        envelopeId,
        kind: 'envelope.sent',
        payload: sentEventData(body, withIds),
        createdAt: now,
      }),
      ...(idempotencyKey
        ? recordAnswer(q, {
            apiKeyId: principal.apiKeyId,
            key: idempotencyKey,
            companyId: principal.companyId,
            requestHash: hash,
            statusCode: 201,
            body: withoutLinks(body),
            at: now,
          })
        : []),
    ]);
  } catch (err) {
    await limits.giveBack();
    // The same Idempotency-Key won by a concurrent twin: answer as it did.
    if (idempotencyKey && isUniqueViolation(err)) return replayWinner(services, principal, request, idempotencyKey);
    throw unavailable(err);
  }

  try {
    await services.queue.publish(envelopeFollowUps({ envelopeId, eventId, template, recipients: withIds, now }));
  } catch (err) {
    // Nothing was handed over, so nothing has gone out: take the envelope back as if never sent,
    // with the recorded answer, so that a retry with the same Idempotency-Key sends afresh.
    await services.database
      .atomic((q) => [
        q.delete(envelopes).where(eq(envelopes.id, envelopeId)),
        ...(idempotencyKey
          ? [q.delete(idempotencyRecords).where(and(eq(idempotencyRecords.apiKeyId, principal.apiKeyId), eq(idempotencyRecords.key, idempotencyKey)))]
          : []),
      ])
      .catch(() => undefined);
    await limits.giveBack();
    throw unavailable(err);
  }
  return { status: 201, body, headers: limits.headers };
}

function recipientRow(recipient: EnvelopeRecipient & { id: string }, companyId: string, envelopeId: string) {
  return {
    id: recipient.id,
    companyId,
    envelopeId,
    role: recipient.role,
    type: recipient.type,
    order: recipient.order,
    position: recipient.position,
    name: recipient.name,
    email: recipient.email,
    contactNumber: recipient.contactNumber,
    status: 'sent' as const,
  };
}

/** The template's field layout, copied onto the envelope so later template edits do not move it. */
function fieldRows(q: Parameters<Parameters<Services['database']['atomic']>[0]>[0], context: SendContext, withIds: (EnvelopeRecipient & { id: string })[], companyId: string, envelopeId: string) {
  const recipientOfRole = new Map(withIds.map((recipient) => [recipient.roleId, recipient.id]));
  const rows = context.fields
    .filter((field) => recipientOfRole.has(field.roleId))
    .map((field) => ({
      companyId,
      envelopeId,
      recipientId: recipientOfRole.get(field.roleId)!,
      ...placementOf(field),
    }));
  return rows.length > 0 ? [q.insert(envelopeFields).values(rows)] : [];
}

async function replayWinner(services: Services, principal: Principal, request: SendRequest, key: string): Promise<SendAnswer> {
  const context = await loadSendContext(services.database.db, principal, request, key);
  const replay = replayOf(context.earlier, await requestHash(request), services.clock.now());
  if (!replay) throw unavailable(new Error('idempotency record vanished'));
  return { status: 201, body: await withLinks(services, replay.body as Envelope), headers: { 'Idempotent-Replayed': 'true' } };
}
