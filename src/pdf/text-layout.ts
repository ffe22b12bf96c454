import type { TextFont } from './fonts/typesetter.js';

/**
 * Measuring and breaking text that `drawableText` has already cleaned, with the shaped widths of
 * the embedded fonts. Cuts fall between grapheme clusters, so a letter never loses its marks and
 * an Indic syllable or an emoji sequence is never split.
 */

const ELLIPSIS = '\u2026';
let graphemes: Intl.Segmenter | undefined;

/** The offsets where `text` may be cut: 0, each grapheme boundary, and its length. */
function cuts(text: string): number[] {
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const offsets = Array.from(graphemes.segment(text), (s) => s.index);
  offsets.push(text.length);
  return offsets;
}

/** The longest start of `text` that fits, with an ellipsis when cut; '' when not even that fits. */
export function truncateToWidth(font: TextFont, text: string, size: number, maxWidth: number): string {
  if (font.widthOfTextAtSize(text, size) <= maxWidth) return text;
  if (font.widthOfTextAtSize(ELLIPSIS, size) > maxWidth) return '';
  const at = cuts(text);
  const cut = (n: number) => text.slice(0, at[n]).trimEnd() + ELLIPSIS;
  // Width grows with length, so the cut is found by bisection rather than one cluster at a time.
  let [fits, tooLong] = [0, at.length - 1];
  while (tooLong - fits > 1) {
    const mid = (fits + tooLong) >> 1;
    if (font.widthOfTextAtSize(cut(mid), size) <= maxWidth) fits = mid;
    else tooLong = mid;
  }
  return cut(fits);
}

/**
 * Greedy word wrap; a word wider than a line (a user agent, a hash, a long address) is broken
 * where it reaches the edge. Words are measured once each and added up; each line is then measured
 * whole (kerning, shaping across words), and gives back its last word should that not fit.
 */
export function wrapToWidth(font: TextFont, text: string, size: number, maxWidth: number): string[] {
  const lines: string[] = [];
  const space = font.widthOfTextAtSize(' ', size);
  let line = '';
  let width = 0;
  const push = (done: string) => {
    const words = done.split(' ');
    while (words.length > 1 && font.widthOfTextAtSize(words.join(' '), size) > maxWidth) {
      const last = words.pop()!;
      lines.push(words.join(' '));
      words.length = 0;
      words.push(last);
    }
    lines.push(words.join(' '));
  };
  for (const word of text.split(' ').filter((w) => w !== '')) {
    const wordWidth = font.widthOfTextAtSize(word, size);
    if (line !== '' && width + space + wordWidth <= maxWidth) {
      line = `${line} ${word}`;
      width += space + wordWidth;
      continue;
    }
    if (line !== '') push(line);
    line = word;
    width = wordWidth;
    while (width > maxWidth) {
      const cut = longestFittingPrefix(font, line, size, maxWidth);
      lines.push(line.slice(0, cut));
      line = line.slice(cut);
      width = font.widthOfTextAtSize(line, size);
    }
  }
  if (line !== '' || lines.length === 0) push(line);
  return lines;
}

/** The length of the longest start of `text` that fits, at least one cluster. */
function longestFittingPrefix(font: TextFont, text: string, size: number, maxWidth: number): number {
  const at = cuts(text);
  let [fits, tooLong] = [1, at.length - 1];
  while (tooLong - fits > 1) {
    const mid = (fits + tooLong) >> 1;
    if (font.widthOfTextAtSize(text.slice(0, at[mid]), size) <= maxWidth) fits = mid;
    else tooLong = mid;
  }
  return at[fits]!;
}

/** The baseline that centres one line of `size` vertically in a box starting at `bottom`. */
export function centredBaseline(font: TextFont, size: number, bottom: number, height: number): number {
  const full = font.heightAtSize(size);
  const ascent = font.heightAtSize(size, { descender: false });
  return bottom + (height - full) / 2 + (full - ascent);
}
