import { and, asc, eq, getTableColumns } from 'drizzle-orm';
import { brandSettings, envelopeFields, envelopes, recipients, templateDocuments, templates } from '../../data/schema.js';
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
  /** The languages the sender set: the template's and the company's (its active brand setting's), as stored. */
  languages?: { template: string | null; company: string | null };
};

/**
 * Whether a token is a genuine signing link: its MAC verifies for the recipient it names. It costs
 * one lookup of that recipient's envelope id by primary key, and nothing for a token not shaped
 * like a link; a lookup that fails counts as not genuine, and the handler meets the failure itself.
 */
export async function isGenuineLink(services: Services, token: string): Promise<boolean> {
  const verified = await verifySigningToken(services.config.tokenSecret, token, async (recipientId) => {
    const [row] = await services.database.db.select({ envelopeId: recipients.envelopeId }).from(recipients).where(eq(recipients.id, recipientId)).limit(1);
    return row?.envelopeId ?? null;
  }).catch(() => null);
  return verified !== null;
}

/**
 * The envelope and recipient a signing token names, if its MAC verifies; null for any token that
 * does not (tampered, truncated, malformed, or naming a recipient that does not exist), without
 * telling which. Two waves: the recipient with its envelope (the MAC covers both ids), then the rest.
 * A read that fails is `service_unavailable`: the signer may try again.
 */
export async function resolveLink(services: Services, token: string): Promise<Link | null> {
  try {
    return await readLink(services, token);
  } catch (err) {
    throw signingReadFailed(err);
  }
}

async function readLink(services: Services, token: string): Promise<Link | null> {
  const { db } = services.database;
  // The finished PDF stays behind: it is only read to be downloaded.
  const { signedDocument: _withheld, ...envelopeColumns } = getTableColumns(envelopes);
  let found: { envelope: Link['envelope']; recipient: Recipient } | undefined;
  const verified = await verifySigningToken(services.config.tokenSecret, token, async (recipientId) => {
    [found] = await db
      .select({ envelope: envelopeColumns, recipient: recipients })
      .from(recipients)
      .innerJoin(envelopes, eq(envelopes.id, recipients.envelopeId))
      .where(eq(recipients.id, recipientId))
      .limit(1);
    return found?.envelope.id ?? null;
  });
  if (!verified || !found) return null;
  const { envelope, recipient } = found;
  const [everyone, fields, [document], [languages]] = await Promise.all([
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
      .where(and(eq(templateDocuments.templateId, envelope.templateId), eq(templateDocuments.companyId, envelope.companyId)))
      .limit(1),
    db
      .select({ template: templates.language, company: brandSettings.language })
      .from(templates)
      .leftJoin(brandSettings, and(eq(brandSettings.companyId, templates.companyId), eq(brandSettings.active, true)))
      .where(and(eq(templates.id, envelope.templateId), eq(templates.companyId, envelope.companyId)))
      .limit(1),
  ]);
  return { envelope, recipient, everyone, fields, pages: document?.pages ?? [], languages: languages ?? { template: null, company: null } };
}
