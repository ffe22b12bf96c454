import { z } from '@hono/zod-openapi';
import { validationFailed } from '../../src/errors.js';
import { MAX_LOGO_BYTES, MAX_LOGO_SIDE } from '../../src/lib/brand-logo.js';
import { MAX_DEFAULT_MESSAGE_CHARS, MAX_DISPLAY_NAME_CHARS } from '../../src/domain/companies/brand.js';
import { languageSetting, languageTag } from '../../src/http/language-field.js';
import { multiLineText, requiredSingleLineText } from '../../src/http/schemas.js';

/** Base64 of the largest logo, with room for the line breaks `base64` writes every 76 characters. */
const MAX_LOGO_BASE64_CHARS = Math.ceil(MAX_LOGO_BYTES / 3) * 4 + 10_000;

export const BrandInput = z
  .strictObject({
    display_name: requiredSingleLineText(MAX_DISPLAY_NAME_CHARS)
      .nullable()
      .optional()
      .openapi({ description: 'The name e-mails come from and the signing page shows; `null` falls back to the company name.' }),
    logo: z
      .string()
      .max(MAX_LOGO_BASE64_CHARS)
      .regex(/^[A-Za-z0-9+/\s]*={0,2}\s*$/, { message: 'Must be the image file in base64.' })
      .nullable()
      .optional()
      .openapi({
        description: `The image file in base64: a PNG or JPEG of at most ${MAX_LOGO_BYTES} bytes and ${MAX_LOGO_SIDE}×${MAX_LOGO_SIDE} pixels, told by its content. SVG is refused. \`null\` removes the logo.`,
      }),
    accent_color: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, { message: 'Must be a colour as #rrggbb.' })
      .nullable()
      .optional()
      .openapi({ description: 'The colour of buttons in e-mails and on the signing page, as `#rrggbb`.', example: '#0b7a53' }),
    default_email_message: multiLineText(MAX_DEFAULT_MESSAGE_CHARS).nullable().optional(),
    language: languageSetting("The company's language of the signing page (and e-mails) when the template names none."),
  })
  .openapi('BrandInput', { description: 'Fields left out are kept as they are; `null` clears one.' });

export const BrandRecord = z
  .object({
    company_id: z.string(),
    display_name: z.string().nullable(),
    accent_color: z.string().nullable(),
    default_email_message: z.string().nullable(),
    language: languageTag.nullable(),
    logo: z
      .object({
        type: z.enum(['image/png', 'image/jpeg']),
        url: z.string().openapi({ description: 'Where e-mails and the signing page load it; changes when the logo does.' }),
        bytes: z.number().int(),
      })
      .nullable(),
  })
  .openapi('Brand');

/** The bytes of a base64 text the schema above accepted (white space is ignored). */
export function bytesOfBase64(text: string): Uint8Array {
  let binary: string;
  try {
    binary = atob(text.replace(/\s+/g, ''));
  } catch {
    // A length that no base64 text has (one character past a group of four).
    throw validationFailed([{ path: 'logo', message: 'Must be the image file in base64.' }]);
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
