/**
 * Multipart bodies for the template import's tests, in Node and in workerd alike: the parts in the
 * order given, and a PDF padded to a size with a comment of its own so that no other test stores
 * the same bytes.
 */
import { unique } from './unique.js';

export const MULTIPART_BOUNDARY = 'import-test-boundary-9c2f';
export const multipartType = `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`;

/** A part: a file when it has a file name (an empty one included), a field otherwise. */
export type FormPart = { name: string; fileName?: string; content: string | Uint8Array };

const encoder = new TextEncoder();

/** The multipart body of `parts`, in their order. */
export function multipartBody(parts: FormPart[]): Uint8Array {
  const pieces = parts.flatMap(({ name, fileName, content }) => [
    encoder.encode(
      `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${fileName === undefined ? '' : `; filename="${fileName}"`}\r\n\r\n`,
    ),
    typeof content === 'string' ? encoder.encode(content) : content,
    encoder.encode('\r\n'),
  ]);
  pieces.push(encoder.encode(`--${MULTIPART_BOUNDARY}--\r\n`));
  const body = new Uint8Array(pieces.reduce((total, piece) => total + piece.byteLength, 0));
  let at = 0;
  for (const piece of pieces) {
    body.set(piece, at);
    at += piece.byteLength;
  }
  return body;
}

/** `pdf` followed by a comment no other test writes, padded with spaces to `size` bytes: still the same PDF to a reader. */
export function paddedPdf(pdf: Uint8Array, size = 0): Uint8Array {
  const tail = encoder.encode(`\n%${unique()}\n`);
  const padded = new Uint8Array(Math.max(size, pdf.byteLength + tail.byteLength)).fill(0x20);
  padded.set(pdf);
  padded.set(tail, pdf.byteLength);
  return padded;
}

/** The import's two parts: the document first, then the template's definition. */
export const importParts = (pdf: Uint8Array, definition: string, fileName = 'big.pdf'): FormPart[] => [
  { name: 'document', fileName, content: pdf },
  { name: 'template', content: definition },
];
