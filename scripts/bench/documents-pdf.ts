/**
 * A PDF of a chosen size with real pages: the plain numbered pages of a generated document, each
 * showing a photograph-sized image of noise, stored uncompressed, so that neither pdf-lib nor a
 * Flate pass can make it smaller and the bytes a step holds are the document's own.
 */
import { randomBytes } from 'node:crypto';
import { concatTransformationMatrix, drawObject, PDFDocument, popGraphicsState, pushGraphicsState } from 'pdf-lib';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';

export const MiB = 1024 * 1024;
/** About one image of this many bytes per page: a page scanned at print quality holds that much. */
const BYTES_PER_PAGE = 1 * MiB;
const IMAGE_WIDTH = 512;

/** How many pages, and each page's image height, for a document of `bytes` around a base of `baseBytes`. */
export function pagePlan(bytes: number, baseBytes: number): { pages: number; imageHeight: number } {
  const pages = Math.max(1, Math.round(bytes / BYTES_PER_PAGE));
  // Each image adds its pixels and about 200 bytes of dictionary, offsets and drawing operators.
  const perPage = Math.max(0, (bytes - baseBytes) / pages - 200);
  return { pages, imageHeight: Math.max(1, Math.floor(perPage / (IMAGE_WIDTH * 3))) };
}

/** A document of at most `bytes`, a few KiB under it, its first page titled `title`. */
export async function documentOfSize(title: string, bytes: number): Promise<Uint8Array> {
  const base = await generateDocument(title, Math.max(1, Math.round(bytes / BYTES_PER_PAGE)), nodeFontSource());
  const { pages, imageHeight } = pagePlan(bytes, base.length);
  const first = await withNoise(base, imageHeight);
  if (first.length <= bytes) return first;
  // Saving adds a little more than planned: fewer rows of noise on each page make up for it.
  const rows = Math.ceil((first.length - bytes) / (pages * IMAGE_WIDTH * 3));
  return withNoise(base, Math.max(1, imageHeight - rows));
}

async function withNoise(base: Uint8Array, imageHeight: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.load(base);
  for (const page of pdf.getPages()) {
    const noise = pdf.context.stream(randomBytes(IMAGE_WIDTH * imageHeight * 3), {
      Type: 'XObject',
      Subtype: 'Image',
      Width: IMAGE_WIDTH,
      Height: imageHeight,
      ColorSpace: 'DeviceRGB',
      BitsPerComponent: 8,
    });
    const name = page.node.newXObject('Noise', pdf.context.register(noise));
    // In the middle of the page, below the title and above the footer, whatever its pixel height.
    const { width, height } = page.getSize();
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(width - 144, 0, 0, height / 2, 72, height / 4), drawObject(name), popGraphicsState());
  }
  return pdf.save({ useObjectStreams: false });
}
