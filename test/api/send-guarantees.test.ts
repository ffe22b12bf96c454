/**
 * What a send promises at its edges: once committed it happens (the outbox relays it, or the
 * sweeper does), Idempotency-Key twins get one envelope and no spurious 402, a replay shows the
 * envelope as it is now, refused sends count against the send limit, and nothing is taken before
 * the send's reads pass.
 *
 * One file although long: the guarantees of one send at its edges, each step failed on purpose
 * over one stack.
 */
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { revokeApiKey } from '../../src/domain/auth/manage-api-keys.js';
import { putUser } from '../../src/domain/users/put-user.js';
import { companies, envelopes, outboxMessages } from '../../src/data/schema.js';
import { housekeeping } from '../../src/outbox/housekeeping.js';
import { SWEEP_GRACE_MS } from '../../src/outbox/outbox.js';
import { quotaPeriod } from '../../src/ports/send-limits.js';
import { ADMIN_TOKEN } from '../support/stack.js';
import { type Answer, call, errorCode } from '../support/http.js';
import { addKeyHolder, asOperator, createTestCompany, createTestTemplate } from '../support/factories.js';
import { expectErrorLogs } from '../support/expected-errors.js';
import { failNextSendWrite } from '../support/failing-writes.js';
import { openStack, type TestStack } from '../support/stack.js';
import { refuseNextRelay } from '../support/queue-hand-over.js';
import { drained } from '../support/drained.js';
import { expectError } from '../support/expect-error.js';
import { unique } from '../support/unique.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await openStack();
});
afterAll(() => stack.close());
const { expectLogged } = expectErrorLogs();

const SEND = '/v1/envelopes/from-template';

async function companyWithTemplate(quota = 100) {
  const company = await createTestCompany(stack, { quota });
  const template = await createTestTemplate(stack, company.id);
  const body = () => {
    const tag = unique();
    return {
      template_id: template.id,
      recipients: [
        { role: 'Client', name: 'Cleo Client', email: `client-${tag}@example.test` },
        { role: 'Witness', name: 'Walt Witness', email: `witness-${tag}@example.test` },
      ],
    };
  };
  return { company, template, body };
}

const send = (token: string, body: unknown, key?: string) => call(stack, 'POST', SEND, { token, body, headers: key ? { 'Idempotency-Key': key } : {} });
const quotaUsed = (companyId: string) => stack.services.sendLimits.used(companyId, quotaPeriod(stack.clock.now()));
const mailTo = (email: string) => stack.services.mailbox.list().filter((mail) => mail.to.email === email);
const envelopesOf = (companyId: string) => stack.services.database.db.select().from(envelopes).where(eq(envelopes.companyId, companyId));
const unrelayed = (companyId: string) =>
  stack.services.database.db
    .select()
    .from(outboxMessages)
    .where(and(eq(outboxMessages.companyId, companyId), isNull(outboxMessages.relayedAt)));

/** Runs the sweeper as the cron trigger would, once the grace period of a request's own relay is over. */
async function sweepLater() {
  stack.clock.advance(SWEEP_GRACE_MS + 1000);
  try {
    return await housekeeping(stack.services);
  } finally {
    stack.clock.advance(-(SWEEP_GRACE_MS + 1000));
  }
}

describe('the transactional outbox', () => {
  it('writes every side effect with the envelope and relays it after the answer', async () => {
    const { company, body } = await companyWithTemplate();
    const request = body();
    const answer = await send(company.owner.token, request);
    expect(answer.status).toBe(201);
    const rows = await stack.services.database.db.select().from(outboxMessages).where(eq(outboxMessages.companyId, company.id));
    // Sequential NDA: the first signer's e-mail, the webhook dispatch, the first reminder, the expiry.
    expect(rows.map((row) => row.topic).sort()).toEqual(['email.signing-request', 'envelope.expire', 'envelope.remind', 'webhook.dispatch']);
    expect(JSON.stringify(rows)).not.toContain('/sign/');
    await vi.waitFor(async () => expect(await unrelayed(company.id)).toEqual([]));
    await vi.waitFor(() => expect(mailTo(request.recipients[0]!.email)).toHaveLength(1));
  });

  it('answers 201 when the queue refuses after the commit; the sweeper delivers everything, once', async () => {
    const { company, body } = await companyWithTemplate(5);
    const request = body();
    // The queue is down for the request's own relay: as if the process died after the commit.
    expectLogged(/^outbox relay failed; the sweeper will hand the messages over Error: queue unreachable/);
    const spy = refuseNextRelay(stack.services.queue, new Error('queue unreachable'));
    let answer: Answer;
    try {
      answer = await send(company.owner.token, request);
      await vi.waitFor(() => expect(spy).toHaveBeenCalled());
    } finally {
      spy.mockRestore();
    }
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.envelope_id).toMatch(/^env_/);
    expect(await envelopesOf(company.id)).toHaveLength(1);
    expect(await quotaUsed(company.id)).toBe(1);
    await drained(stack);
    expect(mailTo(request.recipients[0]!.email)).toEqual([]);
    expect(await unrelayed(company.id)).toHaveLength(4);

    // Younger rows are left to their own request.
    expect((await housekeeping(stack.services)).relayed).toBe(0);
    expect((await sweepLater()).relayed).toBeGreaterThanOrEqual(4);
    expect(await unrelayed(company.id)).toEqual([]);
    await vi.waitFor(() => expect(mailTo(request.recipients[0]!.email)).toHaveLength(1));
    // Swept again, nothing goes out twice.
    await sweepLater();
    await drained(stack);
    expect(mailTo(request.recipients[0]!.email)).toHaveLength(1);
    expect(await quotaUsed(company.id)).toBe(1);
  });

  it('gives a twin of a send whose relay failed the same envelope, which stays', async () => {
    const { company, body } = await companyWithTemplate(5);
    const request = body();
    const key = `order-${unique()}`;
    expectLogged(/^outbox relay failed; the sweeper will hand the messages over Error: queue unreachable/);
    const spy = refuseNextRelay(stack.services.queue, new Error('queue unreachable'));
    let first: Answer;
    let twin: Answer;
    try {
      [first, twin] = await Promise.all([send(company.owner.token, request, key), send(company.owner.token, request, key)]);
      // The relay runs after the answer: the refusal stays armed until it has been met.
      await vi.waitFor(() => expect(spy).toHaveBeenCalled());
    } finally {
      spy.mockRestore();
    }
    expect([first.status, twin.status]).toEqual([201, 201]);
    expect(twin.body.envelope_id).toBe(first.body.envelope_id);
    await sweepLater();
    const [row] = await envelopesOf(company.id);
    expect(row?.id).toBe(first.body.envelope_id);
    expect(row?.status).toBe('sent');
    await vi.waitFor(() => expect(mailTo(request.recipients[0]!.email)).toHaveLength(1));
    expect(await quotaUsed(company.id)).toBe(1);
  });

  it('voids in one batch: status, audit row, event and its dispatch, relayed once', async () => {
    const { company, body } = await companyWithTemplate();
    const sent = await send(company.owner.token, body());
    const voided = await call(stack, 'POST', `/admin/v1/envelopes/${sent.body.envelope_id}/void`, { token: ADMIN_TOKEN, body: { reason: 'wrong party' } });
    expect(voided.status).toBe(200);
    const dispatch = await stack.services.database.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.id, `msg_voided_${sent.body.envelope_id}`));
    expect(dispatch).toHaveLength(1);
    expect(dispatch[0]!.topic).toBe('webhook.dispatch');
    await vi.waitFor(async () => expect(await unrelayed(company.id)).toEqual([]));
  });
});

describe('Idempotency-Key under races', () => {
  it('gives 10 parallel same-key sends with one quota unit one envelope and no 402', async () => {
    const { company, body } = await companyWithTemplate(1);
    const request = body();
    const key = `order-${unique()}`;
    const answers = await Promise.all(Array.from({ length: 10 }, () => send(company.owner.token, request, key)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((answer) => answer.body.envelope_id)).size).toBe(1);
    expect(answers.filter((answer) => answer.headers.get('Idempotent-Replayed') === 'true')).toHaveLength(9);
    expect(await envelopesOf(company.id)).toHaveLength(1);
    expect(await quotaUsed(company.id)).toBe(1);
  });

  it('refuses same-key twins with different bodies with 422 idempotency_key_reused, not 402', async () => {
    const { company, body } = await companyWithTemplate(1);
    const key = `order-${unique()}`;
    const answers = await Promise.all(Array.from({ length: 5 }, () => send(company.owner.token, body(), key)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, 422, 422, 422, 422]);
    for (const answer of answers.filter((a) => a.status === 422)) expect(errorCode(answer)).toBe('idempotency_key_reused');
    expect(await envelopesOf(company.id)).toHaveLength(1);
    expect(await quotaUsed(company.id)).toBe(1);
  });

  it('tells a twin to retry with 409 and Retry-After while the first is still running, then replays', async () => {
    const { company, body } = await companyWithTemplate(5);
    const request = body();
    const key = `order-${unique()}`;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const atomic = stack.services.database.atomic;
    const spy = vi.spyOn(stack.services.database, 'atomic').mockImplementationOnce(async (build) => {
      await held;
      return atomic(build);
    });
    try {
      const first = send(company.owner.token, request, key);
      await vi.waitFor(() => expect(spy).toHaveBeenCalled());
      const twin = await send(company.owner.token, request, key);
      expect(twin.status, JSON.stringify(twin.body)).toBe(409);
      expect(errorCode(twin)).toBe('idempotency_request_in_progress');
      expect(twin.headers.get('Retry-After')).toBe('1');
      release();
      const answer = await first;
      expect(answer.status).toBe(201);
      const retry = await send(company.owner.token, request, key);
      expect(retry.status).toBe(201);
      expect(retry.body.envelope_id).toBe(answer.body.envelope_id);
      expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
    } finally {
      release();
      spy.mockRestore();
    }
    expect(await quotaUsed(company.id)).toBe(1);
  });

  it('replays a voided envelope as it is now: its links are null', async () => {
    const { company, body } = await companyWithTemplate();
    const request = body();
    const key = `order-${unique()}`;
    const first = await send(company.owner.token, request, key);
    expect(first.body.signing_urls.filter((entry: { signing_url: string | null }) => entry.signing_url)).toHaveLength(2);
    await call(stack, 'POST', `/admin/v1/envelopes/${first.body.envelope_id}/void`, { token: ADMIN_TOKEN, body: {} });
    const replay = await send(company.owner.token, request, key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replay.body.envelope_id).toBe(first.body.envelope_id);
    expect(replay.body.signing_urls.map((entry: { signing_url: string | null }) => entry.signing_url)).toEqual([null, null, null]);
  });

  it('purges records older than 24 hours', async () => {
    const { company, body } = await companyWithTemplate();
    const request = body();
    const key = `order-${unique()}`;
    await send(company.owner.token, request, key);
    stack.clock.advance(24 * 3600 * 1000);
    try {
      await housekeeping(stack.services);
      const { idempotencyRecords } = await import('../../src/data/schema.js');
      const left = await stack.services.database.db.select().from(idempotencyRecords).where(eq(idempotencyRecords.companyId, company.id));
      expect(left).toEqual([]);
    } finally {
      stack.clock.advance(-24 * 3600 * 1000);
    }
  });
});

describe('the send limit counts refused sends', () => {
  it('answers 150 invalid sends with 422 and its headers up to the limit, then 429', async () => {
    const { company, template } = await companyWithTemplate();
    const invalid = { template_id: template.id, recipients: [{ role: 'Nobody', name: 'N', email: 'n@example.test' }] };
    const answers: Answer[] = [];
    for (let i = 0; i < 150; i++) answers.push(await send(company.owner.token, invalid));
    expect(answers.slice(0, 100).map(errorCode)).toEqual(Array(100).fill('unknown_signer_role'));
    expect(answers[0]!.headers.get('RateLimit-Limit')).toBe('100');
    expect(answers[0]!.headers.get('RateLimit-Remaining')).toBe('99');
    expect(answers[99]!.headers.get('RateLimit-Remaining')).toBe('0');
    expect(answers.slice(100).map((answer) => answer.status)).toEqual(Array(50).fill(429));
    expect(Number(answers[100]!.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(await quotaUsed(company.id)).toBe(0);
  });

  it('counts a send refused for an unknown template and for a missing sender too', async () => {
    const { company, body } = await companyWithTemplate();
    const unknownTemplate = await send(company.owner.token, { ...body(), template_id: crypto.randomUUID() });
    expect([unknownTemplate.status, unknownTemplate.headers.get('RateLimit-Remaining')]).toEqual([404, '99']);
    const noSender = await send(company.owner.token, { ...body(), sender_email: 'nobody@example.test' });
    expect([noSender.status, noSender.headers.get('RateLimit-Remaining')]).toEqual([422, '98']);
  });

  it('gives back the unit of a send whose write failed in the request, and queues no refund', async () => {
    const { company, body } = await companyWithTemplate(1);
    const key = `order-${unique()}`;
    expectLogged(/^send failed Error: disk full/);
    const write = failNextSendWrite(stack.services.database, 'disk full');
    const publish = vi.spyOn(stack.services.queue, 'publish');
    try {
      expectError(await send(company.owner.token, body(), key), 503, 'service_unavailable');
      expect(await quotaUsed(company.id)).toBe(0);
    } finally {
      write.mockRestore();
    }
    expect(publish).not.toHaveBeenCalled();
    publish.mockRestore();
    // The company's one unit and the key are free again: the retry sends.
    const retry = await send(company.owner.token, body(), key);
    expect([retry.status, retry.headers.get('Idempotent-Replayed')]).toEqual([201, null]);
    expect(await quotaUsed(company.id)).toBe(1);
  });

  it('keeps the unit counted, never fewer, when the send limits refuse to give it back after a failed write', async () => {
    const { company, body } = await companyWithTemplate(5);
    expectLogged(/^send failed Error: disk full/, /^the admission of a send that failed could not be given back; its unit stays counted Error: redis timeout/);
    const write = failNextSendWrite(stack.services.database, 'disk full');
    const release = vi.spyOn(stack.services.sendLimits, 'release').mockRejectedValueOnce(new Error('redis timeout'));
    try {
      expectError(await send(company.owner.token, body()), 503, 'service_unavailable');
      expect(release).toHaveBeenCalledTimes(1);
    } finally {
      write.mockRestore();
      release.mockRestore();
    }
    await drained(stack);
    expect(await quotaUsed(company.id)).toBe(1);
    expect(await envelopesOf(company.id)).toEqual([]);
  });
});

describe('the admission, asked once the reads passed', () => {
  const setAllowance = (companyId: string, allowance: number) =>
    stack.services.database.db.update(companies).set({ apiSignatureRequestsPerPeriod: allowance }).where(eq(companies.id, companyId));

  it('holds a lowered allowance at once, though the previous sends were admitted against the higher one', async () => {
    const { company, body } = await companyWithTemplate(5);
    for (let i = 0; i < 2; i++) expect((await send(company.owner.token, body())).status).toBe(201);
    await setAllowance(company.id, 2);
    const refused = await send(company.owner.token, body());
    expect(refused.status).toBe(402);
    expect(refused.body.error.details).toMatchObject({ allowance: 2 });
    expect(await quotaUsed(company.id)).toBe(2);
    expect(await envelopesOf(company.id)).toHaveLength(2);
  });

  it('holds a raised allowance at once: the send that was refused goes through, and the one after the new bound is refused', async () => {
    const { company, body } = await companyWithTemplate(2);
    for (let i = 0; i < 2; i++) expect((await send(company.owner.token, body())).status).toBe(201);
    expect(errorCode(await send(company.owner.token, body()))).toBe('quota_exceeded');
    await setAllowance(company.id, 3);
    expect((await send(company.owner.token, body())).status).toBe(201);
    expect(errorCode(await send(company.owner.token, body()))).toBe('quota_exceeded');
    expect(await quotaUsed(company.id)).toBe(3);
    expect(await envelopesOf(company.id)).toHaveLength(3);
  });

  it('takes no unit and no Idempotency-Key claim for a key revoked since its token was issued', async () => {
    const { company, body } = await companyWithTemplate(5);
    const holder = await addKeyHolder(stack, company.id);
    expect((await send(holder.token, body())).status).toBe(201);
    await revokeApiKey(asOperator(stack), { apiKeyId: holder.id });
    expectError(await send(holder.token, body(), 'revoked-key-send'), 401, 'unauthorized');
    expect(await quotaUsed(company.id)).toBe(1);
    expect(await envelopesOf(company.id)).toHaveLength(1);
    expect((await send(company.owner.token, body(), 'revoked-key-send')).status).toBe(201);
  });

  it('takes no unit for a send without the scope, nor for one the validator refuses', async () => {
    const { company, body } = await companyWithTemplate(5);
    const reader = await addKeyHolder(stack, company.id, { scopes: ['templates:read'] });
    expect((await send(company.owner.token, body())).status).toBe(201);
    expectError(await send(reader.token, body(), 'no-scope-send'), 403, 'insufficient_scope');
    // A body the send's reads can parse, which the route's validator refuses for its media type.
    const plain = await call(stack, 'POST', SEND, {
      token: company.owner.token,
      rawBody: JSON.stringify(body()),
      headers: { 'content-type': 'text/plain', 'Idempotency-Key': 'plain-send' },
    });
    expectError(plain, 422, 'validation_failed');
    expect(await quotaUsed(company.id)).toBe(1);
    // No claim was held either: the keys send now.
    expect((await send(company.owner.token, body(), 'no-scope-send')).status).toBe(201);
    expect((await send(company.owner.token, body(), 'plain-send')).status).toBe(201);
    expect(await quotaUsed(company.id)).toBe(3);
  });

  it('gives the last unit to a valid send made at the same time as an invalid one, which takes none', async () => {
    const { company, template, body } = await companyWithTemplate(2);
    expect((await send(company.owner.token, body())).status).toBe(201);
    const invalid = { template_id: template.id, recipients: [{ role: 'Nobody', name: 'N', email: 'n@example.test' }] };
    const [refused, sent] = await Promise.all([send(company.owner.token, invalid), send(company.owner.token, body())]);
    expectError(refused, 422, 'unknown_signer_role');
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(await quotaUsed(company.id)).toBe(2);
    expect(await envelopesOf(company.id)).toHaveLength(2);
  });

  it('counts no send the key check refuses against the send limit: a key allowed again has all 100', async () => {
    const { company, body } = await companyWithTemplate(5);
    const holder = await addKeyHolder(stack, company.id, { role: 'viewer' });
    for (let i = 0; i < 101; i++) expectError(await send(holder.token, body()), 403, 'permission_denied');
    await putUser(asOperator(stack, company.id), { email: holder.ownerEmail, input: { name: 'Now a member', role: 'member', active: true, esign_seat: true } });
    const allowed = await send(holder.token, body());
    expect([allowed.status, allowed.headers.get('RateLimit-Remaining')]).toEqual([201, '99']);
    expect(await quotaUsed(company.id)).toBe(1);
  });

  it('gives a replayed send its first answer and keeps one unit for it', async () => {
    const { company, body } = await companyWithTemplate(5);
    const first = body();
    const answers = [await send(company.owner.token, first, 'replayed-send'), await send(company.owner.token, first, 'replayed-send')];
    expect(answers.map((answer) => answer.status)).toEqual([201, 201]);
    expect(answers[1]!.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await quotaUsed(company.id)).toBe(1);
  });
});
