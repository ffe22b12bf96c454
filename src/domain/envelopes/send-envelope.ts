/**
 * POST /v1/envelopes/from-template: create the envelope from a template and send it, atomically.
 *
 * On the request path a send costs three sequential network waves, in the plain order: its reads
 * (made while the caller's key is checked); then, once they passed validation, its admission by the
 * send limits (rate limit, Idempotency-Key claim and quota in one Redis step); then one write batch.
 * Nothing is taken before the reads succeed, so a refused send has nothing to give back. The batch
 * holds the envelope and every side effect as outbox rows, so once it commits the send has
 * happened: its e-mails, webhook event, reminders and expiry will go out, relayed after the answer
 * (or by the sweeper, should this request die first). Before it commits, nothing exists anywhere;
 * a write that fails gives back what the admission took.
 */
import { type SQLWrapper, sql } from 'drizzle-orm';
import { auditEvents, envelopeFields, envelopes, recipients, webhookEvents } from '../../data/schema.js';
import type { Db } from '../../data/database.js';
import { isUniqueViolation } from '../../data/errors.js';
import { insertRows } from '../../data/insert-rows.js';
import { DomainError, validationFailed } from '../../errors.js';
import { randomBase62 } from '../../lib/crypto.js';
import { outboxInsert } from '../../outbox/outbox.js';
import type { Services } from '../../services.js';
import type { ApiKeyContext } from '../auth/api-key-context.js';
import type { Principal } from '../auth/principal.js';
import { unavailable } from '../shared/unavailable.js';
import { committed } from '../verb-context.js';
import { templateNotFound } from '../templates/get-template.js';
import { type Envelope, sentEventData, withLinks, withoutLinks } from './envelope-answer.js';
import { envelopeFollowUps } from './follow-ups.js';
import { type Earlier, keyReused, liveRecord, readEarlier, recordAnswer, requestHash, requestInProgress } from './idempotency.js';
import type { SendContext } from './load-send-context.js';
import { duplicateRoleIssues, type EnvelopeRecipient, resolveRecipients } from './resolve-recipients.js';
import { countSend, takeAdmission, type RateReport, releaseAdmission } from './send-admission.js';
import type { SendRequest } from './send-request.js';
import { signingLinkEntries } from './signing-links.js';

export type { Envelope };

export type SendOutcome = {
  envelope: Envelope;
  /** True when this repeats the answer of an earlier send with the same Idempotency-Key. */
  replayed: boolean;
};

const DAY_MS = 24 * 3600 * 1000;

export type SendInput = {
  request: SendRequest;
  /** What the send's reads found (loadSendContext), made while the key was checked. */
  context: SendContext;
  idempotencyKey?: string | undefined;
  /** Told the send rate limit's decision as soon as it is known, whatever the answer. */
  reportRate: RateReport;
};

export async function sendEnvelope(ctx: ApiKeyContext, input: SendInput): Promise<SendOutcome> {
  const { request, context, idempotencyKey, reportRate } = input;
  const { services, now } = ctx;
  const { principal } = ctx.actor;
  const scope = { companyId: principal.companyId, apiKeyId: principal.apiKeyId };
  const hash = idempotencyKey ? await requestHash(request) : '';

  const earlier = liveRecord(context.earlier, now);
  if (idempotencyKey && earlier) {
    await countSend(services, scope, now, reportRate);
    if (earlier.requestHash !== hash) throw keyReused(idempotencyKey);
    return replay(earlier, services, now);
  }

  let valid: ReturnType<typeof validate>;
  try {
    valid = validate(principal, request, context, { textMessages: services.sms !== undefined });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return countSend(services, scope, now, reportRate, err) as Promise<never>;
  }
  const { template, company, sender, envelopeRecipients } = valid;

  const claim = idempotencyKey ? { key: idempotencyKey, requestHash: hash } : undefined;
  const admitted = await takeAdmission(services, scope, { allowance: company.allowance, claim }, now, reportRate);
  if ('heldFor' in admitted) {
    // Only a send with a key claims it, so only such a send finds its key held by a twin.
    const key = idempotencyKey as string;
    if (admitted.heldFor !== hash) throw keyReused(key);
    return awaitFirstAnswer(ctx, key, hash);
  }

  const envelopeId = `env_${randomBase62(22)}`;
  const withIds = envelopeRecipients.map((recipient) => ({ ...recipient, id: `rcp_${randomBase62(22)}` }));
  const envelope: Envelope = {
    envelope_id: envelopeId,
    status: 'sent',
    title: request.title ?? template.name,
    sender: { email: sender.email },
    recipients: request.recipients.map(({ role, name, email }) => ({ role, name, email })),
    signing_urls: template.shareSigningLinks ? await signingLinkEntries(services.config, envelopeId, withIds) : null,
    created_at: now.toISOString(),
  };
  const eventId = `msg_${randomBase62(24)}`;
  const outbox = envelopeFollowUps({ envelopeId, eventId, template, recipients: withIds, now });

  try {
    const { database } = services;
    const writes = (q: Db) => [
      q.insert(envelopes).values({
        id: envelopeId,
        companyId: principal.companyId,
        templateId: template.id,
        templateVersion: template.version,
        apiKeyId: principal.apiKeyId,
        senderUserId: sender.id,
        senderEmail: sender.email,
        title: envelope.title,
        emailSubject: request.email_subject ?? template.emailSubject ?? `Please sign: ${envelope.title}`,
        emailMessage: request.email_message ?? template.emailMessage ?? company.defaultEmailMessage ?? null,
        status: 'sent',
        signingOrder: template.signingOrder,
        shareSigningLinks: template.shareSigningLinks,
        reminders: template.reminders ?? null,
        expiresAt: template.expiryDays ? new Date(now.getTime() + template.expiryDays * DAY_MS) : null,
        documentSha256: valid.documentSha256,
        createdAt: now,
      }),
      insertRows(
        q,
        recipients,
        withIds.map((recipient) => recipientRow(recipient, principal.companyId, envelopeId)),
      ),
      ...copyTemplateFields(q, { companyId: principal.companyId, envelopeId, templateId: template.id, version: template.version, recipients: withIds }),
      q.insert(auditEvents).values({
        companyId: principal.companyId,
        envelopeId,
        kind: 'envelope.sent',
        actorType: 'api_key',
        actorId: principal.apiKeyId,
        data: {
          template_id: template.id,
          template_version: template.version,
          sender_email: sender.email,
          recipients: withIds.map(({ id, role, email }) => ({ id, role, email })),
        },
        createdAt: now,
      }),
      q.insert(webhookEvents).values({
        id: eventId,
        companyId: principal.companyId,
        envelopeId,
        kind: 'envelope.sent',
        payload: sentEventData(envelope, withIds, now),
        createdAt: now,
      }),
      ...outboxInsert(q, principal.companyId, outbox, now),
      ...(idempotencyKey
        ? recordAnswer(q, {
            apiKeyId: principal.apiKeyId,
            key: idempotencyKey,
            companyId: principal.companyId,
            requestHash: hash,
            envelopeId,
            statusCode: 201,
            body: withoutLinks(envelope),
            at: now,
          })
        : []),
    ];
    // Without an Idempotency-Key the whole send is one statement; with one, the record's expired
    // predecessor is deleted before its successor is inserted, which one statement cannot do.
    if (idempotencyKey) await database.atomic(writes);
    else await database.writeAsOne((q) => writes(q) as unknown as SQLWrapper[]);
  } catch (err) {
    await releaseAdmission(services, admitted.release);
    // The key's claim had lapsed and a twin committed first: answer as it did.
    if (idempotencyKey && isUniqueViolation(err)) return awaitFirstAnswer(ctx, idempotencyKey, hash);
    throw unavailable(err);
  }
  committed(ctx, outbox);
  return { envelope, replayed: false };
}

/** The checks that need the template: refused before the send may take anything. */
function validate(principal: Principal, request: SendRequest, context: SendContext, can: { textMessages: boolean }) {
  const duplicates = duplicateRoleIssues(request.recipients);
  if (duplicates.length > 0) throw validationFailed(duplicates, 'Each role may have one recipient only.');
  const { template, company, documentSha256 } = context;
  if (!template || !documentSha256 || !company) throw templateNotFound(request.template_id);
  const envelopeRecipients = resolveRecipients(context.roles, request.recipients, company.textMessageCountries);
  if (!can.textMessages) refuseTextMessageRoles(request, envelopeRecipients);
  const sender = request.sender_email ? context.sender : principal.owner;
  if (!sender?.active || !sender.esignSeat) {
    throw new DomainError('sender_not_found', 'The sender must be an active user of the company with an e-signing seat.', {
      sender_email: request.sender_email ?? principal.owner.email,
    });
  }
  return { template, company, documentSha256, sender, envelopeRecipients };
}

/**
 * Without a text-message provider (TWILIO_* unset) a code could never reach a signer of an
 * `sms_code` role: the send is refused at once, naming the role, rather than leaving them locked out.
 */
function refuseTextMessageRoles(request: SendRequest, envelopeRecipients: EnvelopeRecipient[]) {
  const issues = envelopeRecipients
    .filter((recipient) => recipient.verification === 'sms_code')
    .map((recipient) => ({
      path: `recipients[${request.recipients.findIndex((given) => given.role === recipient.role)}].role`,
      message: `The role ${recipient.role} sends its signer a code by text message, and this service has no text-message provider configured (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM).`,
    }));
  if (issues.length > 0) throw validationFailed(issues, 'Text messages are not configured on this service.');
}

/** The first answer again, showing the envelope as it is now: links only while it can be signed. */
async function replay(earlier: Earlier, services: Services, now: Date): Promise<SendOutcome> {
  const live = earlier.envelopeStatus === 'sent' && !(earlier.envelopeExpiresAt && earlier.envelopeExpiresAt <= now);
  const envelope = await withLinks(services, earlier.body as Envelope, live);
  return { envelope, replayed: true };
}

const TWIN_WAIT_MS = 3000;
const TWIN_POLL_MS = 100;

/**
 * A twin of a send still running waits, for a bounded time, for the first answer to be recorded,
 * and repeats it; if it is not there in time, the caller is told to retry shortly.
 */
async function awaitFirstAnswer({ services, actor, now }: ApiKeyContext, key: string, hash: string): Promise<SendOutcome> {
  const deadline = Date.now() + TWIN_WAIT_MS;
  for (;;) {
    const earlier = liveRecord(await readEarlier(services.database.db, actor.principal.apiKeyId, key).catch(() => undefined), now);
    if (earlier) {
      if (earlier.requestHash !== hash) throw keyReused(key);
      return replay(earlier, services, now);
    }
    if (Date.now() >= deadline) throw requestInProgress(key);
    await new Promise((resolve) => setTimeout(resolve, TWIN_POLL_MS));
  }
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
    verification: recipient.verification,
    status: 'sent' as const,
  };
}

/**
 * The field layout of the template's version the send read, copied onto the envelope (so later versions do not move it)
 * inside the database, as one INSERT … SELECT: each field goes to the recipient of its role.
 */
function copyTemplateFields(
  q: Db,
  to: { companyId: string; envelopeId: string; templateId: string; version: number; recipients: { roleId: string; id: string }[] },
) {
  if (to.recipients.length === 0) return [];
  const recipientOfRole = sql.join(
    to.recipients.map((recipient) => sql`when ${recipient.roleId}::uuid then ${recipient.id}`),
    sql` `,
  );
  return [
    q.insert(envelopeFields).select(sql`
    select gen_random_uuid(), ${to.companyId}::uuid, ${to.envelopeId}, case f.role_id ${recipientOfRole} end,
      f.type, f.label, f.page, f.x, f.y, f.width, f.height, f.required, null, f.settings
    from template_fields f
    where f.template_id = ${to.templateId} and f.version = ${to.version} and f.company_id = ${to.companyId}
      and f.role_id in (${sql.join(
        to.recipients.map((recipient) => sql`${recipient.roleId}::uuid`),
        sql`, `,
      )})`),
  ];
}
