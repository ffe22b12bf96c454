/**
 * Typed signatures and initials must be readable in the finished PDF: each must fit its field whole
 * at the least size a signature is drawn at (DRAWN_TEXT_SIZES). Whether one fits depends on the
 * fonts the PDF draws it with, so the PDF work measures it (PdfMaker.typedSignaturesFit), with the
 * same fonts and fitting as the drawing. One that does not fit is refused, with the page's problem.
 */
import type { PdfMaker } from '../../ports/pdf-maker.js';
import { signingWriteFailed } from '../shared/unavailable.js';
import { type Problem, type SigningField, SigningRefused } from './signing-state.js';

const typed = (field: SigningField, value: string | null | undefined): value is string =>
  (field.type === 'signature' || field.type === 'initials') && typeof value === 'string' && !value.startsWith('data:');

/** Refuses the submission when a typed signature of `values` (as acceptSubmission kept them) does not fit its field. */
export async function checkTypedSignatures(pdf: PdfMaker, fields: SigningField[], values: Map<string, string | null>): Promise<void> {
  const checked = fields.filter((field) => typed(field, values.get(field.id)));
  if (checked.length === 0) return;
  const fits = await pdf
    .typedSignaturesFit(checked.map((field) => ({ text: values.get(field.id)!, width: field.width, height: field.height })))
    .catch((err: unknown) => {
      // Nothing was written: the signer may simply try again.
      throw signingWriteFailed(err);
    });
  const problems: Problem[] = checked.filter((_, i) => fits[i] !== true).map((field) => ({ field: field.id, code: 'signature_too_wide' }));
  if (problems.length > 0) throw new SigningRefused(problems);
}
