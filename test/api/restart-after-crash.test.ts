/**
 * A process that dies in the middle of a send or of a completion, and the one that starts after it
 * with nothing but the database: the outbox finishes the work, nothing is lost, nothing is sent
 * twice, and the quota is right. The outside world outlives both processes: e-mail goes through
 * the production mailer to the e-mail API stand-in, which keeps what it sent and honours each
 * e-mail's Idempotency-Key, as the provider does.
 *
 * "Dies" means: its in-memory queue and timers are gone, and whatever it had not handed to the
 * queue never left; or, once the queue has stored its messages, that their deliveries stall and
 * never end, and the queue and the database are closed under them. The database is a PGlite folder
 * (or, in the integration run, the PostgreSQL the run provides) that the next process opens anew.
 * Nothing here waits for a time: each step waits until the queue has drained.
 *
 * One file although long: each crash point shares the process stack it kills and restarts.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createEmailApiStandin } from '../../local/standins/email-api.js';
import { type ServedStandin, serveStandin } from '../../local/standins/standin.js';
import { embeddedServices } from '../../src/adapters/embedded/embedded-services.js';
import { FileDocumentStore } from '../../src/adapters/embedded/file-document-store.js';
import { openPgliteDatabase } from '../../src/adapters/embedded/pglite-database.js';
import { openNodePostgresDatabase } from '../../src/adapters/postgres/node-postgres-database.js';
import { EmailApiMailer } from '../../src/adapters/production/email-api-mailer.js';
import { createApp } from '../../src/app.js';
import { routes } from '../../functions/routes.js';
import { envelopes, outboxMessages, webhookDeliveries, webhookEvents } from '../../src/data/schema.js';
import { openSigningLink } from '../../src/domain/signing/open-link.js';
import { signAsRecipient } from '../../src/domain/signing/sign-as-recipient.js';
import { housekeeping } from '../../src/outbox/housekeeping.js';
import { SWEEP_GRACE_MS } from '../../src/outbox/outbox.js';
import { ManualClock } from '../../src/ports/clock.js';
import type { QueueMessage } from '../../src/ports/queue.js';
import { quotaPeriod } from '../../src/ports/send-limits.js';
import { dispatchMessage } from '../../src/queue/consumers.js';
import { createTestCompany, createTestTemplate, type TestCompany } from '../support/factories.js';
import { eventually } from '../support/eventually.js';
import { call } from '../support/http.js';
import { TEST_SEAL_CERT_PEM, TEST_SEAL_KEY_PEM } from '../support/seal-fixture.js';
import { BASE_URL, type TestStack } from '../support/stack.js';
import { drained } from '../support/drained.js';
import { unique } from '../support/unique.js';
import { bySigner } from '../support/signer-verbs.js';

const EMAIL_KEY = 'restart-suite-email-key';
let scratch: string;
let emailApi: ServedStandin & { sent(): { to: string; kind?: string }[] };
let clockAt = Date.now();

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'restart-'));
  // The shared folder starts as the run's migrated database, instead of being made and migrated
  // inside the first test.
  const template = inject('pgliteTemplate');
  if (!inject('databaseUrl') && template) {
    await new PGlite(join(scratch, 'pgdata'), { loadDataDir: new Blob([await readFile(template)]) }).close();
  }
  const standin = createEmailApiStandin(EMAIL_KEY);
  const served = await serveStandin(standin);
  emailApi = Object.assign(served, { sent: () => standin.mailbox.list().map((mail) => ({ to: mail.to.email, kind: mail.tags?.kind })) });
});
afterAll(async () => {
  await emailApi.close();
  await rm(scratch, { recursive: true, force: true });
});

type ProcessOptions = {
  /** Everything it hands to the queue vanishes. */
  dies?: boolean;
  /** The deliveries of these messages start and never end, as in a process about to be killed. */
  stalls?: (message: QueueMessage) => boolean;
};

/** A server process over the shared database. */
async function startProcess(options: ProcessOptions = {}): Promise<TestStack & { stalled: QueueMessage[] }> {
  const databaseUrl = inject('databaseUrl');
  const database = databaseUrl ? await openNodePostgresDatabase(databaseUrl, { migrate: false }) : await openPgliteDatabase(join(scratch, 'pgdata'));
  // Each process's clock starts past the last one's, as time goes on across a restart.
  clockAt += SWEEP_GRACE_MS + 60_000;
  const clock = new ManualClock(new Date(clockAt));
  const services = embeddedServices({
    database,
    clock,
    config: {
      tokenSecret: new TextEncoder().encode('restart-suite-token-secret-0123456789abc'),
      baseUrl: BASE_URL,
      keyEnvironment: 'test',
      allowPrivateWebhookTargets: true,
      seal: { keyPem: TEST_SEAL_KEY_PEM, certPem: TEST_SEAL_CERT_PEM },
    },
    clientIp: () => '203.0.113.50',
    // The documents outlive a process with the database, as DATA_DIR's do under npm start.
    documents: new FileDocumentStore(join(scratch, 'documents')),
  });
  services.mailer = new EmailApiMailer({ url: `${emailApi.url}/emails`, apiKey: EMAIL_KEY, from: 'E-Signing <sign@example.test>' });
  if (options.dies) {
    services.queue = { publish: () => Promise.reject(new Error('the process died before handing this over')) };
  }
  const stalled: QueueMessage[] = [];
  const { stalls } = options;
  if (stalls) {
    services.inProcessQueue.consume((message) => {
      if (!stalls(message)) return dispatchMessage(services, message);
      stalled.push(message);
      return new Promise(() => {});
    });
  }
  const afterAnswers = new Set<Promise<unknown>>();
  return {
    app: createApp(services, routes),
    services,
    clock,
    afterAnswers,
    stalled,
    // Abrupt: deliveries under way are not waited for, as a killed process would not.
    close: async () => {
      await Promise.allSettled([...afterAnswers]);
      await services.inProcessQueue.close();
      await database.close();
    },
  };
}

const expectedErrors = vi.spyOn(console, 'error');
afterEach(() => {
  // The only errors logged here are the relays that a dying process could not make.
  for (const [context] of expectedErrors.mock.calls) expect(context).toBe('outbox relay failed; the sweeper will hand the messages over');
  expectedErrors.mockClear();
});
expectedErrors.mockImplementation(() => {});

const mailsTo = (email: string) => emailApi.sent().filter((mail) => mail.to === email);

async function sendNda(process: TestStack, company: TestCompany, templateId: string) {
  const tag = unique();
  const people = { client: `client-${tag}@example.test`, witness: `witness-${tag}@example.test` };
  const answer = await call(process, 'POST', '/v1/envelopes/from-template', {
    token: company.owner.token,
    body: {
      template_id: templateId,
      recipients: [
        { role: 'Client', name: 'Cleo Client', email: people.client },
        { role: 'Witness', name: 'Walt Witness', email: people.witness },
      ],
    },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  const tokens = (answer.body.signing_urls as { signing_url: string | null }[]).flatMap((entry) =>
    entry.signing_url ? [entry.signing_url.split('/sign/')[1]!] : [],
  );
  return { envelopeId: answer.body.envelope_id as string, people, tokens: { client: tokens[0]!, witness: tokens[1]! } };
}

async function sign(process: TestStack, token: string) {
  const who = { ip: '198.51.100.50', userAgent: 'Mozilla/5.0 (test)' };
  const state = await bySigner(process.services, who, openSigningLink, { token });
  if (state.kind !== 'sign') throw new Error(`expected a sign state, got ${state.kind}`);
  const values = Object.fromEntries(state.fields.map((field) => [field.id, field.type === 'checkbox' ? 'true' : 'Signed Name']));
  return bySigner(process.services, who, signAsRecipient, { token, submission: { consent: true, values } });
}

/** Each test has a company of its own, so the company's rows are the envelope's. */
const unrelayed = (process: TestStack, companyId: string) =>
  process.services.database.db
    .select()
    .from(outboxMessages)
    .where(and(eq(outboxMessages.companyId, companyId), isNull(outboxMessages.relayedAt)));

describe('a process that dies, and the one after it', () => {
  it('finishes a send committed just before the death: the e-mail goes once, the quota counts it once', async () => {
    const first = await startProcess({ dies: true });
    const company = await createTestCompany(first, { quota: 5 });
    const template = await createTestTemplate(first, company.id);
    const { people } = await sendNda(first, company, template.id);
    await drained(first);
    expect(expectedErrors).toHaveBeenCalled();
    expect((await unrelayed(first, company.id)).length).toBeGreaterThan(0);
    await first.close();
    expect(mailsTo(people.client)).toHaveLength(0);

    const second = await startProcess();
    try {
      expect((await housekeeping(second.services)).relayed).toBeGreaterThan(0);
      await drained(second);
      expect(mailsTo(people.client)).toHaveLength(1);
      expect(await unrelayed(second, company.id)).toEqual([]);
      // The count is rebuilt from the envelopes the database holds: one send, one unit.
      expect(await second.services.sendLimits.used(company.id, quotaPeriod(second.clock.now()))).toBe(1);
      // Swept again, nothing goes twice.
      await housekeeping(second.services);
      await drained(second);
      expect(mailsTo(people.client)).toHaveLength(1);
      expect(mailsTo(people.witness)).toHaveLength(0);
    } finally {
      await second.close();
    }
  });

  it('does not send twice what was handed over just before the death, before it was marked relayed', async () => {
    const first = await startProcess();
    const company = await createTestCompany(first, { quota: 5 });
    const template = await createTestTemplate(first, company.id);
    const { people } = await sendNda(first, company, template.id);
    await drained(first);
    expect(mailsTo(people.client)).toHaveLength(1);
    expect(await unrelayed(first, company.id)).toEqual([]);
    // The hand-over happened; the mark that says so did not.
    await first.services.database.db.update(outboxMessages).set({ relayedAt: null }).where(eq(outboxMessages.companyId, company.id));
    await first.close();

    const second = await startProcess();
    try {
      expect((await housekeeping(second.services)).relayed).toBeGreaterThan(0);
      await drained(second);
      expect(await unrelayed(second, company.id)).toEqual([]);
      // The consumer ran again and asked for the e-mail again, under the same Idempotency-Key.
      expect(mailsTo(people.client)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('makes the finished PDF of an envelope completed just before the death, once, with its events and e-mails once', async () => {
    const first = await startProcess();
    const company = await createTestCompany(first, { quota: 5 });
    const template = await createTestTemplate(first, company.id);
    const { envelopeId, people, tokens } = await sendNda(first, company, template.id);
    expect((await sign(first, tokens.client)).kind).toBe('signed');
    await drained(first);
    expect(mailsTo(people.witness)).toHaveLength(1);
    await first.close();

    // The last signature commits, and the process dies before the finishing job leaves.
    const dying = await startProcess({ dies: true });
    expect((await sign(dying, tokens.witness)).kind).toBe('completed');
    await drained(dying);
    expect(expectedErrors).toHaveBeenCalled();
    await dying.close();

    const second = await startProcess();
    try {
      await housekeeping(second.services);
      await drained(second);
      const stored = async () =>
        (await second.services.database.db.select({ sha256: envelopes.signedDocumentSha256 }).from(envelopes).where(eq(envelopes.id, envelopeId)))[0]!.sha256;
      expect(await stored()).toMatch(/^[0-9a-f]{64}$/);
      expect(emailApi.sent().filter((mail) => mail.kind === 'document_ready' && [people.client, people.witness].includes(mail.to))).toHaveLength(2);
      const sha256 = await stored();

      // Everything swept and delivered again: the same document, one event, no second e-mail.
      await second.services.database.db.update(outboxMessages).set({ relayedAt: null }).where(eq(outboxMessages.companyId, company.id));
      second.clock.advance(SWEEP_GRACE_MS + 1000);
      await housekeeping(second.services);
      await drained(second);
      expect(await unrelayed(second, company.id)).toEqual([]);
      expect(await stored()).toBe(sha256);
      const ready = (await second.services.database.db.select().from(webhookEvents).where(eq(webhookEvents.envelopeId, envelopeId))).filter(
        (event) => event.kind === 'envelope.document_ready',
      );
      expect(ready).toHaveLength(1);
      for (const email of [people.client, people.witness])
        expect(emailApi.sent().filter((mail) => mail.to === email && mail.kind === 'document_ready')).toHaveLength(1);
      expect(mailsTo(people.witness).filter((mail) => mail.kind === 'signing_request')).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});

/**
 * A receiver of webhooks that the outside world keeps up across the restarts: it records each
 * delivery, and while `holding` it keeps the request open without answering, as a slow receiver
 * would while the process that called it is killed.
 */
async function webhookReceiver() {
  const received: { webhookId: string; type: string; envelopeId: string }[] = [];
  let holding = false;
  const served = await serveStandin({
    fetch: async (request) => {
      const body = (await request.json()) as { type: string; data: { envelope: { envelope_id: string } } };
      received.push({ webhookId: request.headers.get('webhook-id')!, type: body.type, envelopeId: body.data.envelope.envelope_id });
      if (holding) await new Promise(() => {});
      return new Response(null, { status: 204 });
    },
    close: async () => {},
  });
  return { url: served.url, received, hold: (on: boolean) => void (holding = on), close: () => served.close() };
}

async function subscribe(process: TestStack, company: TestCompany, url: string) {
  const answer = await call(process, 'POST', '/v1/webhooks', {
    token: company.owner.token,
    body: { url: `${url}/hooks/${unique()}`, events: ['envelope.sent'] },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.id as string;
}

describe('a process killed between storing a message and delivering it, and the one after it', () => {
  it('delivers after the restart a webhook whose delivery was in flight at the kill, and closes the attempt cut short as interrupted', async () => {
    const receiver = await webhookReceiver();
    try {
      const first = await startProcess();
      const company = await createTestCompany(first, { quota: 5 });
      const template = await createTestTemplate(first, company.id);
      const subscriptionId = await subscribe(first, company, receiver.url);
      receiver.hold(true);
      const { envelopeId } = await sendNda(first, company, template.id);
      // The receiver has the request and has not answered: the delivery is in flight.
      await vi.waitFor(() => expect(receiver.received.filter((hit) => hit.envelopeId === envelopeId)).toHaveLength(1), eventually);
      await first.close();
      receiver.hold(false);

      const second = await startProcess();
      try {
        await housekeeping(second.services);
        await drained(second);
        const hits = receiver.received.filter((hit) => hit.envelopeId === envelopeId);
        expect(hits.map((hit) => hit.type)).toEqual(['envelope.sent', 'envelope.sent']);
        expect(hits[1]!.webhookId).toBe(hits[0]!.webhookId);
        const attempts = await second.services.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.subscriptionId, subscriptionId));
        expect(attempts.find((attempt) => attempt.statusCode === 204)).toBeDefined();
        // The attempt the kill cut short is not left in flight beside its retry.
        const listed = await call(second, 'GET', `/v1/webhooks/${subscriptionId}/deliveries`, { token: company.owner.token });
        const sent = (listed.body.data as { event_type: string; attempt: number; status_code: number | null; error_type: string | null }[])
          .filter((attempt) => attempt.event_type === 'envelope.sent')
          .map((attempt) => [attempt.attempt, attempt.status_code, attempt.error_type])
          .sort(([a], [b]) => Number(a) - Number(b));
        expect(sent).toEqual([
          [1, null, 'interrupted'],
          [2, 204, null],
        ]);
      } finally {
        await second.close();
      }
    } finally {
      await receiver.close();
    }
  });

  it('delivers after the restart the envelope.sent webhook and the e-mail of a send killed right after its 201, its outbox already marked', async () => {
    const receiver = await webhookReceiver();
    try {
      const setup = await startProcess();
      const company = await createTestCompany(setup, { quota: 5 });
      const template = await createTestTemplate(setup, company.id);
      await subscribe(setup, company, receiver.url);
      await setup.close();

      // No delivery of this process ever ends: it dies as soon as its relay has stored the messages.
      const first = await startProcess({ stalls: () => true });
      const { envelopeId, people } = await sendNda(first, company, template.id);
      await Promise.allSettled([...first.afterAnswers!]);
      // Marked relayed because the messages are stored: the sweeper has nothing left to do.
      expect(await unrelayed(first, company.id)).toEqual([]);
      await first.close();
      expect(receiver.received.filter((hit) => hit.envelopeId === envelopeId)).toEqual([]);
      expect(mailsTo(people.client)).toEqual([]);

      const second = await startProcess();
      try {
        expect((await housekeeping(second.services)).relayed).toBe(0);
        await drained(second);
        expect(receiver.received.filter((hit) => hit.envelopeId === envelopeId).map((hit) => hit.type)).toEqual(['envelope.sent']);
        expect(mailsTo(people.client)).toHaveLength(1);
        expect(mailsTo(people.witness)).toHaveLength(0);
      } finally {
        await second.close();
      }
    } finally {
      await receiver.close();
    }
  });

  it("sends after the restart the next signer's e-mail, which the killed process had queued but not sent", async () => {
    const first = await startProcess();
    const company = await createTestCompany(first, { quota: 5 });
    const template = await createTestTemplate(first, company.id);
    const { envelopeId, people, tokens } = await sendNda(first, company, template.id);
    await drained(first);
    expect(mailsTo(people.client)).toHaveLength(1);
    await first.close();

    // The client signs; the witness's turn comes, and the process dies sending their e-mail.
    const dying = await startProcess({ stalls: (message) => message.topic === 'email.signing-request' });
    expect((await sign(dying, tokens.client)).kind).toBe('signed');
    await vi.waitFor(() => expect(dying.stalled.map((message) => message.body.envelope_id)).toEqual([envelopeId]), eventually);
    expect(await unrelayed(dying, company.id)).toEqual([]);
    await dying.close();
    expect(mailsTo(people.witness)).toHaveLength(0);

    const second = await startProcess();
    try {
      await housekeeping(second.services);
      await drained(second);
      expect(mailsTo(people.witness)).toEqual([{ to: people.witness, kind: 'signing_request' }]);
      expect(mailsTo(people.client)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});
