import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../data/database.js';
import { brandSettings, companies, type Reminders, type SigningOrder, users } from '../../data/schema.js';
import { isUuid } from '../../lib/ids.js';
import { rolesJson } from '../templates/template-reads.js';
import { readEarlier } from './idempotency.js';
import type { SendRequest } from './send-request.js';

/** What a send takes from its template; the fields are copied inside the database (copyTemplateFields). */
export type SendTemplate = {
  id: string;
  name: string;
  emailSubject: string | null;
  emailMessage: string | null;
  expiryDays: number | null;
  reminders: Reminders | null;
  signingOrder: SigningOrder;
  shareSigningLinks: boolean;
  /** Its latest version: the one whose roles, fields and document the send takes. */
  version: number;
};

export type SendContext = Awaited<ReturnType<typeof loadSendContext>>;

/**
 * Everything a send decides on, read in one wave, all scoped by the company of the (verified)
 * access token: one query for the company's allowance and brand with the template, its roles and
 * its document's hash; beside it, when asked for, the sender named by sender_email (the default,
 * the key's owner, comes with the key check) and an earlier answer for the same Idempotency-Key.
 */
export async function loadSendContext(
  db: Db,
  scope: { companyId: string; apiKeyId: string },
  request: Pick<SendRequest, 'template_id' | 'sender_email'>,
  idempotencyKey: string | undefined,
) {
  const { companyId, apiKeyId } = scope;
  // An id of no template when the given one is not a uuid, so the query stays the same.
  const templateId = isUuid(request.template_id) ? request.template_id : '00000000-0000-0000-0000-000000000000';
  const senderSelection = { id: users.id, email: users.email, active: users.active, esignSeat: users.esignSeat };

  const [[company], [sender], earlier] = await Promise.all([
    companyAndTemplate(db).execute({ companyId, templateId }),
    request.sender_email
      ? db
          .select(senderSelection)
          .from(users)
          .where(and(eq(users.companyId, companyId), eq(sql`lower(${users.email})`, request.sender_email.toLowerCase())))
          .limit(1)
      : Promise.resolve([]),
    idempotencyKey ? readEarlier(db, apiKeyId, idempotencyKey) : undefined,
  ]);
  return {
    template: company?.template ?? undefined,
    roles: company?.roles ?? [],
    documentSha256: company?.documentSha256 ?? undefined,
    sender,
    company: company && { allowance: company.allowance, defaultEmailMessage: company.defaultEmailMessage, textMessageCountries: company.textMessageCountries },
    earlier,
  };
}

// Every send makes this query: it is built once per database, not once per request.
const prepared = new WeakMap<Db, ReturnType<typeof prepareCompanyAndTemplate>>();
function companyAndTemplate(db: Db) {
  let query = prepared.get(db);
  if (!query) prepared.set(db, (query = prepareCompanyAndTemplate(db)));
  return query;
}

/**
 * The company's allowance, brand and text-message countries, with the template's latest version, its
 * roles and its document's hash (null when not the company's, or archived).
 */
function prepareCompanyAndTemplate(db: Db) {
  const [companyId, templateId] = [sql.placeholder('companyId'), sql.placeholder('templateId')];
  const ofThisCompany = sql`(select t.id from templates t where t.id = ${templateId}::uuid and t.company_id = ${companyId}::uuid and t.archived_at is null)`;
  const latest = sql`(select t.version from templates t where t.id = ${templateId}::uuid)`;
  return db
    .select({
      allowance: companies.apiSignatureRequestsPerPeriod,
      defaultEmailMessage: brandSettings.defaultEmailMessage,
      textMessageCountries: companies.textMessageCountries,
      template: sql<SendTemplate | null>`(
        select json_build_object('id', t.id, 'name', t.name, 'emailSubject', t.email_subject, 'emailMessage', t.email_message,
          'expiryDays', t.expiry_days, 'reminders', t.reminders, 'signingOrder', t.signing_order, 'shareSigningLinks', t.share_signing_links, 'version', t.version)
        from templates t where t.id = ${templateId}::uuid and t.company_id = ${companyId}::uuid and t.archived_at is null)`,
      roles: rolesJson(ofThisCompany, latest),
      documentSha256: sql<string | null>`(select d.sha256 from template_documents d where d.template_id = ${ofThisCompany} and d.version = ${latest})`,
    })
    .from(companies)
    .leftJoin(brandSettings, and(eq(brandSettings.companyId, companies.id), eq(brandSettings.active, true)))
    .where(eq(companies.id, companyId))
    .limit(1)
    .prepare('send_context');
}
