/**
 * The Hono environment of the company application: the app's, and what one request reads once and
 * shares between the guard, which asks first, and the page it lets through.
 */
import type { SessionRead } from '../domain/app-access/sessions.js';
import type { AppEnv } from '../http/app-env.js';

export type CompanyAppEnv = {
  Variables: AppEnv['Variables'] & {
    /** The session of the request's cookie, read by the guard (security.ts) before any page runs; read it with `sessionReadOf`. */
    session?: SessionRead;
    /** The signed-out browser's own random value (form-token.ts), once read or made. */
    browserId?: string;
    /**
     * A page's own content policy and framing where they differ from every page's (security.ts):
     * the settings page frames its e-mail preview, which has a policy of its own.
     */
    pagePolicy?: { contentSecurityPolicy: string; frameOptions: 'DENY' | 'SAMEORIGIN' };
  };
};

/** The request's session as the guard read it; none before the guard ran. */
export const sessionReadOf = (c: { get(key: 'session'): SessionRead | undefined }): SessionRead => c.get('session') ?? { kind: 'none' };
