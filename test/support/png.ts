import { crc32, deflateSync } from 'node:zlib';

const MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** One chunk as a PNG file holds it: length, type, data, and the CRC of type and data. */
export function pngChunk(type: string, data: Buffer = Buffer.alloc(0)): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), 8 + data.length);
  return out;
}

export type PngHeader = { width: number; height: number; bitDepth?: number; colourType?: number; interlace?: number };

export function ihdr({ width, height, bitDepth = 8, colourType = 6, interlace = 0 }: PngHeader): Buffer {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  data.set([bitDepth, colourType, 0, 0, interlace], 8);
  return pngChunk('IHDR', data);
}

/** A PNG file of these chunks, after the signature; IEND is added. */
export const pngFile = (...chunks: Buffer[]) => Buffer.concat([MAGIC, ...chunks, pngChunk('IEND')]);

/**
 * A real RGBA PNG from unfiltered rows (each a 0 filter byte and `width` RGBA pixels), as a
 * signature pad's canvas would export one. `declared` lets a test lie about the size in IHDR.
 */
export function encodePng(rows: Buffer, width: number, height: number, declared = { width, height }): Buffer {
  return pngFile(ihdr(declared), pngChunk('IDAT', deflateSync(rows)));
}

/** Rows of an RGBA canvas: transparent, with a dark stroke across the middle row. */
export function canvasRows(width: number, height: number): Buffer {
  const rows = Buffer.alloc(height * (1 + width * 4));
  const middle = Math.floor(height / 2) * (1 + width * 4);
  for (let x = 0; x < width; x++) rows.set([16, 32, 96, 255], middle + 1 + x * 4);
  return rows;
}

export const pngDataUrl = (bytes: Uint8Array) => `data:image/png;base64,${Buffer.from(bytes).toString('base64')}`;

/** Valid chunks and CRCs around an image data stream that is not zlib: pdf-lib's decoder never returns on it. */
export const HOSTILE_PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAD0lEQVRub3QgemxpYiBhdCBhbGz44kQmAAAAAElFTkSuQmCC';
