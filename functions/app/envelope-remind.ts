/**
 * POST /app/envelopes/{id}/remind: `form_token` and `recipient_id`, a signer whose turn it is. Sent:
 * 303 to the envelope's page, which says so. Refused: the page with the reason (429 within the hour
 * of the last reminder by hand, 409 when it is not their turn), 403 for a role that may not, 404 for
 * another company's envelope.
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { envelopeNotFoundAnswer, envelopeRefusedAnswer, showEnvelope } from '../../src/company-app/envelope-answer.js';
import { appUserOf, userVerbContext } from '../../src/company-app/envelope-actor.js';
import { toSignIn } from '../../src/company-app/return-path.js';
import { shellOf } from '../../src/company-app/session.js';
import { remindRecipient } from '../../src/domain/envelopes/remind-recipient.js';
import { DomainError } from '../../src/errors.js';
import { readForm, singleValue } from '../../src/http/page-forms.js';

export async function remindRecipientHandler(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await shellOf(c);
  if (!shell) return toSignIn(c);
  const envelopeId = c.req.param('id') ?? '';
  const entries = (await readForm(c)) ?? [];
  const recipientId = singleValue(entries, 'recipient_id') ?? '';
  try {
    await remindRecipient(userVerbContext(c, shell), { user: appUserOf(shell), envelopeId, recipientId });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    if (err.code === 'envelope_not_found') return envelopeNotFoundAnswer(c, shell);
    if (err.code === 'permission_denied') return envelopeRefusedAnswer(c, shell);
    if (err.code === 'rate_limited') return showEnvelope(c, shell, envelopeId, { kind: 'remindTooSoon' }, 429);
    if (err.code === 'conflict') return showEnvelope(c, shell, envelopeId, { kind: 'notTheirTurn' }, 409);
    throw err;
  }
  return c.redirect(`/app/envelopes/${envelopeId}?done=reminded`, 303);
}
