import { z } from '@hono/zod-openapi';
import { emailAddress, requiredSingleLineText, singleLineText, timestamp } from '../../src/http/schemas.js';

export const ContactRecord = z
  .object({
    id: z.string().openapi({ format: 'uuid' }),
    name: z.string(),
    email: z.string(),
    contact_number: z.string().nullable(),
    created_at: timestamp,
  })
  .openapi('Contact');

export const NewContact = z
  .strictObject({
    name: requiredSingleLineText(120),
    email: emailAddress(150),
    contact_number: singleLineText(20).nullable().optional(),
  })
  .openapi('NewContact');
