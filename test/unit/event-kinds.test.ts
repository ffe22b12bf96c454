/**
 * The kinds of audit rows and of webhook events are typed unions (src/data/event-kinds.ts): writing
 * a kind outside them does not compile (the `@ts-expect-error` lines below fail `npm run typecheck`
 * the day they compile), and the admin guide names every audit kind an operator may meet.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/data/database.js';
import { type AuditKind, auditKinds, type WebhookEventKind } from '../../src/data/event-kinds.js';
import { auditEvents, webhookEvents } from '../../src/data/schema.js';
import type { AuditEntry, ChangeRecord } from '../../src/domain/envelopes/record-change.js';
import { eventKinds, testEventKind } from '../../src/domain/webhooks/event-catalog.js';

const adminGuide = readFileSync(fileURLToPath(new URL('../../docs/admin.md', import.meta.url)), 'utf8');

/** Never called: what the compiler accepts and refuses is the test. */
export function kindsTheCompilerChecks(q: Db, entry: AuditEntry, record: ChangeRecord) {
  const signed: AuditKind = 'recipient.signed';
  // @ts-expect-error a misspelt audit kind
  const misspelt: AuditKind = 'recipient.sined';
  // @ts-expect-error an audit row of a kind nobody declared
  const unknown: AuditEntry = { ...entry, kind: 'envelope.reopened' };
  // @ts-expect-error a webhook event of a kind the catalog does not have
  const event: ChangeRecord['event'] = { id: 'msg_x', kind: 'envelope.reopened', payload: {} };
  // @ts-expect-error the test delivery's event is never an envelope's
  const testEvent: ChangeRecord['event'] = { ...record.event!, kind: 'webhook.test' };
  return [
    signed, misspelt, unknown, event, testEvent,
    // @ts-expect-error the audit table's column takes the union
    q.insert(auditEvents).values({ companyId: 'c', kind: 'recipient.poked', actorType: 'system' }),
    // @ts-expect-error and so does the webhook events' column
    q.insert(webhookEvents).values({ id: 'msg_y', companyId: 'c', kind: 'envelope.poked', payload: {} }),
  ];
}

describe('the kinds of audit rows', () => {
  it("are each named in the admin guide's list, which names no other", () => {
    const paragraph = adminGuide.split('\n\n').find((text) => text.startsWith("An event's `kind` is one of these."));
    expect(paragraph).toBeDefined();
    const documented = [...paragraph!.matchAll(/`([a-z_]+\.[a-z_]+)`/g)].map((match) => match[1]);
    expect([...documented].sort()).toEqual([...auditKinds].sort());
    expect(new Set(documented).size).toBe(documented.length);
  });

  it('include the count of repeated events the bounded trail writes', () => {
    expect(auditKinds).toContain('recipient.repeated');
  });
});

describe('the kinds of webhook events', () => {
  it('are the catalog of subscribable kinds and the test delivery', () => {
    const stored: WebhookEventKind[] = [...eventKinds, testEventKind];
    expect(stored).toEqual([
      'envelope.sent',
      'envelope.viewed',
      'envelope.signed',
      'envelope.declined',
      'envelope.voided',
      'envelope.expired',
      'envelope.completed',
      'envelope.document_ready',
      'webhook.test',
    ]);
  });
});
