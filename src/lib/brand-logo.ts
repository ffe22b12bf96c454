/**
 * A company's logo, checked by its bytes before it is kept: it is shown in e-mails and on the
 * signing page to people who never chose to trust it. Only PNG and JPEG are taken; SVG is refused
 * because it is a document that can carry script and links, and everything else because mail
 * clients do not all show it.
 *
 * A PNG is decoded under a budget and encoded again by the service (`drawn-png.ts`), so the file
 * kept is one the service made, without ancillary chunks (metadata, ICC profiles). A JPEG is not
 * decoded here (no decoder is part of the service): its segments are walked, its frame header must
 * name a baseline or progressive image of one or three components within the pixel bounds, and the
 * file must end where its scan ends.
 */
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

function checkJpeg(bytes: Uint8Array): CheckedLogo | LogoRefusal {
  const unreadable = { refused: 'The logo is not a readable JPEG.' };
  if (bytes[2] !== 0xff) return unreadable;
  let frame: { width: number; height: number } | null = null;
  let at = 2;
  // The header segments, up to the first scan: each is a marker and, but for a few, a length.
  for (;;) {
    if (at + 4 > bytes.length || bytes[at] !== 0xff) return unreadable;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0xd9 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) return unreadable;
    const length = (bytes[at + 2]! << 8) | bytes[at + 3]!;
    if (length < 2 || at + 2 + length > bytes.length) return unreadable;
    if (OTHER_FRAMES.has(marker)) return { refused: 'This kind of JPEG (lossless, hierarchical or arithmetic-coded) is not taken: save it as a baseline or progressive JPEG.' };
    if (SHOWN_FRAMES.has(marker)) {
      if (frame || length < 8) return unreadable;
      const height = (bytes[at + 5]! << 8) | bytes[at + 6]!;
      const width = (bytes[at + 7]! << 8) | bytes[at + 8]!;
      const components = bytes[at + 9]!;
      if (bytes[at + 4] !== 8 || width === 0 || height === 0 || length !== 8 + 3 * components) return unreadable;
      if (components !== 1 && components !== 3) return { refused: 'Only greyscale or colour (YCbCr) JPEGs are taken, not CMYK.' };
      const tooLarge = sideRefusal(width, height);
      if (tooLarge) return tooLarge;
      frame = { width, height };
    }
    at += 2 + length;
    if (marker === 0xda) break;
  }
  // The scan data runs to the end; the file ends with EOI, as every encoder writes it.
  if (!frame || bytes[bytes.length - 2] !== 0xff || bytes[bytes.length - 1] !== 0xd9 || at > bytes.length - 2) return unreadable;
  return { type: 'image/jpeg', bytes, ...frame };
}

/** `<svg`, `<?xml`, `<!DOCTYPE` or any other markup, after an optional byte-order mark and white space. */
function looksLikeMarkup(bytes: Uint8Array): boolean {
  const start = new TextDecoder().decode(bytes.subarray(0, 256)).replace(/^\uFEFF/, '').trimStart();
  return start.startsWith('<');
}
