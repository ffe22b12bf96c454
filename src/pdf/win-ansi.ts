/**
 * Text for pdf-lib's standard fonts. They encode WinAnsi only and throw on anything else, while
 * the values drawn come from signers (any Unicode, control characters, markup): every string goes
 * through `toWinAnsi` before it is measured or drawn, so no input can make drawing fail.
 */

// The code points WinAnsi gives a glyph outside printable ASCII and Latin-1 (its 0x80–0x9F block).
const WIN_ANSI_EXTRA = new Set([
  0x152, 0x153, 0x160, 0x161, 0x178, 0x17d, 0x17e, 0x192, 0x2c6, 0x2dc, 0x2013, 0x2014, 0x2018, 0x2019,
  0x201a, 0x201c, 0x201d, 0x201e, 0x2020, 0x2021, 0x2022, 0x2026, 0x2030, 0x2039, 0x203a, 0x20ac, 0x2122,
]);
// Line and tab breaks read as spaces: a value is laid out by the caller, never by the input.
const BREAKS = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x85, 0x2028, 0x2029]);

export const isWinAnsi = (codePoint: number) =>
  (codePoint >= 0x20 && codePoint <= 0x7e) || (codePoint >= 0xa0 && codePoint <= 0xff) || WIN_ANSI_EXTRA.has(codePoint);

/**
 * The text with every character WinAnsi cannot draw replaced by '?' (one per code point, so an
 * emoji or an unpaired surrogate is one '?') and breaks turned into spaces. NFC first, so that a
 * letter typed as base + combining accent keeps its accent where Latin-1 has the composed form.
 */
export function toWinAnsi(text: string): string {
  let out = '';
  for (const char of text.normalize('NFC')) {
    const codePoint = char.codePointAt(0)!;
    out += isWinAnsi(codePoint) ? char : BREAKS.has(codePoint) ? ' ' : '?';
  }
  return out;
}
