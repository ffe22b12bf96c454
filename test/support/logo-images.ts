/**
 * Logo files for the brand suites: real PNGs (test/support/png.ts), real JPEGs (jpeg-js's encoder),
 * JPEG structures built segment by segment, and what is not a logo. `padTo` makes a file of an
 * exact size, for the byte bound.
 */
import { deflateSync } from 'node:zlib';
import { encode as encodeJpeg } from 'jpeg-js';
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

/** A JPEG segment: its marker and its data, after the length that counts itself. */
export const jpegSegment = (marker: number, data: Buffer) => {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(0xff00 | marker, 0);
  head.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([head, data]);
};

/** The pixels of a logo: a gradient, so that the encoder has something to keep. */
function gradient(width: number, height: number): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data.set([(x * 255) / width, (y * 255) / height, 96, 255], (y * width + x) * 4);
  }
  return data;
}

/** Where the first scan's header starts: the segments before it are the file's header. */
export function firstScanAt(jpeg: Uint8Array): number {
  let at = 2;
  while (jpeg[at + 1] !== 0xda) at += 2 + ((jpeg[at + 2]! << 8) | jpeg[at + 3]!);
  return at;
}

/**
 * A real JPEG (baseline, colour) of a gradient, as an encoder writes it; padded with comment
 * segments after its JFIF header to `padTo` bytes.
 */
export function logoJpeg(options: { width?: number; height?: number; padTo?: number } = {}): Buffer {
  const { width = 40, height = 20 } = options;
  const plain = Buffer.from(encodeJpeg({ width, height, data: gradient(width, height) }, 85).data);
  if (options.padTo === undefined) return plain;
  // Comment segments of at most 65,537 bytes each (a segment's length field is 16 bits).
  const comments: Buffer[] = [];
  for (let left = options.padTo - plain.length; left > 0; ) {
    let size = Math.min(left, 65_537);
    if (left - size > 0 && left - size < 4) size -= 4;
    comments.push(jpegSegment(0xfe, Buffer.alloc(size - 4, 'x')));
    left -= size;
  }
  const afterJfif = 4 + ((plain[4]! << 8) | plain[5]!);
  return Buffer.concat([plain.subarray(0, afterJfif), ...comments, plain.subarray(afterJfif)]);
}

/**
 * A JPEG's structure only (JFIF header, frame header, a scan, EOI), without tables: the frame
 * a test chooses, for what the walk refuses before anything is decoded.
 */
export function jpegStructure(options: { width?: number; height?: number; components?: number; frame?: number } = {}): Buffer {
  const { width = 40, height = 20, components = 3, frame = 0xc0 } = options;
  const jfif = jpegSegment(0xe0, Buffer.from([0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]));
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
  return Buffer.concat([Buffer.from([0xff, 0xd8]), jfif, jpegSegment(frame, sof), jpegSegment(0xda, sos), scan, Buffer.from([0xff, 0xd9])]);
}

export const svgLogo = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>');
/** A GIF, as a file named `logo.png` may well be. */
export const gifLogo = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

export const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
