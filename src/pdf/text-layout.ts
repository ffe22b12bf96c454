import type { PDFFont } from 'pdf-lib';

/**
 * Measuring and breaking text that `toWinAnsi` has already made drawable. After it, every
 * character is one UTF-16 unit, so string indexes are characters.
 */

const ELLIPSIS = '\u2026';

/** The longest start of `text` that fits, with an ellipsis when cut; '' when not even that fits. */
export function truncateToWidth(font: PDFFont, text: string, size: number, maxWidth: number): string {
  if (font.widthOfTextAtSize(text, size) <= maxWidth) return text;
  if (font.widthOfTextAtSize(ELLIPSIS, size) > maxWidth) return '';
  // Width grows with length, so the cut is found by bisection rather than one character at a time.
  let [fits, tooLong] = [0, text.length];
  while (tooLong - fits > 1) {
    const mid = (fits + tooLong) >> 1;
    if (font.widthOfTextAtSize(text.slice(0, mid).trimEnd() + ELLIPSIS, size) <= maxWidth) fits = mid;
    else tooLong = mid;
  }
  return text.slice(0, fits).trimEnd() + ELLIPSIS;
}

/**
 * Greedy word wrap; a word wider than a line (a user agent, a hash, a long address) is broken
 * where it reaches the edge. Whole candidate lines are measured, so kerning is counted.
 */
export function wrapToWidth(font: PDFFont, text: string, size: number, maxWidth: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ').filter((w) => w !== '')) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (font.widthOfTextAtSize(candidate, size) <= maxWidth) {
      line = candidate;
      continue;
    }
    if (line !== '') lines.push(line);
    line = word;
    while (font.widthOfTextAtSize(line, size) > maxWidth) {
      const cut = Math.max(1, longestFittingPrefix(font, line, size, maxWidth));
      lines.push(line.slice(0, cut));
      line = line.slice(cut);
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}

function longestFittingPrefix(font: PDFFont, text: string, size: number, maxWidth: number): number {
  let [fits, tooLong] = [0, text.length];
  while (tooLong - fits > 1) {
    const mid = (fits + tooLong) >> 1;
    if (font.widthOfTextAtSize(text.slice(0, mid), size) <= maxWidth) fits = mid;
    else tooLong = mid;
  }
  return fits;
}

/** The baseline that centres one line of `size` vertically in a box starting at `bottom`. */
export function centredBaseline(font: PDFFont, size: number, bottom: number, height: number): number {
  const full = font.heightAtSize(size);
  const ascent = font.heightAtSize(size, { descender: false });
  return bottom + (height - full) / 2 + (full - ascent);
}
