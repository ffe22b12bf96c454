import type { PDFDocument, PDFObject, PDFRef } from 'pdf-lib';

type PdfLib = typeof import('pdf-lib');

/**
 * Appends what changed in `pdf` since it was saved as `base` as an incremental update (new
 * objects, the rewritten page tree, a cross-reference section pointing back at the base's), so the
 * result starts with `base` byte for byte: whoever holds the finished file can hash its first
 * `base.length` bytes and get the hash printed for the signed content.
 *
 * Only what pdf-lib's `addPage`, `embedStandardFont` and drawing on the new pages touch is
 * covered: objects numbered above `baseLargestObjectNumber`, and the page-tree nodes (with their
 * Kids arrays when those are indirect), which `addPage` rewrites in place. `base` must be a pdf-lib
 * save without object streams, so that its cross-reference section is a classic table.
 */
export async function appendIncrementalUpdate(lib: PdfLib, pdf: PDFDocument, base: Uint8Array, baseLargestObjectNumber: number): Promise<Uint8Array> {
  await pdf.flush();
  const { context } = pdf;
  const changed = new Map<number, [PDFRef, PDFObject]>();
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    if (ref.objectNumber > baseLargestObjectNumber) changed.set(ref.objectNumber, [ref, object]);
    else if (object instanceof lib.PDFPageTree) {
      changed.set(ref.objectNumber, [ref, object]);
      const kids = object.get(lib.PDFName.of('Kids'));
      if (kids instanceof lib.PDFRef) changed.set(kids.objectNumber, [kids, context.lookup(kids)!]);
    }
  }
  return writeRevision(lib, pdf, base, [...changed.values()]);
}

/**
 * Writes `objects` (new ones, and new versions of objects of `base`) after `base` as one revision:
 * the objects, a cross-reference section for exactly them, and a trailer pointing back at the
 * base's last cross-reference section. `base` must end in a classic cross-reference table.
 */
export function writeRevision(lib: PdfLib, pdf: PDFDocument, base: Uint8Array, revised: [PDFRef, PDFObject][]): Uint8Array {
  const { context } = pdf;
  const objects = [...revised].sort(([a], [b]) => a.objectNumber - b.objectNumber);

  const headerOf = (ref: PDFRef) => `${ref.objectNumber} ${ref.generationNumber} obj\n`;
  const FOOTER = '\nendobj\n';
  const xref = lib.PDFCrossRefSection.createEmpty();
  let size = 1; // a line break after the base's %%EOF
  for (const [ref, object] of objects) {
    xref.addEntry(ref, base.length + size);
    size += headerOf(ref).length + object.sizeInBytes() + FOOTER.length;
  }
  const xrefOffset = base.length + size;
  const { Root, Encrypt, Info, ID } = context.trailerInfo;
  const trailerDict = lib.PDFTrailerDict.of(context.obj({ Size: context.largestObjectNumber + 1, Root, Encrypt, Info, ID, Prev: lastXrefOffset(base) }));
  const trailer = lib.PDFTrailer.forLastCrossRefSectionOffset(xrefOffset);
  size += xref.sizeInBytes() + 1 + trailerDict.sizeInBytes() + 1 + trailer.sizeInBytes();

  const out = new Uint8Array(base.length + size);
  out.set(base);
  let at = base.length;
  const ascii = (text: string) => {
    for (let i = 0; i < text.length; i++) out[at++] = text.charCodeAt(i);
  };
  ascii('\n');
  for (const [ref, object] of objects) {
    ascii(headerOf(ref));
    at += object.copyBytesInto(out, at);
    ascii(FOOTER);
  }
  at += xref.copyBytesInto(out, at);
  ascii('\n');
  at += trailerDict.copyBytesInto(out, at);
  ascii('\n');
  at += trailer.copyBytesInto(out, at);
  if (at !== out.length) throw new Error(`Incremental update: wrote ${at} bytes of ${out.length}.`);
  return out;
}

function lastXrefOffset(pdf: Uint8Array): number {
  const tail = String.fromCharCode(...pdf.subarray(Math.max(0, pdf.length - 64)));
  const match = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (!match) throw new Error('Incremental update: the base does not end with startxref and %%EOF.');
  return Number(match[1]);
}
