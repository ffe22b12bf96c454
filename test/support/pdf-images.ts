import { PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream } from 'pdf-lib';

/** The size of each distinct image a page of a PDF draws (its image XObjects), as pdf-lib reads the file back. */
export async function imagesOnPage(bytes: Uint8Array, pageNumber: number): Promise<{ width: number; height: number }[]> {
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  const xobjects = pdf
    .getPage(pageNumber - 1)
    .node.Resources()
    ?.lookupMaybe(PDFName.of('XObject'), PDFDict);
  if (!xobjects) return [];
  // A page names an image once per place it is drawn; the file holds it once.
  const distinct = new Set(xobjects.keys().map((key) => xobjects.get(key)));
  return [...distinct]
    .map((entry) => pdf.context.lookup(entry))
    .filter((object): object is PDFRawStream => object instanceof PDFRawStream && object.dict.get(PDFName.of('Subtype')) === PDFName.of('Image'))
    .map((image) => ({
      width: image.dict.lookup(PDFName.of('Width'), PDFNumber).asNumber(),
      height: image.dict.lookup(PDFName.of('Height'), PDFNumber).asNumber(),
    }));
}
