import { eq } from 'drizzle-orm';
import { envelopes } from '../../data/schema.js';
import type { StoredDocument } from '../../ports/document-store.js';
import { signedDocumentColumns, signedDocumentOf, templateDocumentOf } from '../documents/stored-documents.js';
import type { SignerVerbContext } from '../verb-context.js';
import { linkState } from './link-state.js';
import { type LinkHead, readLinkHead, resolveLink } from './resolve-link.js';
import { earlierFields, readEarlierValues } from './earlier-values.js';
import { signingDocumentFailed } from '../shared/unavailable.js';
import { VerificationRequired, verificationGate } from './verification-gate.js';

/** A file name from a title: letters, digits and dashes only, so no header can be forged with it. */
export const fileNameOf = (title: string, suffix = '') =>
  `${
    title
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 80) || 'document'
  }${suffix}.pdf`;

/** The PDF a signing link shows; `appended`: what follows the stored document in the answer (a filled copy's update). */
export type SigningDocument = StoredDocument & { fileName: string; finished: boolean; appended?: Uint8Array };

/**
 * The PDF a signing link may show: the document as sent while the envelope is out (to sign, to
 * wait for one's turn, or as a copy) and while its finished PDF is being made, the finished PDF once
 * it is made; nothing for a voided, declined or expired envelope, or an invalid link. (A viewer still
 * fetching the pages of the document as sent when the last signature lands gets the rest of them,
 * not a missing file.) Before a signer whose role asks for a code has
 * entered it in this browser (the signer's `proof`), it throws VerificationRequired. `head` is the
 * link's first read, when the caller made it already.
 *
 * `filled`: for a signer whose turn it is, the document as sent with what the signers before them
 * put on it, drawn as the finished PDF will draw it (`appended`, made by the PDF work, follows the
 * original's bytes). The same document as sent when nobody has put anything on it yet, and in any
 * other state: a signer who has signed or a copy's recipient would see a copy lacking their own
 * part or the rest, and the finished PDF, once made, has everything.
 */
export async function signingDocument(
  ctx: SignerVerbContext,
  input: { token: string; head?: Promise<LinkHead | null>; filled?: boolean },
): Promise<SigningDocument | null> {
  const { services } = ctx;
  const head = input.head ?? readLinkHead(services, input.token);
  // The earlier values are read beside the rest of the link, as the page reads them: no wave of their own.
  const earlier = input.filled ? head.then((found) => (found ? readEarlierValues(services, found) : [])) : null;
  earlier?.catch(() => {});
  const link = await resolveLink(services, input.token, head);
  if (!link) return null;
  const state = linkState(link, ctx.now);
  if (await verificationGate(ctx, link, state)) throw new VerificationRequired();
  const { envelope } = link;
  const { db } = services.database;
  if (state.kind === 'completed' && state.documentReady) {
    const [row] = await db.select(signedDocumentColumns).from(envelopes).where(eq(envelopes.id, envelope.id)).limit(1);
    const finished = row ? await signedDocumentOf(services, envelope.id, row) : null;
    return finished ? { ...finished, fileName: fileNameOf(envelope.title, '-signed'), finished: true } : null;
  }
  if (!['sign', 'not_your_turn', 'signed', 'copy', 'completed'].includes(state.kind)) return null;
  const document = await templateDocumentOf(services, envelope);
  if (!document) return null;
  const asSent = { ...document, fileName: fileNameOf(envelope.title), finished: false };
  if (!earlier || state.kind !== 'sign') return asSent;
  const fields = earlierFields(await earlier, state.envelope.language ?? 'en');
  if (fields.length === 0) return asSent;
  const appended = await services.pdf.filledCopy({ originalKey: document.key, originalSha256: document.sha256, fields }).catch((err: unknown) => {
    throw signingDocumentFailed(err);
  });
  return { ...asSent, appended };
}
