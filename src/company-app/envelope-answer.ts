/**
 * The envelope's page as an answer, shown by its GET and again by a refused post with the reason
 * (with the post's status): the envelope read in one wave, scoped to the user's company.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DomainError } from '../errors.js';
import { companyEnvelope } from '../domain/envelopes/company-envelope.js';
import { mayActOn } from '../domain/envelopes/envelope-actions.js';
import type { CompanyAppEnv } from './app-env.js';
import { appUserOf } from './envelope-actor.js';
import { type EnvelopeNotice, envelopePage } from './html/envelope-page.js';
import type { Shell } from './html/layout.js';
import { noticePage } from './html/layout.js';
import { appMessages } from './messages.js';

export async function showEnvelope(c: Context<CompanyAppEnv>, shell: Shell, envelopeId: string, notice?: EnvelopeNotice, status: ContentfulStatusCode = 200) {
  const services = c.get('services');
  const now = services.clock.now();
  const m = appMessages();
  try {
    const envelope = await companyEnvelope({ services, now, companyId: shell.session.user.companyId }, { envelopeId });
    const mayAct = mayActOn(appUserOf(shell), { senderUserId: envelope.sender.userId });
    return c.html(envelopePage(m, shell, { envelope, mayAct, now, ...(notice ? { notice } : {}) }), status);
  } catch (err) {
    if (err instanceof DomainError && err.code === 'envelope_not_found') return envelopeNotFoundAnswer(c, shell);
    throw err;
  }
}

/** The application's 404 page, in the shell: another company's envelope answers as an unknown one. */
export function envelopeNotFoundAnswer(c: Context<CompanyAppEnv>, shell: Shell) {
  const m = appMessages();
  return c.html(noticePage({ m, title: m.text('notFound.title'), lead: m.text('notFound.lead'), tone: 'warning', shell }), 404);
}

/** A post the user's role does not allow on this envelope (a forged one: the page shows no such button). */
export function envelopeRefusedAnswer(c: Context<CompanyAppEnv>, shell: Shell) {
  const m = appMessages();
  return c.html(noticePage({ m, title: m.text('envelope.refused.title'), lead: m.text('envelope.refused.lead'), tone: 'warning', shell }), 403);
}
