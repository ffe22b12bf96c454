/**
 * The Hono environment of the signing page: the app's, and what one request to a link reads once
 * and shares between the guard, which asks first, and the handler it lets through.
 */
import type { LinkHead } from '../domain/signing/resolve-link.js';
import type { AppEnv } from '../http/app-env.js';

export type SigningEnv = {
  Variables: AppEnv['Variables'] & {
    /** The link's first read (security.ts `linkHeadOf`), for the token it was made for. */
    linkHead?: { token: string; head: Promise<LinkHead | null> };
    /** The origins the link's company allows to frame its pages (embedding.ts `frameOriginsOf`). */
    frameOrigins?: Promise<string[]>;
  };
};
