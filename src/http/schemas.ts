/** zod schemas shared by several endpoints; each validates input and documents it at once. */
import { z } from '@hono/zod-openapi';

const notBlank = (value: string) => value.trim().length > 0;

/** A required string of 1 to `max` characters that is not only white space (one issue when empty). */
export const requiredText = (max: number) => z.string().max(max).refine(notBlank, { message: 'Must not be empty or blank.' });

export const emailAddress = (max = 150) => z.string().max(max).pipe(z.email({ message: 'Invalid e-mail address.' }));

export const paginationQuery = z.object({
  page: z.coerce.number().int().min(1).default(1).openapi({ param: { name: 'page', in: 'query' }, example: 1 }),
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
