import type { Email } from '../../ports/mailer.js';
import type { BrandLook } from '../companies/brand-look.js';
import { type Letter, renderLetter, type Speech } from './letter.js';

/** An e-mail in the company's brand: from its display name, HTML with a plain-text alternative. */
export function brandedEmail(look: BrandLook, speech: Speech, letter: Letter, envelope: Pick<Email, 'to' | 'tags' | 'idempotencyKey'>): Email {
  const { text, html } = renderLetter(letter, look, speech);
  return { from: { name: look.displayName }, subject: letter.subject, text, html, ...envelope };
}
