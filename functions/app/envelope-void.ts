/**
 * POST /app/envelopes/{id}/void: `form_token` and `reason` (required, at most 500 characters).
 * Voided: 303 to the envelope's page, which says so. Refused: the page with the reason (422 for
 * the reason, 409 for an envelope no longer out), 403 for a role that may not, 404 for another
 * company's envelope.
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { envelopeNotFoundAnswer, envelopeRefusedAnswer, showEnvelope } from '../../src/company-app/envelope-answer.js';
import { appUserOf, userVerbContext } from '../../src/company-app/envelope-actor.js';
import { VOID_REASON_MAX } from '../../src/company-app/html/envelope-page.js';
import { toSignIn } from '../../src/company-app/return-path.js';
import { shellOf } from '../../src/company-app/session.js';
import { assertMayActOn, voidAsUser } from '../../src/domain/envelopes/envelope-actions.js';
import { DomainError } from '../../src/errors.js';
import { readForm, singleValue } from '../../src/http/page-forms.js';

export async function voidEnvelopeHandler(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await shellOf(c);
  if (!shell) return toSignIn(c);
  const envelopeId = c.req.param('id') ?? '';
  const entries = (await readForm(c)) ?? [];
  const reason = (singleValue(entries, 'reason') ?? '').trim();
  try {
    if (reason === '' || reason.length > VOID_REASON_MAX) {
      // Checked after the role and the company: a refused role learns nothing from the form.
      await assertMayActOn(userVerbContext(c, shell), appUserOf(shell), envelopeId);
      return showEnvelope(c, shell, envelopeId, { kind: reason === '' ? 'reasonMissing' : 'reasonTooLong', reason: reason.slice(0, VOID_REASON_MAX * 2) }, 422);
    }
    await voidAsUser(userVerbContext(c, shell), { user: appUserOf(shell), envelopeId, reason });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    if (err.code === 'envelope_not_found') return envelopeNotFoundAnswer(c, shell);
    if (err.code === 'permission_denied') return envelopeRefusedAnswer(c, shell);
    if (err.code === 'conflict') return showEnvelope(c, shell, envelopeId, { kind: 'cannotVoid' }, 409);
    throw err;
  }
  return c.redirect(`/app/envelopes/${envelopeId}?done=voided`, 303);
}
