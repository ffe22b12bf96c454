import { eq } from 'drizzle-orm';
import { envelopes } from '../../data/schema.js';
import type { StoredDocument } from '../../ports/document-store.js';
import { signedDocumentColumns, signedDocumentOf, templateDocumentOf } from '../documents/stored-documents.js';
import type { SignerVerbContext } from '../verb-context.js';
import { linkState } from './link-state.js';
import { type LinkHead, resolveLink } from './resolve-link.js';
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

/**
 * The PDF a signing link may show: the document as sent while the envelope is out (to sign, to
 * wait for one's turn, or as a copy) and while its finished PDF is being made, the finished PDF once
 * it is made; nothing for a voided, declined or expired envelope, or an invalid link. (A viewer still
 * fetching the pages of the document as sent when the last signature lands gets the rest of them,
 * not a missing file.) Before a signer whose role asks for a code has
 * entered it in this browser (the signer's `proof`), it throws VerificationRequired. `head` is the
 * link's first read, when the caller made it already.
 */
export async function signingDocument(
  ctx: SignerVerbContext,
  input: { token: string; head?: Promise<LinkHead | null> },
): Promise<(StoredDocument & { fileName: string; finished: boolean }) | null> {
  const { services } = ctx;
  const link = await resolveLink(services, input.token, input.head);
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
  return document ? { ...document, fileName: fileNameOf(envelope.title), finished: false } : null;
}
