/**
 * Who may reach the API keys pages: a signed-in user whose role may manage keys (`keys:manage`);
 * any other role gets the keys' refusal page (page-access.ts).
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from './app-env.js';
import { keysRefusedPage } from './html/keys-pages.js';
import type { Shell } from './html/layout.js';
import { permittedShell } from './page-access.js';

/** The shell of a user who may manage keys, or the answer for anyone else. */
export const keysShell = (c: Context<CompanyAppEnv>): Promise<Shell | Response> => permittedShell(c, 'keys:manage', keysRefusedPage);
