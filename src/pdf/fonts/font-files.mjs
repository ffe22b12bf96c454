/**
 * Which font files the finished PDF may draw with, and the characters each is made for: the
 * @fontsource Noto packages, weight 400 normal, one file per unicode-range subset. Plain
 * JavaScript, because `postinstall` (scripts/copy-static-vendor.mjs) runs it before anything of
 * the project can be compiled; the Node font source reads the same list at run time.
 *
 * The order is the fallback chain: a character is drawn with the first file that has a glyph for
 * it, so Latin, Cyrillic and Greek come from Noto Sans even where a script's package repeats them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** [family, package, subsets]; `numbered` takes every "[n]" subset of a CJK package, split by frequency. */
export const FONT_FAMILIES = [
  ['sans', 'noto-sans', ['latin', 'latin-ext', 'vietnamese', 'cyrillic', 'cyrillic-ext', 'greek', 'greek-ext']],
  ['hebrew', 'noto-sans-hebrew', ['hebrew']],
  ['arabic', 'noto-sans-arabic', ['arabic']],
  ['devanagari', 'noto-sans-devanagari', ['devanagari']],
  ['bengali', 'noto-sans-bengali', ['bengali']],
  ['gurmukhi', 'noto-sans-gurmukhi', ['gurmukhi']],
  ['gujarati', 'noto-sans-gujarati', ['gujarati']],
  ['tamil', 'noto-sans-tamil', ['tamil']],
  ['telugu', 'noto-sans-telugu', ['telugu']],
  ['kannada', 'noto-sans-kannada', ['kannada']],
  ['malayalam', 'noto-sans-malayalam', ['malayalam']],
  ['thai', 'noto-sans-thai', ['thai']],
  ['ethiopic', 'noto-sans-ethiopic', ['ethiopic']],
  ['sc', 'noto-sans-sc', 'numbered'],
  ['tc', 'noto-sans-tc', 'numbered'],
  ['jp', 'noto-sans-jp', 'numbered'],
  ['kr', 'noto-sans-kr', 'numbered'],
];

/** "U+0400-045F,U+2116" as [[0x400, 0x45f], [0x2116, 0x2116]]. */
export function parseRanges(text) {
  return text.split(',').map((part) => {
    const [lo, hi] = part.trim().replace(/^U\+/i, '').split('-');
    return [parseInt(lo, 16), parseInt(hi ?? lo, 16)];
  });
}

/**
 * The manifest: { files: [{ family, file, ranges }] } in fallback order, `file` being the name of
 * the .woff file (fontkit reads WOFF directly and faster than WOFF2) in its package's files/ folder.
 */
export function fontManifest(root) {
  const files = [];
  for (const [family, pkg, subsets] of FONT_FAMILIES) {
    const unicode = JSON.parse(readFileSync(join(packageDir(root, pkg), 'unicode.json'), 'utf8'));
    const names = subsets === 'numbered' ? Object.keys(unicode).filter((key) => /^\[\d+\]$/.test(key)) : subsets;
    for (const subset of names) {
      if (!unicode[subset]) throw new Error(`${pkg} has no subset ${subset}`);
      const name = subset.startsWith('[') ? subset.slice(1, -1) : subset;
      files.push({ family, package: pkg, file: `${pkg}-${name}-400-normal.woff`, ranges: parseRanges(unicode[subset]) });
    }
  }
  return { files };
}

export const packageDir = (root, pkg) => join(root, 'node_modules', '@fontsource', pkg);
export const fontPath = (root, entry) => join(packageDir(root, entry.package), 'files', entry.file);
