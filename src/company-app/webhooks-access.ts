/**
 * Who may reach the webhooks pages: every signed-in user sees the subscriptions and their
 * deliveries (`webhooks:read`); only a role that may manage them (`webhooks:manage`) opens the
 * forms or acts, and any other gets the webhooks' refusal page (page-access.ts).
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from './app-env.js';
import type { Shell } from './html/layout.js';
import { webhooksRefusedPage } from './html/webhook-pages.js';
import { permittedShell } from './page-access.js';

/** The shell of a user who may see the webhooks, or the answer for anyone else. */
export const webhooksReadShell = (c: Context<CompanyAppEnv>): Promise<Shell | Response> => permittedShell(c, 'webhooks:read', webhooksRefusedPage);

/** The shell of a user who may manage the webhooks, or the answer for anyone else. */
export const webhooksManageShell = (c: Context<CompanyAppEnv>): Promise<Shell | Response> => permittedShell(c, 'webhooks:manage', webhooksRefusedPage);
