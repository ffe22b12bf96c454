/**
 * What the admin API lists (the management plane's read side): companies, and a company's users,
 * API keys and envelopes, each one page at a time, newest first, as the public lists are.
 */
import { and, count, desc, eq, getTableColumns } from 'drizzle-orm';
import { apiKeys, brandSettings, companies, envelopes, users } from '../../data/schema.js';
import type { CompanyReadContext, PageRequest, ReadContext } from '../read-context.js';
import type { Scope } from '../auth/scopes.js';
import { type Page, pageOffset, pageWithTotal, totalOfAll } from '../shared/pagination.js';
import { toUser, type User } from '../users/put-user.js';
import type { Company } from './create-company.js';

export async function listCompanies({ services }: ReadContext, { page, perPage }: PageRequest): Promise<Page<Company>> {
  const { db } = services.database;
  const rows = await db
    .select({ company: companies, defaultEmailMessage: brandSettings.defaultEmailMessage, total: totalOfAll() })
    .from(companies)
    .leftJoin(brandSettings, and(eq(brandSettings.companyId, companies.id), eq(brandSettings.active, true)))
    .orderBy(desc(companies.createdAt), desc(companies.id))
    .limit(perPage)
    .offset(pageOffset(page, perPage));
  const toCompany = ({ company, defaultEmailMessage }: (typeof rows)[number]): Company => ({
    id: company.id,
    name: company.name,
    api_signature_requests_per_period: company.apiSignatureRequestsPerPeriod,
    brand: { default_email_message: defaultEmailMessage ?? null },
    created_at: company.createdAt.toISOString(),
  });
  return pageWithTotal(rows, toCompany, page, perPage, () => db.select({ total: count() }).from(companies));
}

export async function listUsers({ services, companyId }: CompanyReadContext, { page, perPage }: PageRequest): Promise<Page<User>> {
  const { db } = services.database;
  const rows = await db
    .select({ ...getTableColumns(users), total: totalOfAll() })
    .from(users)
    .where(eq(users.companyId, companyId))
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(perPage)
    .offset(pageOffset(page, perPage));
  return pageWithTotal(rows, toUser, page, perPage, () => db.select({ total: count() }).from(users).where(eq(users.companyId, companyId)));
}

/** A key as an operator may see it: its prefix, never its hash or the key itself. */
export type ApiKeySummary = {
  id: string;
  name: string | null;
  prefix: string;
  owner: string;
  scopes: Scope[];
  status: 'active' | 'revoked';
  created_at: string;
  rotated_at: string | null;
  revoked_at: string | null;
};

export async function listApiKeys({ services, companyId }: CompanyReadContext, { page, perPage }: PageRequest): Promise<Page<ApiKeySummary>> {
  const { db } = services.database;
  // Only the columns shown are read: the hash never leaves the database.
  const rows = await db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      prefix: apiKeys.prefix,
      owner: users.email,
      scopes: apiKeys.scopes,
      createdAt: apiKeys.createdAt,
      rotatedAt: apiKeys.rotatedAt,
      revokedAt: apiKeys.revokedAt,
      total: totalOfAll(),
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.ownerUserId))
    .where(eq(apiKeys.companyId, companyId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .limit(perPage)
    .offset(pageOffset(page, perPage));
  const toSummary = (row: (typeof rows)[number]): ApiKeySummary => ({
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    owner: row.owner,
    scopes: row.scopes as Scope[],
    status: row.revokedAt ? 'revoked' : 'active',
    created_at: row.createdAt.toISOString(),
    rotated_at: row.rotatedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
  });
  return pageWithTotal(rows, toSummary, page, perPage, () => db.select({ total: count() }).from(apiKeys).where(eq(apiKeys.companyId, companyId)));
}

export type EnvelopeSummary = {
  envelope_id: string;
  title: string;
  status: (typeof envelopes.$inferSelect)['status'];
  template_id: string;
  sender: { email: string };
  created_at: string;
  expires_at: string | null;
  completed_at: string | null;
  voided_at: string | null;
};

export async function listEnvelopes({ services, companyId }: CompanyReadContext, { page, perPage }: PageRequest): Promise<Page<EnvelopeSummary>> {
  const { db } = services.database;
  // Not the documents: a page of envelopes stays small.
  const rows = await db
    .select({
      id: envelopes.id,
      title: envelopes.title,
      status: envelopes.status,
      templateId: envelopes.templateId,
      senderEmail: envelopes.senderEmail,
      createdAt: envelopes.createdAt,
      expiresAt: envelopes.expiresAt,
      completedAt: envelopes.completedAt,
      voidedAt: envelopes.voidedAt,
      total: totalOfAll(),
    })
    .from(envelopes)
    .where(eq(envelopes.companyId, companyId))
    .orderBy(desc(envelopes.createdAt), desc(envelopes.id))
    .limit(perPage)
    .offset(pageOffset(page, perPage));
  const toSummary = (row: (typeof rows)[number]): EnvelopeSummary => ({
    envelope_id: row.id,
    title: row.title,
    status: row.status,
    template_id: row.templateId,
    sender: { email: row.senderEmail },
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt?.toISOString() ?? null,
    completed_at: row.completedAt?.toISOString() ?? null,
    voided_at: row.voidedAt?.toISOString() ?? null,
  });
  return pageWithTotal(rows, toSummary, page, perPage, () => db.select({ total: count() }).from(envelopes).where(eq(envelopes.companyId, companyId)));
}
