/**
 * The rules every text the service is given must meet, as zod schemas: the API's bodies, the
 * template definitions and the seed file apply the same ones. Plain zod: the endpoints add their
 * OpenAPI descriptions on top (src/http/schemas.ts re-exports these for them).
 */
import { z } from 'zod';
import { isMultiLineText, isSingleLineText } from '../../lib/single-line-text.js';
import { hasLoneSurrogate, hasNul } from '../../lib/storable-text.js';

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
 * (those below, the seed file's).
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
