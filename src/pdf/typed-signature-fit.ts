/**
 * The check of typed signatures when they are signed: each must fit its field whole at the least
 * size a signature is drawn at, measured with the fonts, shaping and fitting the finished PDF
 * draws it with (draw-fields.ts), so that what the page accepts is what the PDF shows in full.
 */
import { DRAWN_TEXT_SIZES, type TypedSignature } from '../ports/pdf-maker.js';
import { drawnText, fittedSize } from './draw-fields.js';
import type { FontSource } from './fonts/font-source.js';
import { textMeasure } from './fonts/typesetter.js';

export function typedSignatureFitter(fonts: FontSource): (signatures: TypedSignature[]) => Promise<boolean[]> {
  return async (signatures) => {
    if (signatures.length === 0) return [];
    const texts = signatures.map((signature) => drawnText(signature.text));
    const font = (await textMeasure(fonts, texts))('auto');
    return signatures.map((signature, i) => texts[i] === '' || fittedSize(font, texts[i]!, signature, DRAWN_TEXT_SIZES.signature).fits);
  };
}
