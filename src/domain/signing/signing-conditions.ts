/**
 * Conditions the database checks inside a signing batch, so that what was read before the batch
 * cannot be stale by the time it commits (a void, an expiry, another signer, a double click).
 */
import { type SQL, sql } from 'drizzle-orm';

const at = (now: Date) => sql`${now.toISOString()}::timestamptz`;

/** The envelope is still out for signature at `now`. */
export const envelopeOpen = (envelopeId: string, now: Date): SQL =>
  sql`exists (select 1 from envelopes where id = ${envelopeId} and status = 'sent' and (expires_at is null or expires_at > ${at(now)}))`;

/** No signer of an earlier order is still to sign (always true in parallel order). */
export const earlierSignersDone = (envelopeId: string, order: number): SQL =>
  sql`not exists (select 1 from recipients as earlier where earlier.envelope_id = ${envelopeId} and earlier.type = 'signer' and earlier."order" < ${order} and earlier.status <> 'signed')`;

/** Every signer has signed. */
export const allSigned = (envelopeId: string): SQL =>
  sql`not exists (select 1 from recipients as anyone where anyone.envelope_id = ${envelopeId} and anyone.type = 'signer' and anyone.status <> 'signed')`;

/** This batch signed the recipient (not an earlier one: the time is this batch's own). */
export const signedAt = (recipientId: string, now: Date): SQL =>
  sql`exists (select 1 from recipients where id = ${recipientId} and status = 'signed' and signed_at = ${at(now)})`;

/** This batch declined for the recipient. */
export const declinedAt = (recipientId: string, now: Date): SQL =>
  sql`exists (select 1 from recipients where id = ${recipientId} and status = 'declined' and declined_at = ${at(now)})`;

/** This batch completed the envelope. */
export const completedAt = (envelopeId: string, now: Date): SQL =>
  sql`exists (select 1 from envelopes where id = ${envelopeId} and status = 'completed' and completed_at = ${at(now)})`;
