/**
 * GET /app/settings/email-preview: the signing e-mail's HTML as a send makes it, for the settings
 * page's frame. An e-mail's styles are inline (mail clients drop style sheets), which the
 * application's policy refuses; so this one answer has a policy of its own: inline styles and the
 * logo's address only, no script, no form, no plugin, and `sandbox`, so that even opened on its
 * own it runs as a page of no origin. Only our own pages may frame it.
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { appMessages } from '../../src/company-app/messages.js';
import { settingsShell } from '../../src/company-app/settings-access.js';
import { signingEmailPreview } from '../../src/domain/emails/signing-email-preview.js';
import { contentSecurityPolicy } from '../../src/http/page-security.js';
import { companyReads } from '../../src/company-app/page-access.js';

export async function showEmailPreview(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await settingsShell(c);
  if (shell instanceof Response) return shell;
  const m = appMessages();
  const email = await signingEmailPreview(companyReads(c, shell), {
    senderEmail: shell.session.email,
    title: m.text('settings.preview.sampleTitle'),
    subject: m.text('settings.preview.sampleSubject'),
  });
  const origin = new URL(c.get('services').config.baseUrl).origin;
  c.set('pagePolicy', {
    contentSecurityPolicy: `${contentSecurityPolicy({
      'default-src': "'none'",
      'style-src': "'unsafe-inline'",
      // The logo's address is the service's own (brand-look.ts), under BASE_URL.
      'img-src': `${origin} data:`,
      'form-action': "'none'",
      'base-uri': "'none'",
      'frame-ancestors': "'self'",
    })}; sandbox`,
    frameOptions: 'SAMEORIGIN',
  });
  return c.html(email.html);
}
