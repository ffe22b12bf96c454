import { and, asc, eq, getTableColumns } from 'drizzle-orm';
import { envelopeFields, envelopes, recipients, templateDocuments } from '../../data/schema.js';
import { envelopeLanguages } from '../templates/version-language.js';
import type { Services } from '../../services.js';
import { signingReadFailed } from '../shared/unavailable.js';
import { verifySigningToken } from '../envelopes/signing-links.js';

type Envelope = typeof envelopes.$inferSelect;
type Recipient = typeof recipients.$inferSelect;

/** Everything a signing link stands for, read once per request. */
export type Link = {
  envelope: Omit<Envelope, 'signedDocument'>;
  recipient: Recipient;
  /** Every recipient of the envelope, in signing order: whose turn it is depends on the others. */
  everyone: Recipient[];
  fields: (typeof envelopeFields.$inferSelect)[];
  pages: { width: number; height: number }[];
  /** The languages the sender set: the template version’s it was sent with, and the company’s (its active brand setting's), as stored. */
  languages?: { template: string | null; company: string | null };
};

/** A link's first read: the recipient a token names with their envelope, the MAC checked over both. */
export type LinkHead = { envelope: Link['envelope']; recipient: Recipient };

/**
 * The recipient and envelope a signing token names, if its MAC verifies; null for any token that
 * does not (tampered, truncated, malformed, or naming a recipient that does not exist), without
 * telling which. One lookup by primary key, and none for a token not shaped like a link. A read that
 * fails rejects: the signing guard, which reads it first, takes that as not genuine and leaves the
 * failure to the handler, which meets it.
 */
export async function readLinkHead(services: Services, token: string): Promise<LinkHead | null> {
  // The finished PDF stays behind: it is only read to be downloaded.
  const { signedDocument: _withheld, ...envelopeColumns } = getTableColumns(envelopes);
  let found: LinkHead | undefined;
  const verified = await verifySigningToken(services.config.tokenSecret, token, async (recipientId) => {
    [found] = await services.database.db
      .select({ envelope: envelopeColumns, recipient: recipients })
      .from(recipients)
      .innerJoin(envelopes, eq(envelopes.id, recipients.envelopeId))
      .where(eq(recipients.id, recipientId))
      .limit(1);
    return found?.envelope.id ?? null;
  });
  return verified && found ? found : null;
}

/**
 * Everything a signing token stands for, null for a token that is not a genuine link. Two waves:
 * the head (`readLinkHead`; `head` when the caller read it already, as the signing guard does),
 * then the rest. A read that fails is `service_unavailable`: the signer may try again.
 */
export async function resolveLink(services: Services, token: string, head?: Promise<LinkHead | null>): Promise<Link | null> {
  try {
    const found = await (head ?? readLinkHead(services, token));
    return found ? await readRest(services, found) : null;
  } catch (err) {
    throw signingReadFailed(err);
  }
}

async function readRest(services: Services, found: LinkHead): Promise<Link> {
  const { db } = services.database;
  const { envelope, recipient } = found;
  const [everyone, fields, [document], languages] = await Promise.all([
    db
      .select()
      .from(recipients)
      .where(and(eq(recipients.envelopeId, envelope.id), eq(recipients.companyId, envelope.companyId)))
      .orderBy(asc(recipients.order), asc(recipients.position)),
    db
      .select()
      .from(envelopeFields)
      .where(and(eq(envelopeFields.recipientId, recipient.id), eq(envelopeFields.companyId, envelope.companyId)))
      .orderBy(asc(envelopeFields.page), asc(envelopeFields.y), asc(envelopeFields.x)),
    db
      .select({ pages: templateDocuments.pages })
      .from(templateDocuments)
      .where(
        and(
          eq(templateDocuments.templateId, envelope.templateId),
          eq(templateDocuments.version, envelope.templateVersion),
          eq(templateDocuments.companyId, envelope.companyId),
        ),
      )
      .limit(1),
    // The version the envelope was sent with: a later save in another language changes nothing here.
    envelopeLanguages(db, envelope),
  ]);
  return { envelope, recipient, everyone, fields, pages: document?.pages ?? [], languages };
}
