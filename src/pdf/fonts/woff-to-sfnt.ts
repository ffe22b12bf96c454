/**
 * A WOFF 1.0 file as the plain OpenType (sfnt) font it wraps. fontkit reads WOFF, but inflates a
 * table again on every read of it, and subsetting reads the glyph table once per glyph: unwrapped
 * once when a file is loaded (by the runtime's own inflate), the font is read as plain bytes.
 */
export async function woffToSfnt(woff: Uint8Array): Promise<Uint8Array> {
  const view = new DataView(woff.buffer, woff.byteOffset, woff.byteLength);
  if (view.getUint32(0) !== 0x774f4646) return woff; // 'wOFF'; anything else is taken as it is
  const flavor = view.getUint32(4);
  const numTables = view.getUint16(12);
  const tables = await Promise.all(
    Array.from({ length: numTables }, async (_, i) => {
      const at = 44 + i * 20;
      const [tag, offset, compLength, origLength, checksum] = [0, 4, 8, 12, 16].map((o) => view.getUint32(at + o)) as [number, number, number, number, number];
      const stored = woff.subarray(offset, offset + compLength);
      const data = compLength < origLength ? await inflate(stored) : stored;
      if (data.length !== origLength) throw new Error('A WOFF table did not inflate to its stated length.');
      return { tag, checksum, data };
    }),
  );
  const headerLength = 12 + 16 * numTables;
  const padded = (n: number) => (n + 3) & ~3;
  const out = new Uint8Array(headerLength + tables.reduce((n, t) => n + padded(t.data.length), 0));
  const sfnt = new DataView(out.buffer);
  const searchRange = 2 ** Math.floor(Math.log2(numTables)) * 16;
  sfnt.setUint32(0, flavor);
  sfnt.setUint16(4, numTables);
  sfnt.setUint16(6, searchRange);
  sfnt.setUint16(8, Math.floor(Math.log2(numTables)));
  sfnt.setUint16(10, numTables * 16 - searchRange);
  let offset = headerLength;
  tables.forEach((table, i) => {
    const record = 12 + i * 16;
    sfnt.setUint32(record, table.tag);
    sfnt.setUint32(record + 4, table.checksum);
    sfnt.setUint32(record + 8, offset);
    sfnt.setUint32(record + 12, table.data.length);
    out.set(table.data, offset);
    offset += padded(table.data.length);
  });
  return out;
}

async function inflate(zlib: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([zlib as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
