/**
 * The chunks of a PNG file, read without decoding anything. A file whose chunks overrun its end,
 * whose checksums do not match or that stops before IEND is not a PNG: decoders differ in what
 * they make of such files (some quietly draw whatever they managed to inflate), so none is given one.
 */

export const PNG_SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

export type PngChunk = {
  type: string;
  data: Uint8Array;
  /** The whole chunk as it is in the file: length, type, data and CRC. */
  raw: Uint8Array;
};

/** The chunks up to and including IEND, each with a matching CRC; null when the file is not that. */
export function pngChunks(bytes: Uint8Array): PngChunk[] | null {
  if (bytes.length < PNG_SIGNATURE.length || PNG_SIGNATURE.some((byte, i) => bytes[i] !== byte)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunks: PngChunk[] = [];
  for (let at = PNG_SIGNATURE.length; at + 12 <= bytes.length; ) {
    const end = at + 12 + view.getUint32(at);
    if (end > bytes.length || crc32(bytes.subarray(at + 4, end - 4)) !== view.getUint32(end - 4)) return null;
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    chunks.push({ type, data: bytes.subarray(at + 8, end - 4), raw: bytes.subarray(at, end) });
    if (type === 'IEND') return chunks;
    at = end;
  }
  return null;
}

/** A chunk a decoder must understand to show the image right (an upper-case first letter). */
export const isCriticalChunk = (type: string) => type.charCodeAt(0) >= 0x41 && type.charCodeAt(0) <= 0x5a;

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
