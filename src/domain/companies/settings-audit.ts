/**
 * The audit row of a change to a company's settings made by one of its users at the application:
 * who (the user and the session) and what (the data given). The operator's changes through the
 * admin API and a seed's write none, as before: the audit trail is what the company's own people
 * did, beside what their API keys and signers did.
 */
import type { Db, Statement } from '../../data/database.js';
import type { AuditKind } from '../../data/event-kinds.js';
import { auditEvents } from '../../data/schema.js';
import type { CompanyContext } from '../verb-context.js';

export function settingsChanged(q: Db, ctx: CompanyContext, kind: Extract<AuditKind, `settings.${string}`>, data: Record<string, unknown>): Statement[] {
  const { actor } = ctx;
  if (actor.kind !== 'user') return [];
  return [
    q.insert(auditEvents).values({
      companyId: ctx.companyId,
      kind,
      actorType: 'user',
      actorId: actor.userId,
      data: { ...data, session_id: actor.sessionId },
      createdAt: ctx.now,
    }),
  ];
}
