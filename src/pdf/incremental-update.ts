import type { PDFDocument, PDFObject, PDFRef } from 'pdf-lib';

type PdfLib = typeof import('pdf-lib');

/** Where a file ends, as the next incremental update must know it. */
export type FileEnd = {
  /** The file's length in bytes. */
  size: number;
  /** The offset its last `startxref` gives: the cross-reference section the next one points back at. */
  xrefOffset: number;
  /** That section is a cross-reference stream (PDF 1.5+), not a classic table. */
  xrefStream: boolean;
  /** The trailer's /Size: one more than the largest object number the file uses. */
  objectCount: number;
};

const ascii = (bytes: Uint8Array) => {
  let text = '';
  for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return text;
};

// The end of a PDF (startxref, its offset, %%EOF) sits in its last bytes; some writers add a little after it.
const TAIL_BYTES = 4096;

/**
 * How `pdf` ends. Only its last cross-reference section matters to an update: a table's trailer
 * or a stream's dictionary gives /Size, and /Prev of the update is its offset, so a table after a
 * table, a stream after a stream, and a table after a hybrid file's table all chain as the
 * standard says.
 */
export function endOf(pdf: Uint8Array): FileEnd {
  const tailStart = Math.max(0, pdf.length - TAIL_BYTES);
  const tail = ascii(pdf.subarray(tailStart));
  const at = tail.lastIndexOf('startxref');
  const offset = at < 0 ? null : /^startxref\s+(\d+)/.exec(tail.slice(at));
  if (!offset) throw new Error('Incremental update: the file does not end with startxref and its offset.');
  const xrefOffset = Number(offset[1]);
  if (xrefOffset >= pdf.length) throw new Error('Incremental update: the file’s startxref points past its end.');
  const section = ascii(pdf.subarray(xrefOffset, xrefOffset + TAIL_BYTES));
  const xrefStream = !/^\s*xref/.test(section);
  // A table's trailer follows the table, just before startxref; a stream's /Size is in its own dictionary.
  const trailerAt = tail.lastIndexOf('trailer', at);
  const dictionary = xrefStream ? section.slice(0, section.indexOf('stream')) : trailerAt < 0 ? '' : tail.slice(trailerAt, at);
  const size = /\/Size\s+(\d+)/.exec(dictionary);
  return { size: pdf.length, xrefOffset, xrefStream, objectCount: size ? Number(size[1]) : 0 };
}

/**
 * Numbers `pdf`'s new objects after every object of the file. pdf-lib keeps no object streams or
 * cross-reference streams among its objects, so its own count may fall short of the file's, and a
 * new object would take the number of an object stream that older entries still point into.
 * Called right after loading, before anything is added.
 */
export function continueNumbering(pdf: PDFDocument, end: FileEnd): void {
  const { context } = pdf;
  context.largestObjectNumber = Math.max(context.largestObjectNumber, end.objectCount - 1);
}

/**
 * Writes `revised` (new objects, and new versions of objects of the file) after a file ending at
 * `end` as one incremental update: the objects, a cross-reference section for exactly them, of the
 * same kind as the file's last one, and a trailer whose /Prev points back at that section. Answers
 * the update's bytes and where the file then ends.
 */
export function writeRevision(lib: PdfLib, pdf: PDFDocument, end: FileEnd, revised: [PDFRef, PDFObject][]): { bytes: Uint8Array; end: FileEnd } {
  const { context } = pdf;
  const objects = [...revised].sort(([a], [b]) => a.objectNumber - b.objectNumber);
  const pieces: Piece[] = [];
  let length = 0;
  // Each piece is measured as it is added, once everything it holds is in it.
  const push = (...added: Piece[]) => {
    for (const piece of added) length += typeof piece === 'string' ? piece.length : piece.sizeInBytes();
    pieces.push(...added);
  };
  const written = () => end.size + length;
  const offsets: number[] = [];
  const add = (ref: PDFRef, object: PDFObject) => {
    offsets.push(written());
    push(`${ref.objectNumber} ${ref.generationNumber} obj\n`, object, '\nendobj\n');
  };
  push('\n'); // after the file's %%EOF
  for (const [ref, object] of objects) add(ref, object);

  const xrefOffset = written();
  const { Root, Encrypt, Info, ID } = context.trailerInfo;
  if (end.xrefStream) {
    // The stream's own number is taken first: /Size counts it, and the stream lists itself.
    const streamRef = context.nextRef();
    const stream = lib.PDFCrossRefStream.of(context.obj({ Size: context.largestObjectNumber + 1, Root, Encrypt, Info, ID, Prev: end.xrefOffset }), [], true);
    objects.forEach(([ref], i) => {
      stream.addUncompressedEntry(ref, offsets[i]!);
    });
    stream.addUncompressedEntry(streamRef, xrefOffset);
    add(streamRef, stream);
  } else {
    const table = lib.PDFCrossRefSection.createEmpty();
    objects.forEach(([ref], i) => {
      table.addEntry(ref, offsets[i]!);
    });
    const trailer = lib.PDFTrailerDict.of(context.obj({ Size: context.largestObjectNumber + 1, Root, Encrypt, Info, ID, Prev: end.xrefOffset }));
    push(table, '\n', trailer, '\n');
  }
  push(lib.PDFTrailer.forLastCrossRefSectionOffset(xrefOffset));

  const out = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) {
    if (typeof piece === 'string') for (let i = 0; i < piece.length; i++) out[at++] = piece.charCodeAt(i);
    else at += piece.copyBytesInto(out, at);
  }
  if (at !== out.length) throw new Error(`Incremental update: wrote ${at} bytes of ${out.length}.`);
  return { bytes: out, end: { size: end.size + out.length, xrefOffset, xrefStream: end.xrefStream, objectCount: context.largestObjectNumber + 1 } };
}

/** What an update is written from: ASCII keywords, and pdf-lib's objects and sections, which know their size. */
type Piece = string | { sizeInBytes(): number; copyBytesInto(buffer: Uint8Array, offset: number): number };
