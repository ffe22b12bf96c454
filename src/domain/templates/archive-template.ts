/**
 * Archiving a template: it leaves the company's list, its read and new sends (404
 * template_not_found, as if it never was), while the envelopes sent from it finish as usual, since
 * their versions' rows stay. Nothing brings it back.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { insertWhen } from '../../data/insert-when.js';
import { auditEvents, templates } from '../../data/schema.js';
import { isUuid } from '../../lib/ids.js';
import type { CompanyContext } from '../verb-context.js';
import { templateNotFound } from './get-template.js';
import { templateChangeActor } from './template-change-actor.js';

/** Archives a company's template; one archived already, another company's or unknown is not found. */
export async function archiveTemplate(ctx: CompanyContext, { templateId }: { templateId: string }): Promise<{ template_id: string; archived_at: string }> {
  const { services, companyId, now } = ctx;
  if (!isUuid(templateId)) throw templateNotFound(templateId);
  const actor = templateChangeActor(ctx.actor);
  const mine = and(eq(templates.id, templateId), eq(templates.companyId, companyId), isNull(templates.archivedAt));
  const [, archived] = (await services.database.atomic((q) => [
    // The audit row first, while the template is still unarchived: only an archiving that happens writes one.
    insertWhen(
      q,
      auditEvents,
      { companyId, kind: 'template.archived', actorType: actor.actorType, actorId: actor.actorId, data: { template_id: templateId }, createdAt: now },
      sql`exists (select 1 from ${templates} where ${mine})`,
    ),
    q.update(templates).set({ archivedAt: now }).where(mine).returning({ id: templates.id }),
  ])) as [unknown, { id: string }[]];
  if (archived.length === 0) throw templateNotFound(templateId);
  return { template_id: templateId, archived_at: now.toISOString() };
}
