/**
 * GET /sign/{token}/document.pdf: the document as the signer sees it (the original while signing,
 * the finished PDF once completed), streamed, a byte range when one is asked for (a viewer fetching
 * pages as it shows them); `?download=1` asks the browser to save it. A role that asks
 * for a code gets 403 and a page saying so until this browser entered it.
 *
 * `?filled=1` (the page's "Open the PDF" and "Download the PDF" once earlier signers have put
 * something on the document): for the signer whose turn it is, the original followed by an update
 * drawing those values as the finished PDF will, always whole (no ranges: see documentFollowedBy);
 * with nothing to draw, or in any other state, the same answer as without it. The page's viewer
 * keeps loading the original, over which the page draws those values itself.
 */
import type { Context } from 'hono';
import { signingDocument } from '../../src/domain/signing/signing-document.js';
import { documentAnswer, documentFollowedBy } from '../../src/http/document-answer.js';
import { VerificationRequired } from '../../src/domain/signing/verification-gate.js';
import { isTokenShaped } from '../../src/signing-page/forms.js';
import { pageMessages } from '../../src/signing-page/language.js';
import { invalidLinkPage } from '../../src/signing-page/html/notice-pages.js';
import { linkHeadOf } from '../../src/signing-page/security.js';
import { documentLockedPage } from '../../src/signing-page/html/verification-page.js';
import { signerContext, tokenOf } from '../../src/signing-page/link-request.js';
import type { SigningEnv } from '../../src/signing-page/signing-env.js';

export async function getSigningDocument(c: Context<SigningEnv>): Promise<Response> {
  const token = tokenOf(c);
  if (!isTokenShaped(token)) return c.html(invalidLinkPage(pageMessages(c)), 404);
  const filled = c.req.query('filled') === '1';
  const document = await signingDocument(signerContext(c), { token, head: linkHeadOf(c, token), filled }).catch((err: unknown) => {
    if (err instanceof VerificationRequired) return 'locked' as const;
    throw err;
  });
  if (document === 'locked') return c.html(documentLockedPage(pageMessages(c)), 403);
  if (!document) return c.html(invalidLinkPage(pageMessages(c)), 404);
  const disposition = c.req.query('download') === '1' ? 'attachment' : 'inline';
  const headers = { 'Content-Type': 'application/pdf', 'Content-Disposition': contentDisposition(disposition, document.fileName) };
  const { documents } = c.get('services');
  if (document.appended) return documentFollowedBy(documents, document, document.appended, headers);
  return documentAnswer(documents, document, c.req.raw.headers, headers);
}

/**
 * `filename` in plain ASCII for every browser, `filename*` with the real name in UTF-8 for those
 * that read it. The name comes from the template's uploader: quotes, slashes and controls go.
 */
export function contentDisposition(type: 'attachment' | 'inline', fileName: string): string {
  const cleaned =
    fileName
      .replace(/[\u0000-\u001f\u007f"\\/]/g, '')
      .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
      .trim() || 'document.pdf';
  const named = /\.pdf$/i.test(cleaned) ? cleaned : `${cleaned}.pdf`;
  const ascii = named.replace(/[^\x20-\x7e]/g, '_');
  const encoded = encodeURIComponent(named).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
