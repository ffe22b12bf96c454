import { brandSettings, companies } from '../../data/schema.js';
import { isUniqueViolation } from '../../data/errors.js';
import { DomainError } from '../../errors.js';
import type { VerbContext } from '../verb-context.js';

export type NewCompany = {
  id?: string | undefined;
  name: string;
  api_signature_requests_per_period: number;
  brand?: { default_email_message?: string | null | undefined } | undefined;
};

export type Company = {
  id: string;
  name: string;
  api_signature_requests_per_period: number;
  brand: { default_email_message: string | null };
  created_at: string;
};

/** A company with its active brand setting, written together. */
export async function createCompany(ctx: VerbContext, input: NewCompany): Promise<Company> {
  const { services, now } = ctx;
  const id = input.id ?? crypto.randomUUID();
  const defaultEmailMessage = input.brand?.default_email_message ?? null;
  await services.database
    .atomic((q) => [
      q.insert(companies).values({
        id,
        name: input.name,
        apiSignatureRequestsPerPeriod: input.api_signature_requests_per_period,
        createdAt: now,
      }),
      q.insert(brandSettings).values({ companyId: id, defaultEmailMessage, active: true, createdAt: now }),
    ])
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) throw new DomainError('conflict', 'A company with this id already exists.', { company_id: id });
      throw err;
    });
  return {
    id,
    name: input.name,
    api_signature_requests_per_period: input.api_signature_requests_per_period,
    brand: { default_email_message: defaultEmailMessage },
    created_at: now.toISOString(),
  };
}
