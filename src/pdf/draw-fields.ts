import type { Color, PDFDocument, PDFImage, PDFPage } from 'pdf-lib';
import { isPngDataUrl, redrawPngDataUrl } from '../lib/drawn-png.js';
import { drawableText } from './drawable-text.js';
import { DRAWN_TEXT_SIZES, type FinishedField } from '../ports/pdf-maker.js';
import type { TextFont, Typesetter } from './fonts/typesetter.js';
import { centredBaseline, truncateToWidth } from './text-layout.js';

type PdfLib = typeof import('pdf-lib');
type Box = { x: number; y: number; width: number; height: number };

// A typed signature reads as a signature, larger than the form's text but not a banner, and never
// smaller than its own least size: one that needs less is refused when it is signed (typed-signature-fit.ts).
const { value: VALUE_SIZES, signature: SIGNATURE_SIZES } = DRAWN_TEXT_SIZES;
// No box shows more characters than this even at the smallest size, so longer input is cut before it is measured.
const MAX_DRAWN_CHARS = 5_000;
const UNREADABLE_IMAGE_TEXT = '[signature image unreadable]';
/** A radio option's mark: a letter, so that the finished PDF's text says which option was chosen. */
const RADIO_MARK = 'X';

/**
 * Draws every field's value on its page. Values never make this throw (they come from signers);
 * a field that is not on a page of the document does, because the template's import checked
 * placements against this very document and a finished copy missing a signature must not be issued.
 */
export async function drawFields(lib: PdfLib, pdf: PDFDocument, type: Typesetter, fields: readonly FinishedField[]): Promise<void> {
  const pages = pdf.getPages();
  // One signer's drawing usually appears in several fields: embed each distinct image once.
  const images = new Map<string, Promise<PDFImage | null>>();
  const ink = lib.rgb(0.06, 0.12, 0.4);
  const black = lib.rgb(0, 0, 0);

  for (const [index, field] of fields.entries()) {
    const page = pages[field.page - 1];
    const geometry = [field.x, field.y, field.width, field.height];
    if (!page || !geometry.every(Number.isFinite) || field.width <= 0 || field.height <= 0) {
      throw new RangeError(`Field ${index} (${field.type}) is not placed on a page of this ${pages.length}-page document.`);
    }
    if (field.value === null) continue;
    const box = pdfBox(page, field);
    const value = field.value;
    if (field.type === 'radio') {
      // The mark goes in the chosen option's own box, and nothing in the others'.
      const chosen = field.options?.find((option) => option.value === value);
      if (chosen) drawFitted(type, page, RADIO_MARK, pdfBox(page, chosen), { sizes: VALUE_SIZES, color: black });
    } else if (field.type === 'checkbox') {
      if (value === 'true') drawCross(page, box, black);
    } else if ((field.type === 'signature' || field.type === 'initials') && isPngDataUrl(value)) {
      if (!images.has(value)) images.set(value, embedPng(pdf, value));
      const image = await images.get(value)!;
      if (image) drawImageInBox(page, image, box);
      else drawFitted(type, page, UNREADABLE_IMAGE_TEXT, box, { sizes: VALUE_SIZES, color: black });
    } else if (field.type === 'signature' || field.type === 'initials') {
      drawFitted(type, page, value, box, { sizes: SIGNATURE_SIZES, color: ink, oblique: true });
    } else {
      drawFitted(type, page, value, box, { sizes: VALUE_SIZES, color: black });
    }
  }
}

/** Placements are measured from the top-left of the page's MediaBox (the size the import checked). */
function pdfBox(page: PDFPage, field: Box): Box {
  const media = page.getMediaBox();
  return { x: media.x + field.x, y: media.y + media.height - field.y - field.height, width: field.width, height: field.height };
}

const padding = (box: { width: number; height: number }) => Math.min(2, box.width / 4, box.height / 4);

/**
 * The values a field's text may hold, as `drawFields` will draw them: the typesetter reads the
 * fonts they need before anything is drawn.
 */
export const fieldTexts = (fields: readonly FinishedField[]): string[] => [
  UNREADABLE_IMAGE_TEXT,
  RADIO_MARK,
  ...fields.flatMap((field) => (field.value === null || isPngDataUrl(field.value) ? [] : [drawnText(field.value)])),
];

type Sizes = { max: number; min: number };
type Look = { sizes: Sizes; color: Color; oblique?: boolean };

/** A value's text as it is drawn: cleaned, cut to what any box could show, trimmed. */
export const drawnText = (raw: string): string => drawableText(raw.slice(0, MAX_DRAWN_CHARS)).trim();

/**
 * The size one line of `text` is drawn at in a box of `width` × `height` points: as large as the
 * box allows up to `sizes.max`, smaller down to `sizes.min` to fit its width; `fits` says whether
 * it fits whole at that size (else it is cut). Both the drawing and the check of a typed signature
 * when it is signed use this, with the same measure, so they agree.
 */
export function fittedSize(font: TextFont, text: string, box: { width: number; height: number }, sizes: Sizes): { size: number; fits: boolean } {
  const pad = padding(box);
  const [width, height] = [box.width - 2 * pad, box.height - 2 * pad];
  const largest = Math.max(1, Math.min(sizes.max, font.sizeAtHeight(height)));
  const natural = font.widthOfTextAtSize(text, largest);
  if (natural <= width) return { size: largest, fits: true };
  const size = Math.max(Math.min(sizes.min, largest), (largest * width) / natural);
  return { size, fits: font.widthOfTextAtSize(text, size) <= width };
}

/**
 * One line, sized by `fittedSize`, then cut. Its direction is its first strong character's, so a
 * right-to-left value starts at the box's right edge.
 */
function drawFitted(type: Typesetter, page: PDFPage, raw: string, box: Box, look: Look) {
  const text = drawnText(raw);
  if (text === '') return;
  const font = type.font('auto');
  const pad = padding(box);
  const [width, height] = [box.width - 2 * pad, box.height - 2 * pad];
  const { size } = fittedSize(font, text, box, look.sizes);
  const line = truncateToWidth(font, text, size, width);
  if (line === '') return;
  const shaped = type.shape(line, 'auto');
  const x = shaped.rtl ? box.x + pad + width - shaped.advance * size : box.x + pad;
  type.draw(page, shaped, { x, y: centredBaseline(font, size, box.y + pad, height), size, color: look.color, oblique: look.oblique });
}

/**
 * Checked and drawn again here too, whatever the submission did: a value stored by a version that
 * only looked at a PNG's first bytes must not reach pdf-lib's decoder, which can spin on it forever.
 */
async function embedPng(pdf: PDFDocument, dataUrl: string): Promise<PDFImage | null> {
  const drawn = redrawPngDataUrl(dataUrl);
  if ('refused' in drawn) return null;
  try {
    return await pdf.embedPng(drawn.png);
  } catch {
    return null;
  }
}

/** Scaled to fit inside the padded box, keeping its aspect ratio, and centred. */
function drawImageInBox(page: PDFPage, image: PDFImage, box: Box) {
  const pad = padding(box);
  const [width, height] = [box.width - 2 * pad, box.height - 2 * pad];
  const scale = Math.min(width / image.width, height / image.height);
  const [w, h] = [image.width * scale, image.height * scale];
  page.drawImage(image, { x: box.x + pad + (width - w) / 2, y: box.y + pad + (height - h) / 2, width: w, height: h });
}

/** An X in the largest square centred in the box. */
function drawCross(page: PDFPage, box: Box, color: Color) {
  const side = Math.min(box.width, box.height);
  const inset = side * 0.2;
  const [left, bottom] = [box.x + (box.width - side) / 2 + inset, box.y + (box.height - side) / 2 + inset];
  const [right, top] = [left + side - 2 * inset, bottom + side - 2 * inset];
  const thickness = Math.max(0.75, side * 0.08);
  page.drawLine({ start: { x: left, y: bottom }, end: { x: right, y: top }, thickness, color });
  page.drawLine({ start: { x: left, y: top }, end: { x: right, y: bottom }, thickness, color });
}
