/** zod's problems as the issues of a `validation_failed` error, each with its field path. */
import type { z } from 'zod';
import { type Issue, validationFailed } from '../../errors.js';

/** `recipients[0].email` from `['recipients', 0, 'email']`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, part) => {
    if (typeof part === 'number') return `${out}[${part}]`;
    return out ? `${out}.${String(part)}` : String(part);
  }, '');
}

/** Every zod problem as one issue with its field path; an unknown field is named by its own path. */
export function issuesFromZod(error: z.ZodError): Issue[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: formatPath([...issue.path, key]), message: 'Unknown field.' }));
    }
    return [{ path: formatPath(issue.path), message: issue.message }];
  });
}

/** Parses `value` with `schema`, or throws `validation_failed` with paths under `prefix`. */
export function parseOrFail<T extends z.ZodType>(schema: T, value: unknown, prefix = ''): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw validationFailed(
    issuesFromZod(result.error).map((issue) => ({
      ...issue,
      path: prefix ? (issue.path ? `${prefix}.${issue.path}`.replace('.[', '[') : prefix) : issue.path,
    })),
  );
}
