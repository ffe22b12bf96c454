/** The seed file format (README, "Seed files"): companies with everything they hold. */
import { z } from 'zod';
import { scopes } from '../domain/auth/scopes.js';
import { TemplateDefinition } from '../domain/templates/template-definition.js';
import { userRoles } from '../data/schema.js';

const SeedDocument = z.union([
  z.strictObject({ path: z.string().min(1) }),
  z.strictObject({ generate: z.strictObject({ title: z.string().min(1).max(200), pages: z.number().int().min(1).max(100) }) }),
]);

/**
 * A template of the seed: a template definition plus where its PDF comes from. Part of the one
 * schema of the file, so that a mistake in any template is found, with its path, before anything
 * is written.
 */
const SeedTemplate = TemplateDefinition.safeExtend({ document: SeedDocument });

export const SeedFile = z.strictObject({
  companies: z.array(
    z.strictObject({
      id: z.uuid().optional(),
      name: z.string().min(1),
      api_signature_requests_per_period: z.number().int().min(0),
      brand: z.strictObject({ default_email_message: z.string().nullable().optional() }).optional(),
      users: z
        .array(
          z.strictObject({
            email: z.email(),
            name: z.string().min(1),
            role: z.enum(userRoles),
            active: z.boolean().default(true),
            esign_seat: z.boolean().default(false),
          }),
        )
        .default([]),
      api_keys: z
        .array(
          z.strictObject({
            id: z.string().min(1),
            owner: z.email(),
            key: z.string().startsWith('esk_'),
            scopes: z.array(z.enum(scopes)),
            name: z.string().optional(),
          }),
        )
        .default([]),
      templates: z.array(SeedTemplate).default([]),
      contacts: z
        .array(z.strictObject({ name: z.string().min(1), email: z.email(), contact_number: z.string().max(20).nullable().optional() }))
        .default([]),
    }),
  ),
});

export type SeedFile = z.infer<typeof SeedFile>;
