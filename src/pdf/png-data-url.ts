/**
 * The PNG inside a drawn signature's data URL, or null when it is not one worth decoding. The
 * checks here are cheap and come before pdf-lib decodes anything: a small PNG can declare a huge
 * canvas, and decoding it would inflate to width × height × 4 bytes of memory; and pdf-lib's decoder
 * quietly draws a truncated or corrupted file as whatever it managed to inflate, so every chunk's
 * length and CRC are checked here and the file must end with IEND.
 */

const PREFIX = /^data:image\/png;base64,/i;
/** Far beyond a signature pad at any pixel density, yet decoded within a Worker's memory. */
export const MAX_SIGNATURE_PIXELS = 4_000_000;
const MAX_BASE64_CHARS = 4_000_000;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function isPngDataUrl(value: string): boolean {
  return PREFIX.test(value);
}

export function pngFromDataUrl(value: string): Uint8Array | null {
  if (!PREFIX.test(value) || value.length > MAX_BASE64_CHARS + 64) return null;
  const base64 = value.slice(value.indexOf(',') + 1).replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) return null;
  let binary: string;
  try {
    binary = atob(base64);
  } catch {
    return null;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  // The signature, then IHDR first, as the format requires: its width and height are at 16 and 20.
  if (bytes.length < 33 || PNG_SIGNATURE.some((byte, i) => bytes[i] !== byte)) return null;
  if (String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [width, height] = [view.getUint32(16), view.getUint32(20)];
  if (width === 0 || height === 0 || width * height > MAX_SIGNATURE_PIXELS) return null;
  return wellFormedChunks(bytes, view) ? bytes : null;
}

function wellFormedChunks(bytes: Uint8Array, view: DataView): boolean {
  let sawData = false;
  for (let at = PNG_SIGNATURE.length; at + 12 <= bytes.length; ) {
    const length = view.getUint32(at);
    const end = at + 12 + length;
    if (end > bytes.length || crc32(bytes.subarray(at + 4, end - 4)) !== view.getUint32(end - 4)) return false;
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (type === 'IDAT') sawData = true;
    if (type === 'IEND') return sawData;
    at = end;
  }
  return false;
}

let crcTable: Uint32Array | undefined;
function crc32(data: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = 0; i < data.length; i++) crc = crcTable[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
