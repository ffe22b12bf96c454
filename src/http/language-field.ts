import { z } from '@hono/zod-openapi';
import { LANGUAGES } from '../i18n/languages.js';

/**
 * A language of e-mails and the signing page, as the admin API and the seed file take it: one of
 * the twelve tags exactly (`zh-Hans`, not `zh` or `zh-CN`), anything else 422 validation_failed.
 */
export const languageTag = z.enum(LANGUAGES, { message: `Must be one of ${LANGUAGES.join(', ')}.` });

export const languageSetting = (what: string) =>
  languageTag
    .nullable()
    .optional()
    .openapi({ description: `${what} One of ${LANGUAGES.join(', ')}; \`null\` clears it.`, example: 'de' });
