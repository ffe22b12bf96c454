import { z } from '@hono/zod-openapi';
import { MAX_ALLOWED_ORIGINS, MAX_ORIGIN_CHARS } from '../../src/domain/companies/embedding.js';

const origins = z.array(z.string().max(MAX_ORIGIN_CHARS)).max(MAX_ALLOWED_ORIGINS, { message: `At most ${MAX_ALLOWED_ORIGINS} origins.` });

export const EmbeddingInput = z
  .strictObject({
    allowed_origins: origins.openapi({
      description:
        `The origins whose pages may show this company's signing pages in a frame, at most ${MAX_ALLOWED_ORIGINS}: ` +
        '`https://` scheme, host and port, without path, query, fragment or credentials. Stored as browsers spell an origin ' +
        '(lower-case host, default port dropped); a duplicate is refused. The host is one a Content-Security-Policy ' +
        '`frame-ancestors` source can name: a DNS name (parts of letters, digits and hyphens of at most 63 characters, ' +
        'at most 253 in all) or an IPv4 address, never an IPv6 address. `http://` only for localhost and 127.0.0.0/8, ' +
        'and only on the embedded and dev servers. `[]` allows no frame.',
      example: ['https://app.example.com'],
    }),
  })
  .openapi('EmbeddingInput', { description: 'Replaces the whole list.' });

export const EmbeddingRecord = z
  .object({
    company_id: z.string(),
    allowed_origins: z.array(z.string()).openapi({ example: ['https://app.example.com'] }),
  })
  .openapi('Embedding');
