/**
 * Test data built through the domain's own verbs, with fresh ids every call, so that tests never
 * share rows and can run on one database side by side.
 */
import type { UserRole } from '../../src/data/schema.js';
import { exchangeApiKey } from '../../src/domain/auth/exchange-api-key.js';
import { createApiKey } from '../../src/domain/auth/manage-api-keys.js';
import { type Scope, scopes as allScopes } from '../../src/domain/auth/scopes.js';
import { createCompany } from '../../src/domain/companies/create-company.js';
import { importTemplate, storeTemplateDocument } from '../../src/domain/templates/import-template.js';
import type { TemplateDefinition } from '../../src/domain/templates/template-definition.js';
import { putUser } from '../../src/domain/users/put-user.js';
import { type CompanyContext, companyContext, type VerbContext, verbContext } from '../../src/domain/verb-context.js';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { call } from './http.js';
import type { TestStack } from './stack.js';
import { unique } from './unique.js';

/** The operator's context, as the admin API gives it: the verbs these factories call act as the operator does. */
export function asOperator(stack: TestStack): VerbContext<{ kind: 'operator' }>;
export function asOperator(stack: TestStack, companyId: string): CompanyContext<{ kind: 'operator' }>;
export function asOperator(stack: TestStack, companyId?: string) {
  const operator = { kind: 'operator' } as const;
  return companyId === undefined ? verbContext(stack.services, operator) : companyContext(stack.services, operator, companyId);
}

export type TestKey = { id: string; key: string; token: string; ownerEmail: string };

export type TestCompany = { id: string; name: string; owner: TestKey };

export async function createTestCompany(stack: TestStack, overrides: { quota?: number; defaultEmailMessage?: string | null } = {}): Promise<TestCompany> {
  const name = `Company ${unique()}`;
  const company = await createCompany(asOperator(stack), {
    name,
    api_signature_requests_per_period: overrides.quota ?? 100,
    brand: { default_email_message: overrides.defaultEmailMessage ?? 'Please sign this document.' },
  });
  const owner = await addKeyHolder(stack, company.id, { role: 'owner' });
  return { id: company.id, name, owner };
}

/** A user of the company with the given role and an API key with the given scopes. */
export async function addKeyHolder(
  stack: TestStack,
  companyId: string,
  options: { role?: UserRole; scopes?: Scope[]; active?: boolean; esignSeat?: boolean; email?: string } = {},
): Promise<TestKey> {
  const email = options.email ?? `user-${unique()}@example.test`;
  const ctx = asOperator(stack, companyId);
  await putUser(ctx, { email, input: { name: `User ${unique()}`, role: options.role ?? 'owner', active: true, esign_seat: options.esignSeat ?? true } });
  const created = await createApiKey(ctx, { owner: email, scopes: options.scopes ?? [...allScopes] });
  const { access_token } = await exchangeApiKey(ctx, { apiKey: created.key });
  // Deactivate after the exchange, so that tests can see what an inactive owner's token gets.
  if (options.active === false) {
    await putUser(ctx, { email, input: { name: 'Inactive', role: options.role ?? 'owner', active: false, esign_seat: true } });
  }
  return { id: created.id, key: created.key, token: access_token, ownerEmail: email };
}

export const ndaDefinition = (overrides: Partial<TemplateDefinition> = {}): TemplateDefinition => ({
  name: `NDA ${unique()}`,
  email_subject: 'Please sign the NDA',
  email_message: null,
  expiry_days: 30,
  reminders: { first_after_days: 2, every_days: 3 },
  signing_order: 'sequential',
  share_signing_links: true,
  roles: [
    { name: 'Client', type: 'signer', order: 1, locked: false },
    { name: 'Witness', type: 'signer', order: 2, locked: false },
    { name: 'Counsel', type: 'cc', order: 3, locked: true, recipient: { name: 'Carl Counsel', email: 'counsel@example.test' } },
  ],
  fields: [
    { role: 'Client', type: 'signature', page: 2, x: 72, y: 640, width: 200, height: 40, required: true },
    { role: 'Witness', type: 'signature', page: 2, x: 72, y: 700, width: 200, height: 40, required: true },
  ],
  ...overrides,
});

export async function createTestTemplate(stack: TestStack, companyId: string, overrides: Partial<TemplateDefinition> = {}) {
  const definition = ndaDefinition(overrides);
  const bytes = await generateDocument(definition.name, 2, nodeFontSource());
  const ctx = asOperator(stack, companyId);
  const stored = await storeTemplateDocument(ctx, { fileName: 'nda.pdf', bytes });
  return importTemplate(ctx, { definition, document: { fileName: 'nda.pdf', stored } });
}

/** A signer's link of a sent envelope: the token after `/sign/`, and the recipient it belongs to. */
export type TestLink = { recipientId: string; token: string };

/**
 * An envelope sent through the API from a fresh NDA template (two signers, Client and Witness, in
 * parallel unless the overrides say otherwise): its id and each signer's link.
 */
export async function sendTestEnvelope(
  stack: TestStack,
  company: TestCompany,
  template: Partial<TemplateDefinition> = { signing_order: 'parallel' },
): Promise<{ envelopeId: string; links: TestLink[] }> {
  const { id } = await createTestTemplate(stack, company.id, template);
  const tag = unique();
  const answer = await call(stack, 'POST', '/v1/envelopes/from-template', {
    token: company.owner.token,
    body: {
      template_id: id,
      recipients: [
        { role: 'Client', name: 'Cleo Client', email: `cleo-${tag}@example.test` },
        { role: 'Witness', name: 'Walt Witness', email: `walt-${tag}@example.test` },
      ],
    },
  });
  if (answer.status !== 201) throw new Error(`The send answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  const links = (answer.body.signing_urls as { recipient_id: string; signing_url: string | null }[])
    .filter((entry) => entry.signing_url !== null)
    .map((entry) => ({ recipientId: entry.recipient_id, token: entry.signing_url!.split('/sign/')[1]! }));
  return { envelopeId: answer.body.envelope_id as string, links };
}
