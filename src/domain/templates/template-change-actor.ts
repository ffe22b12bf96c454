import type { auditEvents } from '../../data/schema.js';
import type { Actor } from '../verb-context.js';

type AuditActor = { actorType: typeof auditEvents.$inferInsert.actorType; actorId: string | null };

/**
 * Who the audit trail names for a change of a template: the user of the application, the operator
 * (the admin API, no id), or the service itself (a seed). A user's id also goes on the template as
 * the one who saved its latest version.
 */
export function templateChangeActor(actor: Actor): AuditActor & { userId: string | null } {
  switch (actor.kind) {
    case 'user':
      return { actorType: 'user', actorId: actor.userId, userId: actor.userId };
    case 'operator':
      return { actorType: 'admin', actorId: null, userId: null };
    case 'api_key':
      return { actorType: 'api_key', actorId: actor.principal.apiKeyId, userId: null };
    default:
      return { actorType: 'system', actorId: null, userId: null };
  }
}
