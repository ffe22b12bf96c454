/**
 * Dead jobs through the admin API: a queue job that failed every attempt — on `npm start`'s
 * embedded queue, or on QStash's last retry of the production callback — is listed with why it
 * failed, and handed back to the queue once its cause is fixed. Refusals without the admin token
 * are in admin-access.test.ts.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { eq, inArray } from 'drizzle-orm';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InProcessQueue } from '../../src/adapters/embedded/in-process-queue.js';
import { Receiver } from '@upstash/qstash';
import { mountLater } from '../../src/app.js';
import { deadJobs, queuedMessages } from '../../src/data/schema.js';
import type { AppEnv } from '../../src/http/app-env.js';
import { handleError, handleNotFound } from '../../src/http/error-handler.js';
import { queueCallbackRoutes } from '../../src/http/queue-callback.js';
import type { QueueMessage } from '../../src/ports/queue.js';
import { QUEUE_RETRIES } from '../../src/queue/attempts.js';
import { dispatchMessage, type QueueConsumer } from '../../src/queue/consumers.js';
import { HoppingQueue } from '../../src/queue/timer-hops.js';
import { expectErrorLogs } from '../support/expected-errors.js';
import { eventually } from '../support/eventually.js';
import { ADMIN_TOKEN, openStack, type TestStack } from '../support/stack.js';
import { qstashDelivery, qstashSignature } from '../workerd/qstash-signature.js';
import { admin } from './admin-support.js';
import { unique } from '../support/unique.js';
import { expectError } from '../support/expect-error.js';

const { expectLogged } = expectErrorLogs();
let stack: TestStack;
let queue: InProcessQueue;
/** What the flaky topic's consumer got, and whether its receiver is down. */
const flaky = { down: true, delivered: [] as Record<string, unknown>[] };

beforeAll(async () => {
  stack = await openStack();
  // The stack's queue, with retries close together so a job dies within the test.
  queue = new InProcessQueue(stack.services.database, { name: `dead-jobs-${crypto.randomUUID()}`, maxRetries: 1, backoffMs: () => 10 });
  queue.consume(async (message: QueueMessage) => {
    if (message.topic !== 'test.flaky') return dispatchMessage(stack.services, message);
    if (flaky.down) throw new Error(`the receiver of ${String(message.body.n)} is down`);
    flaky.delivered.push(message.body);
  });
  stack.services.queue = new HoppingQueue(queue, stack.clock);
});
afterAll(async () => {
  await queue.close();
  await stack.close();
});

const deadRows = (ids: string[]) => stack.services.database.db.select().from(deadJobs).where(inArray(deadJobs.id, ids));
const queuedRow = (id: string) => stack.services.database.db.select().from(queuedMessages).where(eq(queuedMessages.id, id));

/** Every page of the list until `ids` are all seen (other suites may add dead jobs meanwhile). */
async function listedJobs(ids: string[]) {
  const seen: Record<string, unknown>[] = [];
  for (let page = 1; page <= 100; page++) {
    const answer = await admin(stack, 'GET', `/admin/v1/dead-jobs?page=${page}&per_page=100`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const { total } = answer.body.pagination;
    expect(answer.body.pagination).toEqual({ page, per_page: 100, total, total_pages: Math.ceil(total / 100) });
    seen.push(...answer.body.data);
    if (answer.body.data.length < 100) break;
  }
  return seen.filter((job) => ids.includes(job.id as string));
}

describe('a job that fails every attempt on the embedded queue', () => {
  it('is listed as dead with its topic, body, attempts and last error, and a retry delivers it once its cause is fixed', async () => {
    expectLogged(/^queue: a test\.flaky job failed its last attempt and is kept as a dead job/);
    const id = `flaky-${unique()}`;
    flaky.down = true;
    await queue.publish([{ topic: 'test.flaky', body: { n: id }, dedupeId: id }]);
    await vi.waitFor(async () => expect(await deadRows([id])).toHaveLength(1), eventually);
    await queue.drained();
    expect(await queuedRow(id)).toEqual([]);

    const [listed] = await listedJobs([id]);
    expect(listed).toEqual({
      id,
      topic: 'test.flaky',
      body: { n: id },
      attempts: 2,
      last_error: `Error: the receiver of ${id} is down`,
      failed_at: expect.any(String),
    });
    expect(new Date(listed!.failed_at as string).toISOString()).toBe(listed!.failed_at);

    flaky.down = false;
    const retried = await admin(stack, 'POST', `/admin/v1/dead-jobs/${id}/retry`);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body).toEqual({ id, topic: 'test.flaky', queued_at: expect.any(String) });
    await vi.waitFor(() => expect(flaky.delivered).toContainEqual({ n: id }), eventually);
    await queue.drained();
    expect(await deadRows([id])).toEqual([]);
    expect(await listedJobs([id])).toEqual([]);
    expect(await queuedRow(id)).toEqual([]);

    // Handed back already: it is no dead job any more.
    expectError(await admin(stack, 'POST', `/admin/v1/dead-jobs/${id}/retry`), 404, 'not_found');
  });

  it('is handed back with its attempts counted from zero: it gets every attempt again before it is dead again', async () => {
    expectLogged(/^queue: a test\.flaky job failed its last attempt/);
    const id = `again-${unique()}`;
    flaky.down = true;
    await queue.publish([{ topic: 'test.flaky', body: { n: id }, dedupeId: id }]);
    await vi.waitFor(async () => expect(await deadRows([id])).toHaveLength(1), eventually);
    const [first] = await deadRows([id]);
    expect((await admin(stack, 'POST', `/admin/v1/dead-jobs/${id}/retry`)).status).toBe(200);
    await vi.waitFor(async () => expect((await deadRows([id]))[0]?.failedAt.getTime()).toBeGreaterThan(first!.failedAt.getTime()), eventually);
    expect((await deadRows([id]))[0]).toMatchObject({ attempts: 2 });
  });
});

describe('GET /admin/v1/dead-jobs', () => {
  it('lists the latest failure first, one page at a time', async () => {
    const ids = [`old-${unique()}`, `mid-${unique()}`, `new-${unique()}`];
    // Failures dated after anything else the run makes, so that they lead the list.
    await stack.services.database.db.insert(deadJobs).values(
      ids.map((id, i) => ({
        id,
        topic: 'envelope.remind',
        body: { envelope_id: `env_${i}` },
        attempts: 6,
        lastError: 'Error: no',
        failedAt: new Date(Date.UTC(2199, 0, 1 + i)),
      })),
    );
    try {
      const first = await admin(stack, 'GET', '/admin/v1/dead-jobs?per_page=2');
      expect(first.status).toBe(200);
      expect(first.body.data.map((job: { id: string }) => job.id)).toEqual([ids[2], ids[1]]);
      expect(first.body.data[0]).toEqual({
        id: ids[2],
        topic: 'envelope.remind',
        body: { envelope_id: 'env_2' },
        attempts: 6,
        last_error: 'Error: no',
        failed_at: '2199-01-03T00:00:00.000Z',
      });
      const { total } = first.body.pagination;
      expect(first.body.pagination).toEqual({ page: 1, per_page: 2, total, total_pages: Math.ceil(total / 2) });
      const second = await admin(stack, 'GET', '/admin/v1/dead-jobs?page=2&per_page=2');
      expect(second.body.data[0].id).toBe(ids[0]);
    } finally {
      await stack.services.database.db.delete(deadJobs).where(inArray(deadJobs.id, ids));
    }
  });

  it.each(['page=0', 'per_page=0', 'per_page=101', 'page=abc'])('refuses %s with 422 validation_failed', async (query) => {
    expectError(await admin(stack, 'GET', `/admin/v1/dead-jobs?${query}`), 422, 'validation_failed');
  });

  it('takes per_page=100, the largest page', async () => {
    expect((await admin(stack, 'GET', '/admin/v1/dead-jobs?per_page=100')).status).toBe(200);
  });
});

describe('POST /admin/v1/dead-jobs/{id}/retry', () => {
  it.each(['job_nothing', 'msg_0123456789', '..', 'x'.repeat(300), 'é ✓'])('answers an unknown id (%s) with 404 not_found and queues nothing', async (id) => {
    const answer = await admin(stack, 'POST', `/admin/v1/dead-jobs/${encodeURIComponent(id)}/retry`);
    expectError(answer, 404, 'not_found');
    expect(await queuedRow(id)).toEqual([]);
  });

  it('answers GET with 405 and Allow: POST', async () => {
    const answer = await admin(stack, 'GET', '/admin/v1/dead-jobs/job_x/retry');
    expectError(answer, 405, 'method_not_allowed');
    expect(answer.headers.get('allow')).toBe('POST');
  });
});

describe('the production queue callback on QStash', () => {
  const keys = { current: 'sig_dead_jobs_current_0123456789', next: 'sig_dead_jobs_next_0123456789' };
  const url = 'https://esign.example.test/internal/queue/test.failing';
  const consumers: Record<string, QueueConsumer> = {
    'test.failing': async (_ctx, body) => {
      throw new Error(`still failing for ${String(body.n)}`);
    },
  };
  const callback = new Hono<AppEnv>();
  callback.onError(handleError);
  callback.notFound(handleNotFound);
  beforeAll(() =>
    mountLater(callback, '/internal/*', stack.services, async () =>
      queueCallbackRoutes(new Receiver({ currentSigningKey: keys.current, nextSigningKey: keys.next }), consumers),
    ),
  );

  async function delivery(retried: number, body: string) {
    const request = qstashDelivery(url, body, await qstashSignature(keys.current, url, body));
    const messageId = request.headers.get('upstash-message-id')!;
    request.headers.set('upstash-retried', String(retried));
    return { response: await callback.fetch(request), messageId };
  }

  it('answers 500 for QStash to retry while retries are left, and keeps no dead job', async () => {
    expectLogged(/still failing/);
    const body = JSON.stringify({ n: unique() });
    const { response, messageId } = await delivery(QUEUE_RETRIES - 1, body);
    expect(response.status).toBe(500);
    expect(response.headers.get('Upstash-NonRetryable-Error')).toBeNull();
    expect(await deadRows([messageId])).toEqual([]);
  });

  it('records the job as dead on the last retry and answers 489 so QStash stops; the admin API lists it as the embedded queue would', async () => {
    expectLogged(/^queue: a test\.failing job failed its last attempt and is kept as a dead job Error: still failing/);
    const n = unique();
    const { response, messageId } = await delivery(QUEUE_RETRIES, JSON.stringify({ n }));
    expect(response.status).toBe(489);
    expect(response.headers.get('Upstash-NonRetryable-Error')).toBe('true');
    const [listed] = await listedJobs([messageId]);
    expect(listed).toEqual({
      id: messageId,
      topic: 'test.failing',
      body: { n },
      attempts: QUEUE_RETRIES + 1,
      last_error: `Error: still failing for ${n}`,
      failed_at: stack.clock.now().toISOString(),
    });
  });
});

describe('the admin CLI', () => {
  let server: ServerType;
  let adminUrl: string;
  beforeAll(async () => {
    const port = await new Promise<number>((resolve) => {
      server = serve({ fetch: stack.app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => resolve(info.port));
    });
    adminUrl = `http://127.0.0.1:${port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const cli = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const root = fileURLToPath(new URL('../..', import.meta.url));
      execFile(
        process.execPath,
        ['--import', 'tsx', 'scripts/admin.ts', ...args],
        { cwd: root, env: { ...process.env, ADMIN_URL: adminUrl, ADMIN_TOKEN } },
        (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
      );
    });

  it('lists dead jobs and hands one back', async () => {
    const id = `cli-${unique()}`;
    await stack.services.database.db
      .insert(deadJobs)
      .values({ id, topic: 'test.flaky', body: { n: id }, attempts: 2, lastError: 'Error: no', failedAt: new Date(Date.UTC(2198, 0, 1)) });
    flaky.down = false;
    const listed = await cli(['list-dead-jobs', '--per-page', '100']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).data).toContainEqual(expect.objectContaining({ id, topic: 'test.flaky' }));
    const retried = await cli(['retry-dead-job', id]);
    expect(retried.code, retried.stderr).toBe(0);
    expect(JSON.parse(retried.stdout)).toMatchObject({ id, topic: 'test.flaky' });
    await vi.waitFor(() => expect(flaky.delivered).toContainEqual({ n: id }), eventually);
    const again = await cli(['retry-dead-job', id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('404 not_found');
  });
});
