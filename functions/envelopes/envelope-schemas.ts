import { z } from '@hono/zod-openapi';
import type { SendRequest as DomainSendRequest } from '../../src/domain/envelopes/send-request.js';
import { emailAddress, requiredMultiLineText, requiredSingleLineText, requiredText, singleLineText, timestamp } from '../../src/http/schemas.js';

const RecipientInput = z
  .strictObject({
    role: requiredText(25).openapi({ description: 'Name of an unlocked role of the template, exactly as the template spells it.' }),
    name: requiredSingleLineText(120),
    email: emailAddress(150),
    contact_number: singleLineText(20).nullable().optional(),
  })
  .openapi('RecipientInput');

export const SendRequest = z
  .strictObject({
    template_id: z.uuid({ message: 'Must be a template id (a UUID).' }),
    recipients: z.array(RecipientInput).min(1).max(50).openapi({ description: 'One recipient per unlocked role of the template.' }),
    sender_email: emailAddress(150).optional().openapi({ description: 'An active user of the company with an e-signing seat; default the key owner.' }),
    title: requiredSingleLineText(250).optional().openapi({ description: 'Default: the template name. One line: no control characters.' }),
    email_subject: requiredSingleLineText(300).optional().openapi({ description: "Default: the template's subject. One line: no control characters." }),
    email_message: requiredMultiLineText(5000).optional().openapi({
      description:
        "Default: the template's message, else the active brand's default message. Line breaks (LF, CRLF) and tabs are kept; no other control characters.",
    }),
  })
  .openapi('SendRequest');

/** What the schema yields is the domain's SendRequest: a field added to either alone fails the typecheck. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
export type SendRequestIsTheDomains = Holds<Same<z.output<typeof SendRequest>, DomainSendRequest>>;

export const SigningLinkEntry = z
  .object({
    recipient_id: z.string(),
    name: z.string(),
    email: z.string(),
    recipient_type: z.enum(['need-to-sign', 'receives-copy']),
    signing_url: z.string().nullable().openapi({ description: 'A bearer credential: whoever holds it can sign. Null for recipients who do not sign.' }),
  })
  .openapi('SigningLinkEntry');

export const Envelope = z
  .object({
    envelope_id: z.string(),
    status: z.literal('sent'),
    title: z.string(),
    sender: z.object({ email: z.string() }),
    recipients: z.array(z.object({ role: z.string(), name: z.string(), email: z.string() })),
    signing_urls: z.array(SigningLinkEntry).nullable(),
    created_at: timestamp,
  })
  .openapi('Envelope');

export const IdempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x21-\x7e]+$/, 'Printable ASCII without spaces.')
    .optional()
    .openapi({
      param: { name: 'idempotency-key', in: 'header' },
      description:
        'Makes a retried send safe: the same key with the same body within 24 hours returns the first answer (same envelope, quota taken once); with another body, 422 idempotency_key_reused.',
    }),
});
