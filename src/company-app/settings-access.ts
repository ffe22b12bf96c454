/**
 * Who may reach the settings pages: a signed-in user whose role may manage the settings
 * (`settings:manage`, owners and administrators); any other role gets the settings' refusal page
 * (page-access.ts).
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from './app-env.js';
import type { Shell } from './html/layout.js';
import { settingsRefusedPage } from './html/settings-page.js';
import { permittedShell } from './page-access.js';

/** The shell of a user who may manage the settings, or the answer for anyone else. */
export const settingsShell = (c: Context<CompanyAppEnv>): Promise<Shell | Response> => permittedShell(c, 'settings:manage', settingsRefusedPage);
