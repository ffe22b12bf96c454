/**
 * Where the finished PDF's font files come from: a port with two implementations, Node's
 * (node-font-source.ts, read from node_modules) and the PDF Worker's (asset-font-source.ts, its
 * static assets). Both keep what they read for the life of the process or isolate.
 */

export type FontFileEntry = {
  /** The face's family in the fallback chain (font-files.mjs), e.g. 'sans', 'arabic', 'sc'. */
  family: string;
  package: string;
  /** The .woff file's name, unique across packages. */
  file: string;
  /** The code points the file is made for, as inclusive [first, last] pairs. */
  ranges: [number, number][];
};

export type FontManifest = { files: FontFileEntry[] };

export interface FontSource {
  manifest(): Promise<FontManifest>;
  /** The bytes of one file of the manifest. */
  read(file: string): Promise<Uint8Array>;
}

/** Remembers every answer of `load` by key, failures excepted, so a failed read is tried again next time. */
export function remembered<T>(load: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const kept = new Map<string, Promise<T>>();
  return (key) => {
    let answer = kept.get(key);
    if (!answer) {
      answer = load(key);
      kept.set(key, answer);
      answer.catch(() => kept.delete(key));
    }
    return answer;
  };
}
