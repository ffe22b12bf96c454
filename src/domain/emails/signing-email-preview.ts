/**
 * The e-mail that asks a signer to sign, as the company's brand makes it today: the same look, the
 * same words in the company's language and the same letter as a send's (signing-email.ts), with
 * the company's default message, and an example envelope, sender and link.
 */
import { brandLook } from '../companies/brand-look.js';
import { getBrand } from '../companies/brand.js';
import type { CompanyReadContext } from '../read-context.js';
import { brandedEmail } from './branded-email.js';
import { emailWordsFor } from './email-words.js';

export type PreviewExample = { senderEmail: string; title: string; subject: string };

/** How long the example envelope stays open, as a send's default would say it. */
const EXAMPLE_DAYS_OPEN = 30;

export async function signingEmailPreview(ctx: CompanyReadContext, example: PreviewExample): Promise<{ subject: string; html: string }> {
  const { services, companyId, now } = ctx;
  const [look, brand] = await Promise.all([brandLook(services, companyId), getBrand(ctx)]);
  const { words, ...speech } = emailWordsFor({ company: look.language });
  const letter = words.signingRequest({
    from: look.displayName,
    senderEmail: example.senderEmail,
    title: example.title,
    subject: example.subject,
    message: brand.default_email_message,
    link: `${services.config.baseUrl}/sign/example`,
    expiresAt: new Date(now.getTime() + EXAMPLE_DAYS_OPEN * 24 * 3600 * 1000),
  });
  const email = brandedEmail(look, speech, letter, { to: { name: '', email: 'signer@example.com' }, idempotencyKey: 'preview' });
  return { subject: email.subject, html: email.html ?? '' };
}
