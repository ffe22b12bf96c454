import type { Hook } from '@hono/zod-openapi';
import type { AppEnv } from './app-env.js';
import { issuesFromZod } from '../domain/shared/parse-or-fail.js';
import { validationFailed } from '../errors.js';

/** The zod-openapi hook for every route: a failed parse becomes `422 validation_failed`. */
export const validationHook: Hook<unknown, AppEnv, string, unknown> = (result) => {
  if (!result.success) throw validationFailed(issuesFromZod(result.error));
};
