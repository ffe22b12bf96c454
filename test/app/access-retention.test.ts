/**
 * Housekeeping removes sign-in links a day past their time and sessions past their idle or
 * absolute end, and keeps every link and session that can still be used.
 */
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appSessions, signInLinks } from '../../src/data/schema.js';
import { SIGN_IN_LINK_RETENTION_MS } from '../../src/domain/app-access/access-retention.js';
import { SESSION_IDLE_MS, SESSION_MAX_MS } from '../../src/domain/app-access/sessions.js';
import { housekeeping } from '../../src/outbox/housekeeping.js';
import { unique } from '../support/unique.js';
import { openStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await openStack();
});
afterAll(() => stack.close());

const ago = (ms: number) => new Date(stack.clock.now().getTime() - ms);

describe('housekeeping of the application’s access', () => {
  it('removes links a day past their time and ended sessions, and keeps the rest', async () => {
    const { db } = stack.services.database;
    const email = `kept-${unique()}@example.test`;
    const link = (tag: string, expiredFor: number) => ({
      tokenHash: `${tag}-${unique()}`,
      email,
      createdAt: ago(expiredFor + 15 * 60 * 1000),
      expiresAt: ago(expiredFor),
    });
    const links = await db
      .insert(signInLinks)
      .values([link('gone', SIGN_IN_LINK_RETENTION_MS + 1000), link('kept', SIGN_IN_LINK_RETENTION_MS - 60_000), link('live', -60_000)])
      .returning({ id: signInLinks.id, tokenHash: signInLinks.tokenHash });
    const session = (tag: string, createdFor: number, seenFor: number) => ({
      secretHash: `${tag}-${unique()}`,
      email,
      createdAt: ago(createdFor),
      lastSeenAt: ago(seenFor),
    });
    const sessions = await db
      .insert(appSessions)
      .values([
        session('idle', SESSION_IDLE_MS + 1000, SESSION_IDLE_MS + 1000),
        session('old', SESSION_MAX_MS + 1000, 1000),
        session('kept', SESSION_MAX_MS - 60_000, SESSION_IDLE_MS - 60_000),
      ])
      .returning({ id: appSessions.id, secretHash: appSessions.secretHash });

    await housekeeping(stack.services);

    const linksLeft = await db.select({ tokenHash: signInLinks.tokenHash }).from(signInLinks).where(eq(signInLinks.email, email));
    expect(linksLeft.map((row) => row.tokenHash.split('-')[0]).sort()).toEqual(['kept', 'live']);
    const sessionsLeft = await db
      .select({ secretHash: appSessions.secretHash })
      .from(appSessions)
      .where(
        inArray(
          appSessions.id,
          sessions.map((row) => row.id),
        ),
      );
    expect(sessionsLeft.map((row) => row.secretHash.split('-')[0])).toEqual(['kept']);
    expect(links).toHaveLength(3);
  });
});
