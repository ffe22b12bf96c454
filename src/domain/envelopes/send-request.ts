/** The body of POST /v1/envelopes/from-template once its shape and bounds are valid: its schema's output. */
import type { z } from '@hono/zod-openapi';
import type { SendRequest as SendRequestSchema } from '../../../functions/envelopes/envelope-schemas.js';

export type SendRequest = z.output<typeof SendRequestSchema>;
export type RecipientInput = SendRequest['recipients'][number];
