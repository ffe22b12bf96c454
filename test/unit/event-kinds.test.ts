/**
 * The kinds of audit rows and of webhook events are typed unions (src/data/event-kinds.ts): writing
 * a kind outside them does not compile (the type assertions below fail `npm run typecheck` the day
 * a column or an entry is typed looser), and the admin guide names every audit kind an operator may meet.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { type AuditKind, auditKinds, type EventKind, type WebhookEventKind } from '../../src/data/event-kinds.js';
import type { auditEvents, webhookEvents } from '../../src/data/schema.js';
import type { AuditEntry, ChangeRecord } from '../../src/domain/envelopes/record-change.js';
import { eventKinds, testEventKind } from '../../src/domain/webhooks/event-catalog.js';

const adminGuide = readFileSync(fileURLToPath(new URL('../../docs/admin.md', import.meta.url)), 'utf8');

describe('the kinds the compiler checks', () => {
  // Checked by `npm run typecheck`, which fails on a type that no longer holds.
  it('types the stored columns, the audit entries and the events of a change with the unions', () => {
    expectTypeOf<(typeof auditEvents.$inferInsert)['kind']>().toEqualTypeOf<AuditKind>();
    expectTypeOf<(typeof webhookEvents.$inferInsert)['kind']>().toEqualTypeOf<WebhookEventKind>();
    expectTypeOf<AuditEntry['kind']>().toEqualTypeOf<AuditKind>();
    expectTypeOf<NonNullable<ChangeRecord['event']>['kind']>().toEqualTypeOf<EventKind>();
  });

  it('refuses a misspelt kind, one nobody declared, and the test delivery as an envelope event', () => {
    expectTypeOf<'recipient.signed'>().toExtend<AuditKind>();
    expectTypeOf<'recipient.sined'>().not.toExtend<AuditKind>();
    expectTypeOf<'envelope.reopened'>().not.toExtend<AuditKind | WebhookEventKind>();
    expectTypeOf<typeof testEventKind>().not.toExtend<EventKind>();
    expectTypeOf<typeof testEventKind>().toExtend<WebhookEventKind>();
  });
});

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
