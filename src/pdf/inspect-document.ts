import type { PageSize } from '../data/schema.js';

/** The page sizes of a PDF in points, or null when the bytes are not a PDF that pdf-lib can open. */
export async function readPageSizes(bytes: Uint8Array): Promise<PageSize[] | null> {
  // pdf-lib is large; only the paths that handle documents load it.
  const { PDFDocument } = await import('pdf-lib');
  try {
    const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
    return pdf.getPages().map((page) => {
      const { width, height } = page.getSize();
      return { width: Math.round(width), height: Math.round(height) };
    });
  } catch {
    return null;
  }
}
