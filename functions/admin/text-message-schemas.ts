import { z } from '@hono/zod-openapi';
import { MAX_TEXT_MESSAGE_COUNTRIES } from '../../src/domain/companies/text-message-countries.js';

const countries = z
  .array(z.string().max(20))
  .max(MAX_TEXT_MESSAGE_COUNTRIES, { message: `At most ${MAX_TEXT_MESSAGE_COUNTRIES} countries.` })
  .nullable();

export const TextMessagesInput = z
  .strictObject({
    allowed_countries: countries.openapi({
      description:
        'The countries (ISO 3166-1 alpha-2 codes, such as `GB`; any case) whose mobile numbers may get a verification code by text message. ' +
        'A send naming a number of another country for an `sms_code` role is refused (422 `validation_failed`), and so is a code for a ' +
        'number stored before the list changed. `null` allows every country; `[]` allows none. A code unknown to the numbering plans, ' +
        'or given twice, is refused.',
      example: ['GB', 'IE'],
    }),
  })
  .openapi('TextMessagesInput', { description: 'Replaces the whole list.' });

export const TextMessagesRecord = z
  .object({
    company_id: z.string(),
    allowed_countries: z
      .array(z.string())
      .nullable()
      .openapi({ example: ['GB', 'IE'] }),
  })
  .openapi('TextMessages');
