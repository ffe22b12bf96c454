/**
 * Logo files for the brand suites: real PNGs (test/support/png.ts), JPEG files built segment by
 * segment, and what is not a logo. `padTo` makes a file of an exact size, for the byte bound.
 */
import { deflateSync } from 'node:zlib';
import { canvasRows, ihdr, pngChunk, pngFile } from './png.js';

/** An RGBA PNG, padded with a text chunk (which the redraw drops) to `padTo` bytes. */
export function logoPng(width = 40, height = 20, padTo?: number): Buffer {
  const image = [ihdr({ width, height }), pngChunk('IDAT', deflateSync(canvasRows(width, height)))];
  const plain = pngFile(...image);
  if (padTo === undefined) return plain;
  // A chunk costs 12 bytes around its data; `tEXt` data is a keyword, NUL, then the text.
  const text = Buffer.concat([Buffer.from('Comment\0'), Buffer.alloc(padTo - plain.length - 12 - 8, 'x')]);
  return pngFile(...image, pngChunk('tEXt', text));
}

const segment = (marker: number, data: Buffer) => {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(0xff00 | marker, 0);
  head.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([head, data]);
};

/** A JPEG's structure: JFIF header, frame header, a scan, EOI; padded with a comment to `padTo` bytes. */
export function logoJpeg(options: { width?: number; height?: number; components?: number; frame?: number; padTo?: number } = {}): Buffer {
  const { width = 40, height = 20, components = 3, frame = 0xc0 } = options;
  const jfif = segment(0xe0, Buffer.from([0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]));
  const sof = Buffer.alloc(6 + 3 * components);
  sof.writeUInt8(8, 0);
  sof.writeUInt16BE(height, 1);
  sof.writeUInt16BE(width, 3);
  sof.writeUInt8(components, 5);
  for (let i = 0; i < components; i++) sof.set([i + 1, 0x11, 0], 6 + i * 3);
  const sos = Buffer.alloc(4 + 2 * components);
  sos.writeUInt8(components, 0);
  for (let i = 0; i < components; i++) sos.set([i + 1, 0], 1 + i * 2);
  sos.set([0, 0x3f, 0], 1 + 2 * components);
  const scan = Buffer.from([0x12, 0x34, 0xff, 0x00, 0x56]);
  const parts = [Buffer.from([0xff, 0xd8]), jfif, segment(frame, sof), segment(0xda, sos), scan, Buffer.from([0xff, 0xd9])];
  const plain = Buffer.concat(parts);
  if (options.padTo === undefined) return plain;
  // Comment segments of at most 65,537 bytes each (a segment's length field is 16 bits).
  const comments: Buffer[] = [];
  for (let left = options.padTo - plain.length; left > 0; ) {
    let size = Math.min(left, 65_537);
    if (left - size > 0 && left - size < 4) size -= 4;
    comments.push(segment(0xfe, Buffer.alloc(size - 4, 'x')));
    left -= size;
  }
  return Buffer.concat([parts[0]!, parts[1]!, ...comments, ...parts.slice(2)]);
}

export const svgLogo = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>');
/** A GIF, as a file named `logo.png` may well be. */
export const gifLogo = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

export const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
