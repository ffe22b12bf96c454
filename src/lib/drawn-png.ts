/**
 * A drawn signature or initials, decoded under a budget and drawn again by the service. What a
 * signer posts is never handed to pdf-lib: its decoder spins forever on an image data stream that
 * is not zlib, and it would inflate whatever a small file declares. Here the header is checked
 * first, the data is inflated in small steps that stop as soon as they pass what the header allows,
 * and only then is the image decoded and encoded again, so that the PNG kept and embedded is one
 * the service made.
 *
 * Accepted: what signature pads produce, 8 bits per sample, not interlaced, grey or colour, with
 * or without alpha (a browser canvas exports RGBA). Palettes, 16-bit and sub-byte samples and
 * interlacing are refused: no pad makes them, and each is more decoder to trust.
 */
import { decode, encode } from 'fast-png';
import { inflatedLengthWithin } from './bounded-inflate.js';
import { isCriticalChunk, PNG_SIGNATURE, pngChunks } from './png-chunks.js';

/** Far beyond a signature pad at any pixel density, yet decoded within a Worker's memory. */
export const MAX_SIGNATURE_PIXELS = 4_000_000;
/** Longest data URL decoded at all; the signing form keeps to a much smaller limit of its own. */
const MAX_DATA_URL_CHARS = 4_000_000;
const DATA_URL_PREFIX = /^data:image\/png;base64,/i;
/** Samples per pixel by PNG colour type: grey, RGB, grey + alpha, RGBA. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };
const KNOWN_CRITICAL = new Set(['IHDR', 'PLTE', 'IDAT', 'IEND']);

export type DrawnPng = { width: number; height: number; png: Uint8Array; dataUrl: string };
/** too_large: more pixels than allowed; unsupported: a PNG of a kind not accepted; unreadable: anything else. */
export type DrawnPngRefusal = { refused: 'unreadable' | 'too_large' | 'unsupported' };

export const isPngDataUrl = (value: string) => DATA_URL_PREFIX.test(value);

/** The drawing in a `data:image/png;base64,` URL, decoded and encoded again, or why it is refused. */
export function redrawPngDataUrl(value: string): DrawnPng | DrawnPngRefusal {
  const bytes = bytesOfDataUrl(value);
  return bytes ? redrawPng(bytes) : { refused: 'unreadable' };
}

export function redrawPng(bytes: Uint8Array): DrawnPng | DrawnPngRefusal {
  const chunks = pngChunks(bytes);
  const header = chunks?.[0]?.type === 'IHDR' && chunks[0].data.length === 13 ? readHeader(chunks[0].data) : null;
  if (!chunks || !header || header.width === 0 || header.height === 0) return { refused: 'unreadable' };
  const { width, height } = header;
  if (width * height > MAX_SIGNATURE_PIXELS) return { refused: 'too_large' };
  const channels = CHANNELS[header.colourType];
  const plain = header.bitDepth === 8 && header.compression === 0 && header.filter === 0 && header.interlace === 0;
  if (!channels || !plain || chunks.some((chunk) => isCriticalChunk(chunk.type) && !KNOWN_CRITICAL.has(chunk.type))) {
    return { refused: 'unsupported' };
  }
  const data = chunks.filter((chunk) => chunk.type === 'IDAT');
  // Each row is a filter byte and its samples: the exact length the data must inflate to.
  const expected = height * (1 + width * channels);
  if (
    data.length === 0 ||
    inflatedLengthWithin(
      data.map((chunk) => chunk.data),
      expected,
    ) !== expected
  )
    return { refused: 'unreadable' };

  let pixels: Uint8Array;
  try {
    // Only the chunks that make the image: an ancillary one (an ICC profile) could be a bomb of its own.
    const decoded = decode(concat([PNG_SIGNATURE, chunks[0]!.raw, ...data.map((chunk) => chunk.raw), chunks.at(-1)!.raw]));
    if (decoded.width !== width || decoded.height !== height || decoded.channels !== channels || !(decoded.data instanceof Uint8Array)) {
      return { refused: 'unreadable' };
    }
    pixels = decoded.data;
  } catch {
    // A row with an unknown filter type.
    return { refused: 'unreadable' };
  }
  const png = encode({ width, height, data: pixels, channels, depth: 8 });
  return { width, height, png, dataUrl: `data:image/png;base64,${base64(png)}` };
}

function bytesOfDataUrl(value: string): Uint8Array | null {
  if (!DATA_URL_PREFIX.test(value) || value.length > MAX_DATA_URL_CHARS) return null;
  const encoded = value.slice(value.indexOf(',') + 1).replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded)) return null;
  let binary: string;
  try {
    binary = atob(encoded);
  } catch {
    return null;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function readHeader(data: Uint8Array) {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return {
    width: view.getUint32(0),
    height: view.getUint32(4),
    bitDepth: data[8]!,
    colourType: data[9]!,
    compression: data[10]!,
    filter: data[11]!,
    interlace: data[12]!,
  };
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  // In slices: one call with a whole image's bytes as arguments would overflow the stack.
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}
