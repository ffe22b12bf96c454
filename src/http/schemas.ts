/** zod schemas shared by several endpoints; each validates input and documents it at once. */
import { z } from '@hono/zod-openapi';
import { isMultiLineText, isSingleLineText } from '../lib/single-line-text.js';
import { hasLoneSurrogate, hasNul } from '../lib/storable-text.js';

const notBlank = (value: string) => value.trim().length > 0;

/**
 * Every string a request brings: at most `max` characters, and text the database can store. NUL
 * and unpaired surrogates are refused here, with the field's path, because Postgres would refuse
 * them later as an error of ours.
 */
export const text = (max: number) =>
  z
    .string()
    .max(max)
    // A NUL is told once, by its own name, not again by the control-character rule of a field.
    .refine((value) => !hasNul(value), { message: 'Must not contain the NUL character (U+0000).', abort: true })
    .refine((value) => !hasLoneSurrogate(value), { message: 'Must be valid Unicode: it contains an unpaired surrogate.' });

/**
 * A required string of 1 to `max` characters that is not only white space, with no rule of lines:
 * for a value matched against stored names (a role of the template), never stored itself, so that
 * a near miss is told as such.
 */
export const requiredText = (max: number) => text(max).refine(notBlank, { message: 'Must not be empty or blank.' });

/**
 * The messages of the text rules of `lib/single-line-text.ts`, for every schema that applies them
 * (the API's below, the seed file's).
 */
export const singleLineRule = {
  message: 'Must be a single line: no line breaks, tabs or other control characters (U+0000–U+001F, U+007F–U+009F, U+2028, U+2029).',
} as const;
export const multiLineRule = {
  message: 'Must not contain control characters other than line breaks (LF or CRLF) and tabs.',
} as const;

/** Text of one line, as a subject, a title, a name or an address is: it may reach an e-mail header. */
export const singleLineText = (max: number) => text(max).refine(isSingleLineText, singleLineRule);
/** The same, required: 1 to `max` characters that are not only white space. */
export const requiredSingleLineText = (max: number) => singleLineText(max).refine(notBlank, { message: 'Must not be empty or blank.' });

/** Text of several lines, as an e-mail message is: LF, CRLF and tabs are kept. */
export const multiLineText = (max: number) => text(max).refine(isMultiLineText, multiLineRule);
export const requiredMultiLineText = (max: number) => multiLineText(max).refine(notBlank, { message: 'Must not be empty or blank.' });

export const emailAddress = (max = 150) => singleLineText(max).pipe(z.email({ message: 'Invalid e-mail address.' }));

/**
 * The last page a list may ask for: with 100 a page, its offset stays far inside what a query
 * takes, and no real list is that long.
 */
export const MAX_PAGE = 100_000;

export const paginationQuery = z.object({
  page: z.coerce.number().int().min(1).max(MAX_PAGE).default(1).openapi({ param: { name: 'page', in: 'query' }, example: 1 }),
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
