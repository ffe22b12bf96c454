/**
 * A JPEG decoded under a budget and encoded again by the service, so that the file kept is one the
 * service made: only the pixels survive, never what rode along in comments, application segments
 * (Exif, XMP, ICC profiles) or bytes after the image's end. It stays a JPEG, because a photograph
 * or a gradient drawn again as a PNG is several times larger.
 *
 * jpeg-js is pure JavaScript, so the same code runs in Node and in the Worker. The caller has
 * walked the file first (`brand-logo.ts`): one frame of 8-bit samples, within the side bound, and
 * a bounded number of scans. The decoder is held to that same pixel count and to a memory ceiling
 * all the same, so a file that lies to the walk is refused rather than decoded at any size.
 */
import { decode, encode } from 'jpeg-js';

/** High enough that a logo drawn again shows no loss to the eye; the logo is re-encoded once. */
export const REDRAWN_JPEG_QUALITY = 90;
/** Far above the coefficients and pixels of a 1024 × 1024 image (about 20 MB), far below a Worker's memory. */
const MAX_DECODER_MEMORY_MB = 64;

export type DrawnJpeg = { width: number; height: number; jpeg: Uint8Array };

/** The image drawn again, or null when it does not decode to the frame the walk read. */
export function redrawJpeg(bytes: Uint8Array, frame: { width: number; height: number }): DrawnJpeg | null {
  let image: { width: number; height: number; data: Uint8Array };
  try {
    image = decode(bytes, {
      useTArray: true,
      formatAsRGBA: true,
      maxResolutionInMP: (frame.width * frame.height) / 1e6,
      maxMemoryUsageInMB: MAX_DECODER_MEMORY_MB,
    });
  } catch {
    // Missing tables, a scan that does not parse, or past the budget: the decoder throws for each.
    return null;
  }
  if (image.width !== frame.width || image.height !== frame.height || image.data.length !== frame.width * frame.height * 4) return null;
  const drawn = encode({ width: image.width, height: image.height, data: image.data }, REDRAWN_JPEG_QUALITY);
  // The encoder answers a Node Buffer, which may be a slice of a shared pool: the logo keeps its own copy.
  return { width: image.width, height: image.height, jpeg: new Uint8Array(drawn.data) };
}
