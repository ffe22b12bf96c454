/**
 * What a failure under `/sign/` answers: a page, never the API's JSON, and never the link's token
 * in the log. The token is a bearer credential; an error's message or stack may quote the path,
 * so every text of it is scrubbed before it is logged.
 */
import type { Context, ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { isDataException } from '../data/errors.js';
import { DomainError } from '../errors.js';
import { logError } from '../lib/log-error.js';
import type { SigningEnv } from './signing-env.js';
import { requestIdOf } from '../http/request-log.js';
import { pageMessages } from './language.js';
import { errorPage, tooLargePage, unreadableFormPage } from './html/notice-pages.js';
import { tokenInPath } from './security.js';

export const signingErrorHandler: ErrorHandler<SigningEnv> = (err, c) => {
  if (err instanceof HTTPException && err.status === 413) return c.html(tooLargePage(pageMessages(c)), 413);
  const secrets = secretsOf(c);
  // Logged as the API logs it: the database refused a value our checks let through.
  if (isDataException(err)) {
    logError(`the database refused a value on ${where(c)}`, scrubbed(err, secrets));
    return c.html(unreadableFormPage(pageMessages(c)), 422);
  }
  const retryable = err instanceof DomainError && err.code === 'service_unavailable';
  if (retryable) logError(`a dependency failed on ${where(c)}; the signer may retry`, scrubbed(err.cause ?? err, secrets));
  else logError(`unhandled error on ${where(c)}`, scrubbed(err, secrets));
  return c.html(errorPage(pageMessages(c), retryable), retryable ? 503 : 500);
};

/** The token as decoded and as sent, and its MAC alone: the part that makes it a credential. */
function secretsOf(c: Context<SigningEnv>): string[] {
  const token = tokenInPath(c.req.path);
  const candidates = [token, c.req.path.split('/')[2] ?? '', token.split('.')[1] ?? ''];
  // Longest first, so that the whole token is masked before its MAC part would split it.
  return [...new Set(candidates)].filter((secret) => secret.length >= 8).sort((a, b) => b.length - a.length);
}

/** The route's pattern, never the path itself, and the request's id, which ties the log to the answer the signer saw. */
const where = (c: Context<SigningEnv>) => `${c.req.method} ${routeOf(c)} (request ${requestIdOf(c) ?? 'without id'})`;

/** The route's pattern (`/sign/:token`), never the path itself. */
function routeOf(c: Context<SigningEnv>): string {
  try {
    return c.req.routePath;
  } catch {
    return '/sign/…';
  }
}

const MASK = '[signing token]';

/**
 * A copy of the error with every occurrence of the secrets masked in what gets logged (name,
 * message, stack, a driver's cause), keeping the marks logError reads to withhold query parameters.
 */
export function scrubbed(err: unknown, secrets: string[], depth = 0): unknown {
  const mask = (text: string) => secrets.reduce((out, secret) => out.split(secret).join(MASK), text);
  if (typeof err === 'string') return mask(err);
  if (!(err instanceof Error)) return mask(String(err));
  const copy = new Error(mask(err.message));
  copy.name = mask(err.name);
  copy.stack = err.stack === undefined ? undefined : mask(err.stack);
  if ('params' in err && 'query' in err) Object.assign(copy, { params: [], query: '' });
  const cause = (err as { cause?: unknown }).cause;
  if (cause !== undefined && depth < 3) {
    const causeCopy = scrubbed(cause, secrets, depth + 1);
    const code = (cause as { code?: unknown } | null)?.code;
    if (code !== undefined && causeCopy instanceof Error) Object.assign(causeCopy, { code: typeof code === 'string' ? mask(code) : code });
    Object.assign(copy, { cause: causeCopy });
  }
  return copy;
}
