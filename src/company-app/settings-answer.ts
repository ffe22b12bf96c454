/**
 * The settings page's answer, the same after a GET and after a form with a mistake: the brand,
 * the embedding origins and the usage, read at once (one wave after the session's), around what
 * the post brought. The page frames its e-mail preview, so its policy adds `frame-src 'self'`.
 */
import type { Context } from 'hono';
import { getBrand } from '../domain/companies/brand.js';
import { getEmbedding } from '../domain/companies/embedding.js';
import { companyUsage } from '../domain/quota/company-usage.js';
import type { CompanyAppEnv } from './app-env.js';
import type { Shell } from './html/layout.js';
import { type SettingsView, settingsPage } from './html/settings-page.js';
import { appMessages } from './messages.js';
import { APP_CSP } from './security.js';
import { companyReads } from './page-access.js';

export const SETTINGS_CSP = `${APP_CSP}; frame-src 'self'`;

export async function settingsAnswer(
  c: Context<CompanyAppEnv>,
  shell: Shell,
  posted: Omit<SettingsView, 'brand' | 'origins' | 'usage'> = {},
  status: 200 | 422 = 200,
): Promise<Response> {
  const ctx = companyReads(c, shell);
  const [brand, embedding, usage] = await Promise.all([getBrand(ctx), getEmbedding(ctx), companyUsage(ctx)]);
  c.set('pagePolicy', { contentSecurityPolicy: SETTINGS_CSP, frameOptions: 'DENY' });
  return c.html(settingsPage(appMessages(), shell, { brand, origins: embedding.allowed_origins, usage, ...posted }), status);
}
