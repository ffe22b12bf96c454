/** Reading a form posted to one of our pages, the same for each: its entries, and its one `form_token`. */
import type { Context } from 'hono';
import type { AppEnv } from './app-env.js';

export type FormEntries = [string, FormDataEntryValue][];

/** The posted form's entries, or null when the body is not a form (another content type, malformed multipart). */
export async function readForm(c: Context<AppEnv>): Promise<FormEntries | null> {
  const type = c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded' && type !== 'multipart/form-data') return null;
  try {
    return [...(await c.req.formData()).entries()];
  } catch {
    return null;
  }
}

/** The one `form_token` posted, if there is exactly one and it is text. */
export function formTokenOf(entries: FormEntries): string | undefined {
  const tokens = entries.filter(([key]) => key === 'form_token').map(([, value]) => value);
  return tokens.length === 1 && typeof tokens[0] === 'string' ? tokens[0] : undefined;
}

/** The one text value of a field, if it was sent exactly once. */
export function singleValue(entries: FormEntries, name: string): string | undefined {
  const values = entries.filter(([key]) => key === name).map(([, value]) => value);
  return values.length === 1 && typeof values[0] === 'string' ? values[0] : undefined;
}
