/**
 * A company's logo, checked by its bytes before it is kept: it is shown in e-mails and on the
 * signing page to people who never chose to trust it. Only PNG and JPEG are taken; SVG is refused
 * because it is a document that can carry script and links, and everything else because mail
 * clients do not all show it.
 *
 * Either is decoded under a budget and encoded again by the service, so the file kept is one the
 * service made, in the type it came in: a PNG without ancillary chunks (`drawn-png.ts`), a JPEG
 * without comments, application segments or anything after its end (`drawn-jpeg.ts`). Before a
 * JPEG is decoded its segments are walked: one frame header naming a baseline or progressive image
 * of one or three components within the pixel bounds, and a bounded number of scans.
 */
import { redrawJpeg } from './drawn-jpeg.js';
import { redrawPng } from './drawn-png.js';
import { pngChunks } from './png-chunks.js';

/** A logo is a small picture: a few dozen kilobytes in practice. */
export const MAX_LOGO_BYTES = 256 * 1024;
/** Each side at most this many pixels: e-mails show a logo about 48 pixels high. */
export const MAX_LOGO_SIDE = 1024;

export type LogoType = 'image/png' | 'image/jpeg';
export type CheckedLogo = { type: LogoType; bytes: Uint8Array; width: number; height: number };
export type LogoRefusal = { refused: string };

export function checkLogo(bytes: Uint8Array): CheckedLogo | LogoRefusal {
  if (bytes.length === 0) return { refused: 'The logo is empty.' };
  if (bytes.length > MAX_LOGO_BYTES) return { refused: `The logo is ${bytes.length} bytes; at most ${MAX_LOGO_BYTES} bytes are taken.` };
  if (bytes[0] === 0x89 && bytes[1] === 0x50) return checkPng(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return checkJpeg(bytes);
  if (looksLikeMarkup(bytes)) return { refused: 'SVG and other markup are not taken as a logo (they can carry script): send a PNG or a JPEG.' };
  return { refused: 'The logo must be a PNG or a JPEG image (told by its content, not its name).' };
}

const sideRefusal = (width: number, height: number): LogoRefusal | null =>
  width > MAX_LOGO_SIDE || height > MAX_LOGO_SIDE
    ? { refused: `The logo is ${width}×${height} pixels; at most ${MAX_LOGO_SIDE}×${MAX_LOGO_SIDE} are taken.` }
    : null;

function checkPng(bytes: Uint8Array): CheckedLogo | LogoRefusal {
  const header = pngChunks(bytes)?.[0];
  if (header?.type !== 'IHDR' || header.data.length !== 13) return { refused: 'The logo is not a readable PNG.' };
  const view = new DataView(header.data.buffer, header.data.byteOffset, 8);
  // The bound is checked before anything is inflated: the redraw's own budget is a signature's.
  const tooLarge = sideRefusal(view.getUint32(0), view.getUint32(4));
  if (tooLarge) return tooLarge;
  const drawn = redrawPng(bytes);
  if ('refused' in drawn) {
    return drawn.refused === 'unsupported'
      ? { refused: 'This kind of PNG is not taken: save the logo as an 8-bit RGB, RGBA or greyscale PNG (not indexed, not interlaced), or as a JPEG.' }
      : { refused: 'The logo is not a readable PNG.' };
  }
  return { type: 'image/png', bytes: drawn.png, width: drawn.width, height: drawn.height };
}

/** Frame markers of baseline (C0), extended (C1) and progressive (C2) Huffman JPEG: what every mail client shows. */
const SHOWN_FRAMES = new Set([0xc0, 0xc1, 0xc2]);
/** Every other start-of-frame marker: lossless, hierarchical or arithmetic coding. */
const OTHER_FRAMES = new Set([0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/**
 * Scans a JPEG may have. An encoder writes one, or about ten for a progressive image; each scan is
 * a pass over the whole image, so a small file of thousands of nearly empty scans would take the
 * decoder seconds.
 */
export const MAX_JPEG_SCANS = 64;

const unreadableJpeg: LogoRefusal = { refused: 'The logo is not a readable JPEG.' };

function checkJpeg(bytes: Uint8Array): CheckedLogo | LogoRefusal {
  const walked = walkJpeg(bytes);
  if ('refused' in walked) return walked;
  // Only the image goes to the decoder: whatever follows its end is dropped with the rest.
  const drawn = redrawJpeg(bytes.subarray(0, walked.end), walked.frame);
  if (!drawn) return unreadableJpeg;
  return { type: 'image/jpeg', bytes: drawn.jpeg, width: drawn.width, height: drawn.height };
}

/** The frame and where the image ends (after EOI), read from the segments, or why the file is refused. */
function walkJpeg(bytes: Uint8Array): { frame: { width: number; height: number }; end: number } | LogoRefusal {
  if (bytes[2] !== 0xff) return unreadableJpeg;
  let frame: { width: number; height: number } | null = null;
  let scans = 0;
  let at = 2;
  // Each segment is a marker and, but for a few, a length; a scan's coded data follows its header.
  for (;;) {
    if (at + 2 > bytes.length || bytes[at] !== 0xff) return unreadableJpeg;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd9) return frame && scans > 0 ? { frame, end: at + 2 } : unreadableJpeg;
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01 || marker === 0x00 || at + 4 > bytes.length) return unreadableJpeg;
    const length = (bytes[at + 2]! << 8) | bytes[at + 3]!;
    if (length < 2 || at + 2 + length > bytes.length) return unreadableJpeg;
    if (OTHER_FRAMES.has(marker))
      return { refused: 'This kind of JPEG (lossless, hierarchical or arithmetic-coded) is not taken: save it as a baseline or progressive JPEG.' };
    if (SHOWN_FRAMES.has(marker)) {
      if (frame || length < 8) return unreadableJpeg;
      const height = (bytes[at + 5]! << 8) | bytes[at + 6]!;
      const width = (bytes[at + 7]! << 8) | bytes[at + 8]!;
      const components = bytes[at + 9]!;
      if (bytes[at + 4] !== 8 || width === 0 || height === 0 || length !== 8 + 3 * components) return unreadableJpeg;
      if (components !== 1 && components !== 3) return { refused: 'Only greyscale or colour (YCbCr) JPEGs are taken, not CMYK.' };
      // The bound is checked before anything is decoded.
      const tooLarge = sideRefusal(width, height);
      if (tooLarge) return tooLarge;
      frame = { width, height };
    }
    at += 2 + length;
    if (marker === 0xda) {
      if (!frame) return unreadableJpeg;
      scans += 1;
      if (scans > MAX_JPEG_SCANS)
        return { refused: `The logo is a JPEG of more than ${MAX_JPEG_SCANS} scans: save it again as a baseline or progressive JPEG.` };
      at = endOfScan(bytes, at);
    }
  }
}

/**
 * Where a scan's coded data, from `at`, ends: at the first marker that is not a restart. In coded
 * data 0xFF is followed by 0x00 (a data byte) or starts a marker, so nothing else is mistaken for one.
 */
function endOfScan(bytes: Uint8Array, from: number): number {
  let at = from;
  for (;;) {
    at = bytes.indexOf(0xff, at);
    if (at < 0 || at + 1 >= bytes.length) return bytes.length;
    const next = bytes[at + 1]!;
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) at += 2;
    else if (next === 0xff) at += 1;
    else return at;
  }
}

/** `<svg`, `<?xml`, `<!DOCTYPE` or any other markup, after an optional byte-order mark and white space. */
function looksLikeMarkup(bytes: Uint8Array): boolean {
  const start = new TextDecoder()
    .decode(bytes.subarray(0, 256))
    .replace(/^\uFEFF/, '')
    .trimStart();
  return start.startsWith('<');
}
