/**
 * A plain document for templates that do not bring their own PDF (the seed's `generate`): a title
 * on the first page, numbered pages of US Letter size.
 */
export async function generateDocument(title: string, pages: number): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  pdf.setTitle(title);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  for (let number = 1; number <= pages; number++) {
    const page = pdf.addPage([612, 792]);
    if (number === 1) page.drawText(title, { x: 72, y: 792 - 96, size: 20, font: bold, color: rgb(0.1, 0.1, 0.1) });
    page.drawText(`This page is part of "${title}".`, { x: 72, y: 792 - 140, size: 11, font: regular });
    page.drawText(`Page ${number} of ${pages}`, { x: 270, y: 36, size: 9, font: regular, color: rgb(0.4, 0.4, 0.4) });
  }
  // A fixed date keeps a generated document, and so its hash, the same from one load to the next.
  pdf.setCreationDate(new Date('2026-01-01T00:00:00Z'));
  pdf.setModificationDate(new Date('2026-01-01T00:00:00Z'));
  return pdf.save();
}
