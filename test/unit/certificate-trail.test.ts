/**
 * The certificate's part of each recipient stays bounded whatever the trail holds: each kind's
 * first KEPT_ROWS events line by line, the rest counted on one line ("N further … between t1 and
 * t2"), rows counted when written and rows stored one an event by older versions alike, and at
 * most MAX_LINES_PER_RECIPIENT lines in all, each kind keeping its first event.
 */
import { describe, expect, it } from 'vitest';
import type { AuditKind } from '../../src/data/event-kinds.js';
import type { auditEvents, recipients } from '../../src/data/schema.js';
import { certificateTrail, MAX_LINES_PER_RECIPIENT } from '../../src/domain/signing/certificate-trail.js';
import { COUNTED_KIND, KEPT_ROWS } from '../../src/domain/signing/repeated-events.js';

type Audit = Omit<typeof auditEvents.$inferSelect, 'seq'>;
type Recipient = typeof recipients.$inferSelect;

const start = Date.parse('2026-11-22T12:00:00.000Z');
const dana = { id: 'rcp_dana', name: 'Dana', email: 'dana@example.test', role: 'Client', type: 'signer' } as Recipient;
const walt = { id: 'rcp_walt', name: 'Walt', email: 'walt@example.test', role: 'Witness', type: 'signer' } as Recipient;

let serial = 0;
function row(kind: AuditKind, second: number, data: Record<string, unknown> = {}, recipient = dana): Audit {
  serial += 1;
  return {
    id: `row-${serial}`,
    companyId: 'company',
    envelopeId: 'env',
    kind,
    actorType: 'recipient',
    actorId: recipient.id,
    data: { recipient_id: recipient.id, ip: '198.51.100.7', user_agent: 'test', ...data },
    createdAt: new Date(start + second * 1000),
  };
}
const at = (second: number) => `${new Date(start + second * 1000).toISOString().slice(0, 19)}Z`;
const linesOf = (trail: Audit[], person = dana) => certificateTrail([person], trail)[0]!.events.map((event) => event.what);

describe('the certificate trail of a recipient', () => {
  it(`lists ${KEPT_ROWS} events of a kind line by line, and one past them as "1 further …"`, () => {
    const tries = (n: number) => Array.from({ length: n }, (_, i) => row('recipient.code_failed', i + 1, { reason: 'dead' }));
    expect(linesOf(tries(KEPT_ROWS))).toEqual(Array(KEPT_ROWS).fill('Verification code entered after its tries were used up'));
    expect(linesOf(tries(KEPT_ROWS + 1))).toEqual([
      ...Array(KEPT_ROWS).fill('Verification code entered after its tries were used up'),
      `1 further failed try at a verification code between ${at(KEPT_ROWS + 1)} and ${at(KEPT_ROWS + 1)}`,
    ]);
  });

  it('adds a count kept when written to rows stored one a try, with the earliest first and the latest last time', () => {
    const stored = Array.from({ length: KEPT_ROWS + 5 }, (_, i) => row('recipient.code_failed', i + 1, { reason: 'expired' }));
    const counted = row(COUNTED_KIND, 100, {
      counts: 'recipient.code_failed',
      count: 7,
      first_at: new Date(start + 100_000).toISOString(),
      last_at: new Date(start + 400_000).toISOString(),
    });
    const lines = linesOf([...stored, counted]);
    expect(lines).toHaveLength(KEPT_ROWS + 1);
    expect(lines.at(-1)).toBe(`12 further failed tries at a verification code between ${at(KEPT_ROWS + 1)} and ${at(400)}`);
  });

  it(`holds at most ${MAX_LINES_PER_RECIPIENT} lines however many kinds repeat, each kind keeping its first event, and counts every other`, () => {
    const kinds: [AuditKind, Record<string, unknown>][] = [
      ['recipient.emailed', { reminder: true }],
      ['recipient.code_sent', { channel: 'email', to: 'd***@example.test' }],
      ['recipient.code_failed', { reason: 'wrong', attempt: 1, of: 5 }],
      ['recipient.verified', { channel: 'email', to: 'd***@example.test' }],
      ['recipient.viewed', {}],
      ['recipient.consented', { consent_version: 'esign-consent-2026-11' }],
      ['recipient.signed', {}],
      ['recipient.declined', { reason: 'No' }],
    ];
    const EACH = 15;
    const trail = [row('envelope.sent', 0, { recipient_id: undefined })];
    kinds.forEach(([kind, data], k) => {
      for (let i = 0; i < EACH; i++) trail.push(row(kind, 1 + k * 100 + i, data));
    });
    trail.push(row('recipient.viewed', 5, {}, walt));
    const [forDana, forWalt] = certificateTrail([dana, walt], trail);
    const lines = forDana!.events.map((event) => event.what);
    expect(lines).toHaveLength(MAX_LINES_PER_RECIPIENT);
    expect(lines[0]).toBe('Envelope sent');
    // Each kind still shows its first event at its time, and the counts add up to every event.
    const times = forDana!.events.map((event) => event.at.getTime());
    kinds.forEach((_, k) => {
      expect(times).toContain(start + (1 + k * 100) * 1000);
    });
    const shown = lines.filter((line) => !/^\d+ further /.test(line)).length - 1;
    const further = lines.reduce((sum, line) => sum + Number(/^(\d+) further /.exec(line)?.[1] ?? 0), 0);
    expect(shown + further).toBe(kinds.length * EACH);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(forWalt!.events.map((event) => event.what)).toEqual(['Envelope sent', 'Viewed the document']);
  });

  it('names the version of its template the envelope was sent with on its first line', () => {
    const sent = (data: Record<string, unknown>) => ({ ...row('envelope.sent', 0, data), actorType: 'api_key' as const, data });
    expect(linesOf([sent({ template_version: 2 }), row('recipient.viewed', 1)])).toEqual([
      'Envelope sent from version 2 of its template',
      'Viewed the document',
    ]);
    // A row written before templates had versions.
    expect(linesOf([sent({}), row('recipient.viewed', 1)])).toEqual(['Envelope sent', 'Viewed the document']);
  });
});
