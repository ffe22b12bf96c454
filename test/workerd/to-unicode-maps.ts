/** Reading a PDF's text inside workerd, where no outside reader runs: the fonts' ToUnicode maps. */

export const latin1 = (bytes: Uint8Array) => Array.from(bytes, (byte) => String.fromCharCode(byte)).join('');

/** The text of every ToUnicode map in the file (they are Flate streams named by the fonts' ToUnicode entries). */
export async function toUnicodeMaps(bytes: Uint8Array): Promise<string> {
  const text = latin1(bytes);
  const refs = new Set([...text.matchAll(/\/ToUnicode (\d+) 0 R/g)].map((m) => m[1]!));
  let maps = '';
  for (const ref of refs) {
    const at = text.lastIndexOf(`\n${ref} 0 obj`);
    const start = text.indexOf('stream\n', at) + 'stream\n'.length;
    const end = text.indexOf('\nendstream', start);
    const inflated = new Blob([bytes.slice(start, end)]).stream().pipeThrough(new DecompressionStream('deflate'));
    maps += await new Response(inflated).text();
  }
  return maps;
}

/** The UTF-16 hex a ToUnicode map writes for a character. */
export const hex = (char: string) => Array.from({ length: char.length }, (_, i) => char.charCodeAt(i).toString(16).padStart(4, '0')).join('');
