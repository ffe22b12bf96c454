/**
 * GET /app/envelopes/{id}/document.pdf: the finished PDF of a completed envelope of the company,
 * streamed from the document store (whole or by range); another company's envelope answers 404,
 * one without a finished PDF 409, each with a page.
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { envelopeNotFoundAnswer, showEnvelope } from '../../src/company-app/envelope-answer.js';
import { toSignIn } from '../../src/company-app/return-path.js';
import { shellOf } from '../../src/company-app/session.js';
import { finishedDocument } from '../../src/domain/envelopes/finished-document.js';
import { DomainError } from '../../src/errors.js';
import { documentAnswer } from '../../src/http/document-answer.js';

export async function downloadEnvelopeDocument(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await shellOf(c);
  if (!shell) return toSignIn(c);
  const envelopeId = c.req.param('id') ?? '';
  const services = c.get('services');
  try {
    const document = await finishedDocument({ services, now: services.clock.now() }, { envelopeId, companyId: shell.session.user.companyId });
    return await documentAnswer(services.documents, document, c.req.raw.headers, {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${document.fileName}"`,
      'X-Document-SHA256': document.sha256,
    });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    if (err.code === 'envelope_not_found') return envelopeNotFoundAnswer(c, shell);
    if (err.code === 'conflict') return showEnvelope(c, shell, envelopeId, undefined, 409);
    throw err;
  }
}
