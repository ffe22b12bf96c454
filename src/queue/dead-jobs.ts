/**
 * Dead jobs: queue messages whose every attempt failed. They are kept, not dropped, and no longer
 * retried, so one poison job neither blocks the others nor comes back at each start; an operator
 * lists them and hands one back to the queue once its cause is fixed.
 */
import { and, count, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../data/database.js';
import { deadJobs } from '../data/schema.js';
import { DomainError } from '../errors.js';
import type { PageRequest, ReadContext } from '../domain/read-context.js';
import { type Page, pageOffset, pageWithTotal, totalOfAll } from '../domain/shared/pagination.js';
import type { VerbContext } from '../domain/verb-context.js';

export type DeadJob = {
  id: string;
  topic: string;
  body: Record<string, unknown>;
  attempts: number;
  last_error: string;
  failed_at: string;
};

type DeadJobRow = typeof deadJobs.$inferSelect;

/**
 * Records a job as dead. The same job dying again (handed back, and failing again) replaces its
 * record.
 */
export async function recordDeadJob(db: Db, job: DeadJobRow): Promise<void> {
  await db
    .insert(deadJobs)
    .values(job)
    .onConflictDoUpdate({
      target: deadJobs.id,
      set: {
        topic: sql`excluded.topic`,
        body: sql`excluded.body`,
        attempts: sql`excluded.attempts`,
        lastError: sql`excluded.last_error`,
        failedAt: sql`excluded.failed_at`,
      },
    });
}

export async function listDeadJobs(ctx: ReadContext, { page, perPage }: PageRequest): Promise<Page<DeadJob>> {
  const { db } = ctx.services.database;
  const rows = await db
    .select({ ...getTableColumns(deadJobs), total: totalOfAll() })
    .from(deadJobs)
    .orderBy(desc(deadJobs.failedAt), desc(deadJobs.id))
    .limit(perPage)
    .offset(pageOffset(page, perPage));
  return pageWithTotal(rows, toDeadJob, page, perPage, () => db.select({ total: count() }).from(deadJobs));
}

export const deadJobNotFound = (id: string) => new DomainError('not_found', 'No dead job with that id.', { dead_job_id: id });

/**
 * Hands a dead job back to the queue, due now and with its attempts counted from zero, and removes
 * its record. The record goes only if it is still the one read: a job that died again meanwhile
 * keeps its new record. The message keeps the job's id, so a retry asked twice is queued once.
 */
export async function retryDeadJob(ctx: VerbContext, { id }: { id: string }): Promise<{ id: string; topic: string; queued_at: string }> {
  const { services, now } = ctx;
  const { db } = services.database;
  const [job] = await db.select().from(deadJobs).where(eq(deadJobs.id, id)).limit(1);
  if (!job) throw deadJobNotFound(id);
  await services.queue.publish([{ topic: job.topic, body: job.body, dedupeId: job.id }]);
  await db.delete(deadJobs).where(and(eq(deadJobs.id, id), eq(deadJobs.failedAt, job.failedAt)));
  return { id: job.id, topic: job.topic, queued_at: now.toISOString() };
}

function toDeadJob(row: DeadJobRow): DeadJob {
  return {
    id: row.id,
    topic: row.topic,
    body: row.body,
    attempts: row.attempts,
    last_error: row.lastError,
    failed_at: row.failedAt.toISOString(),
  };
}
