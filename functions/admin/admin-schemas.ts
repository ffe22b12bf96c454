import { z } from '@hono/zod-openapi';
import { scopes } from '../../src/domain/auth/scopes.js';
import { userRoles } from '../../src/data/schema.js';
import { emailAddress, multiLineText, requiredSingleLineText, singleLineText, timestamp } from '../../src/http/schemas.js';
import { envelopeStatuses } from '../../src/data/schema.js';

export const adminSecurity = [{ adminToken: [] }];

export const CompanyInput = z
  .strictObject({
    id: z.uuid().optional(),
    name: requiredSingleLineText(200),
    api_signature_requests_per_period: z.number().int().min(0).max(10_000_000),
    brand: z.strictObject({ default_email_message: multiLineText(5000).nullable().optional() }).optional(),
  })
  .openapi('CompanyInput');

export const CompanyRecord = z
  .object({
    id: z.string(),
    name: z.string(),
    api_signature_requests_per_period: z.number().int(),
    brand: z.object({ default_email_message: z.string().nullable() }),
    created_at: timestamp,
  })
  .openapi('Company');

export const UserInput = z
  .strictObject({
    name: requiredSingleLineText(120),
    role: z.enum(userRoles),
    active: z.boolean().default(true),
    esign_seat: z.boolean().default(false),
  })
  .openapi('UserInput');

export const UserRecord = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    role: z.enum(userRoles),
    active: z.boolean(),
    esign_seat: z.boolean(),
    created_at: timestamp,
  })
  .openapi('User');

export const ApiKeyInput = z
  .strictObject({
    owner: emailAddress(150).openapi({ description: 'E-mail of the user who owns the key.' }),
    scopes: z.array(z.enum(scopes)).min(1),
    name: singleLineText(100).nullable().optional(),
  })
  .openapi('ApiKeyInput');

export const ApiKeyCreated = z
  .object({
    id: z.string(),
    key: z.string().openapi({ description: 'The plain key: shown only in this answer.' }),
    name: z.string().nullable(),
    prefix: z.string(),
    owner: z.string(),
    scopes: z.array(z.enum(scopes)),
    created_at: timestamp,
  })
  .openapi('ApiKeyCreated');

export const companyIdParam = z.object({ companyId: z.string().openapi({ format: 'uuid' }) });
export const apiKeyIdParam = z.object({ id: z.string() });

export const ApiKeySummary = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    prefix: z.string().openapi({ description: 'The start of the key, to recognise it; the key itself is never shown again.' }),
    owner: z.string(),
    scopes: z.array(z.enum(scopes)),
    status: z.enum(['active', 'revoked']),
    created_at: timestamp,
    rotated_at: timestamp.nullable(),
    revoked_at: timestamp.nullable(),
  })
  .openapi('ApiKeySummary');

export const EnvelopeSummary = z
  .object({
    envelope_id: z.string(),
    title: z.string(),
    status: z.enum(envelopeStatuses),
    template_id: z.string(),
    sender: z.object({ email: z.string() }),
    created_at: timestamp,
    expires_at: timestamp.nullable(),
    completed_at: timestamp.nullable(),
    voided_at: timestamp.nullable(),
  })
  .openapi('EnvelopeSummary');
