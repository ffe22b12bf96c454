import type { Hook } from '@hono/zod-openapi';
import type { AppEnv } from './app-env.js';
import { keyChecked } from './authenticate.js';
import { issuesFromZod } from '../domain/shared/parse-or-fail.js';
import { validationFailed } from '../errors.js';

/**
 * The zod-openapi hook for every route: a failed parse becomes `422 validation_failed`. On a route
 * whose API key is still to be checked, the check comes first, so that a revoked key, a missing
 * scope or a spent rate limit answers as it does for a valid request (401, 403, 429).
 */
export const validationHook: Hook<unknown, AppEnv, string, unknown> = async (result, c) => {
  if (result.success) return;
  if (c.get('access')) await keyChecked(c);
  throw validationFailed(issuesFromZod(result.error));
};
