/** The seed file format (docs/admin.md, "Seed files"): companies with everything they hold. */
import { z } from 'zod';
import { scopes } from '../domain/auth/scopes.js';
import { TemplateDefinition } from '../domain/templates/template-definition.js';
import { userRoles } from '../data/schema.js';
import { multiLineRule, singleLineRule } from '../domain/shared/text-fields.js';
import { isMultiLineText, isSingleLineText } from '../lib/single-line-text.js';
import { MAX_DISPLAY_NAME_CHARS } from '../domain/companies/brand.js';

/** The API's text rules, without its length bounds (a seed is the operator's own file). */
const oneLine = () => z.string().refine(isSingleLineText, singleLineRule);
const lines = () => z.string().refine(isMultiLineText, multiLineRule);
const address = () => z.email().refine(isSingleLineText, singleLineRule);

const SeedDocument = z.union([
  z.strictObject({ path: z.string().min(1) }),
  z.strictObject({ generate: z.strictObject({ title: oneLine().min(1).max(200), pages: z.number().int().min(1).max(100) }) }),
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
      name: oneLine().min(1),
      api_signature_requests_per_period: z.number().int().min(0),
      brand: z
        .strictObject({
          default_email_message: lines().nullable().optional(),
          // As the admin API's brand takes them; the logo is a PNG or JPEG file beside the seed.
          display_name: oneLine().min(1).max(MAX_DISPLAY_NAME_CHARS).optional(),
          accent_color: z
            .string()
            .regex(/^#[0-9a-fA-F]{6}$/, 'Must be a colour as #rrggbb.')
            .optional(),
          logo: z.strictObject({ path: z.string().min(1) }).optional(),
        })
        .optional(),
      users: z
        .array(
          z.strictObject({
            email: address(),
            name: oneLine().min(1),
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
            owner: address(),
            key: z.string().startsWith('esk_'),
            scopes: z.array(z.enum(scopes)),
            name: oneLine().optional(),
          }),
        )
        .default([]),
      templates: z.array(SeedTemplate).default([]),
      contacts: z.array(z.strictObject({ name: oneLine().min(1), email: address(), contact_number: oneLine().max(20).nullable().optional() })).default([]),
    }),
  ),
});

export type SeedFile = z.infer<typeof SeedFile>;
