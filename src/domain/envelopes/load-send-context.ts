import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../data/database.js';
import {
  brandSettings,
  companies,
  templateDocuments,
  templateFields,
  templateRoles,
  templates,
  users,
} from '../../data/schema.js';
import { isUuid } from '../../lib/ids.js';
import { readEarlier } from './idempotency.js';
import type { SendRequest } from './send-request.js';

export type SendContext = Awaited<ReturnType<typeof loadSendContext>>;

/**
 * Everything a send decides on, read in one wave of parallel queries, all scoped by the company of
 * the (verified) access token: the template with its roles, fields and document hash, the sender
 * named by sender_email (the default, the key's owner, comes with the key check),
 * the company's allowance and brand, and an earlier answer for the same Idempotency-Key.
 */
export async function loadSendContext(
  db: Db,
  scope: { companyId: string; apiKeyId: string },
  request: Pick<SendRequest, 'template_id' | 'sender_email'>,
  idempotencyKey: string | undefined,
) {
  const { companyId, apiKeyId } = scope;
  const templateId = isUuid(request.template_id) ? request.template_id : '00000000-0000-0000-0000-000000000000';
  const sameTemplate = (table: typeof templateRoles | typeof templateFields | typeof templateDocuments) =>
    and(eq(table.templateId, templateId), eq(table.companyId, companyId));
  const senderSelection = { id: users.id, email: users.email, active: users.active, esignSeat: users.esignSeat };

  const [[template], roles, fields, [document], [sender], [company], earlier] = await Promise.all([
    db.select().from(templates).where(and(eq(templates.id, templateId), eq(templates.companyId, companyId))).limit(1),
    db.select().from(templateRoles).where(sameTemplate(templateRoles)).orderBy(asc(templateRoles.order), asc(templateRoles.name)),
    db.select().from(templateFields).where(sameTemplate(templateFields)),
    db.select({ sha256: templateDocuments.sha256 }).from(templateDocuments).where(sameTemplate(templateDocuments)).limit(1),
    // Without sender_email the sender is the key's owner, whom the key check reads anyway.
    request.sender_email
      ? db
          .select(senderSelection)
          .from(users)
          .where(and(eq(users.companyId, companyId), eq(sql`lower(${users.email})`, request.sender_email.toLowerCase())))
          .limit(1)
      : Promise.resolve([]),
    db
      .select({ allowance: companies.apiSignatureRequestsPerPeriod, defaultEmailMessage: brandSettings.defaultEmailMessage })
      .from(companies)
      .leftJoin(brandSettings, and(eq(brandSettings.companyId, companies.id), eq(brandSettings.active, true)))
      .where(eq(companies.id, companyId))
      .limit(1),
    idempotencyKey ? readEarlier(db, apiKeyId, idempotencyKey) : undefined,
  ]);
  return { template, roles, fields, documentSha256: document?.sha256, sender, company, earlier };
}
