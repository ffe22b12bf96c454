/**
 * What the signers who have already signed put on the document, for the page of a signer whose
 * turn it is: the next signer reviews the document as it will be finished, not the blank original.
 * Only fields of the same envelope, of recipients who have signed, are read; a field a signer left
 * empty shows nothing, as in the finished PDF.
 */
import { and, asc, eq, ne } from 'drizzle-orm';
import { envelopeFields, recipients } from '../../data/schema.js';
import type { Language } from '../../i18n/languages.js';
import type { FinishedField } from '../../ports/pdf-maker.js';
import type { Services } from '../../services.js';
import { signingReadFailed } from '../shared/unavailable.js';
import { finishedField } from './finished-values.js';
import type { LinkHead } from './resolve-link.js';

/**
 * Drawn signatures are shown as images inside the page; past this many characters of them in all,
 * the rest show as their signer's name, so that a page stays a page whatever an envelope holds.
 * A drawing is at most MAX_DRAWN_SIGNATURE_CHARS, so a few signers' drawings always fit.
 */
export const MAX_EARLIER_DRAWINGS_CHARS = 1_500_000;

type FieldRow = typeof envelopeFields.$inferSelect;
export type EarlierRow = FieldRow & { signer: string };

/** An earlier signer's field as the finished PDF draws it, with whose it is; `withheld`: a drawing past the page's budget. */
export type EarlierValue = FinishedField & { signer: string; withheld?: true };

/** The filled-in fields of everyone but `head`'s recipient who has signed, read beside the rest of the link. */
export async function readEarlierValues(services: Services, head: LinkHead): Promise<EarlierRow[]> {
  const { envelope, recipient } = head;
  try {
    const rows = await services.database.db
      .select({ field: envelopeFields, signer: recipients.name })
      .from(envelopeFields)
      .innerJoin(recipients, eq(recipients.id, envelopeFields.recipientId))
      .where(
        and(
          eq(envelopeFields.envelopeId, envelope.id),
          eq(envelopeFields.companyId, envelope.companyId),
          eq(recipients.envelopeId, envelope.id),
          eq(recipients.status, 'signed'),
          ne(recipients.id, recipient.id),
        ),
      )
      .orderBy(asc(envelopeFields.page), asc(envelopeFields.y), asc(envelopeFields.x));
    return rows.map(({ field, signer }) => ({ ...field, signer }));
  } catch (err) {
    throw signingReadFailed(err);
  }
}

/** The rows as the finished PDF will show them, in the envelope's language; drawings within the page's budget. */
export function earlierValues(rows: EarlierRow[], language: Language): EarlierValue[] {
  let budget = MAX_EARLIER_DRAWINGS_CHARS;
  const values: EarlierValue[] = [];
  for (const row of rows) {
    if (row.value === null) continue;
    const shown = { ...finishedField(row, language), signer: row.signer };
    if (shown.value?.startsWith('data:')) {
      if (shown.value.length > budget) {
        values.push({ ...shown, value: null, withheld: true });
        continue;
      }
      budget -= shown.value.length;
    }
    values.push(shown);
  }
  return values;
}

/**
 * The rows as the finished PDF will draw them, drawings included whatever their size: what the
 * next signer's filled copy of the PDF draws (signing-document.ts), where the page's budget has no
 * place (the PDF work checks and redraws each drawing before it embeds it, as it does to finish).
 */
export function earlierFields(rows: EarlierRow[], language: Language): FinishedField[] {
  return rows.filter((row) => row.value !== null).map((row) => finishedField(row, language));
}
