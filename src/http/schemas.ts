/**
 * zod schemas shared by several endpoints; each validates input and documents it at once. The text
 * rules are the domain's own (src/domain/shared/text-fields.ts), re-exported for the endpoints.
 */
import { z } from '@hono/zod-openapi';
export {
  emailAddress,
  multiLineText,
  requiredMultiLineText,
  requiredSingleLineText,
  requiredText,
  singleLineText,
  text,
} from '../domain/shared/text-fields.js';

/**
 * The last page a list may ask for: with 100 a page, its offset stays far inside what a query
 * takes, and no real list is that long.
 */
export const MAX_PAGE = 100_000;

export const paginationQuery = z.object({
  page: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE)
    .default(1)
    .openapi({ param: { name: 'page', in: 'query' }, example: 1 }),
  per_page: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(25)
    .openapi({ param: { name: 'per_page', in: 'query' }, example: 25 }),
});
export type PageRequest = z.infer<typeof paginationQuery>;

export const paginationSchema = z
  .object({ page: z.number().int(), per_page: z.number().int(), total: z.number().int(), total_pages: z.number().int() })
  .openapi('Pagination');

export const listOf = <T extends z.ZodType>(record: T) => z.object({ data: z.array(record), pagination: paginationSchema });

export const timestamp = z.string().openapi({ format: 'date-time', example: '2026-11-22T12:00:00.000Z' });
