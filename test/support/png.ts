import { crc32, deflateSync } from 'node:zlib';

/**
 * A real RGBA PNG from unfiltered rows (each a 0 filter byte and `width` RGBA pixels), as a
 * signature pad's canvas would export one. `declared` lets a test lie about the size in IHDR.
 */
export function encodePng(rows: Buffer, width: number, height: number, declared = { width, height }): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(declared.width, 0);
  ihdr.writeUInt32BE(declared.height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter method variants, no interlace
  const magic = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([magic, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}
