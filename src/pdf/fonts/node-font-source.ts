/** The font source of Node (`npm start`, the PDF thread, tests): the @fontsource packages in node_modules. */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fontManifest, fontPath } from './font-files.mjs';
import { type FontFileEntry, type FontManifest, type FontSource, remembered } from './font-source.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

let shared: FontSource | undefined;

/** One source per process: its files are read once, whichever document needs them first. */
export function nodeFontSource(root = ROOT): FontSource {
  if (root === ROOT && shared) return shared;
  let manifest: Promise<FontManifest> | undefined;
  const byFile = async () => new Map((await source.manifest()).files.map((entry) => [entry.file, entry]));
  let index: Promise<Map<string, FontFileEntry>> | undefined;
  const read = remembered(async (file) => {
    const entry = (await (index ??= byFile())).get(file);
    if (!entry) throw new Error(`No font file ${file} in the manifest.`);
    return new Uint8Array(await readFile(fontPath(root, entry)));
  });
  const source: FontSource = {
    manifest: () => (manifest ??= Promise.resolve().then(() => fontManifest(root))),
    read,
  };
  if (root === ROOT) shared = source;
  return source;
}
