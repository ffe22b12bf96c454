import type { FontSource } from './fonts/font-source.js';
import { Typesetter } from './fonts/typesetter.js';
import { LETTER } from './page-flow.js';
import { truncateToWidth, wrapToWidth } from './text-layout.js';

const MARGIN = 72;
const WIDTH = LETTER[0] - 2 * MARGIN;

/**
 * A plain document for templates that do not bring their own PDF (the seed's `generate`): a title
 * on the first page, numbered pages of US Letter size. The title is set in the same fonts as the
 * finished PDF, so a seed may name its document in any script.
 */
export async function generateDocument(title: string, pages: number, fonts: FontSource): Promise<Uint8Array> {
  const lib = await import('pdf-lib');
  const pdf = await lib.PDFDocument.create();
  pdf.setTitle(title);
  const footers = Array.from({ length: pages }, (_, i) => `Page ${i + 1} of ${pages}`);
  const type = await Typesetter.for(lib, pdf, fonts, [title, ...footers]);
  const grey = lib.rgb(0.4, 0.4, 0.4);
  // A title of the seed's longest (200 characters) takes at most a few lines; the third ends in an ellipsis.
  const titleLines = wrapToWidth(type.font('auto'), title, 20, WIDTH);
  const shownTitle =
    titleLines.length <= 3 ? titleLines : [...titleLines.slice(0, 2), truncateToWidth(type.font('auto'), titleLines.slice(2).join(' '), 20, WIDTH)];
  const partOf = truncateToWidth(type.font('auto'), `This page is part of “${title}”.`, 11, WIDTH);
  for (let number = 1; number <= pages; number++) {
    const page = pdf.addPage(LETTER);
    let y = LETTER[1] - 96;
    if (number === 1) {
      for (const line of shownTitle) {
        type.draw(page, type.shape(line, 'auto'), { x: MARGIN, y, size: 20, bold: true, color: lib.rgb(0.1, 0.1, 0.1) });
        y -= 27;
      }
      y -= 17;
    } else y -= 44;
    type.draw(page, type.shape(partOf, 'auto'), { x: MARGIN, y, size: 11 });
    const footer = type.shape(footers[number - 1]!);
    type.draw(page, footer, { x: (LETTER[0] - footer.advance * 9) / 2, y: 36, size: 9, color: grey });
  }
  await type.finish();
  // A fixed date keeps a generated document, and so its hash, the same from one load to the next.
  pdf.setCreationDate(new Date('2026-01-01T00:00:00Z'));
  pdf.setModificationDate(new Date('2026-01-01T00:00:00Z'));
  return pdf.save();
}
