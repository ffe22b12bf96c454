import type { Font, Glyph, GlyphPosition } from '@pdf-lib/fontkit';
import bidiFactory from 'bidi-js';
import { type FontLibrary, drawsNothing, hanPreference } from './font-library.js';

export type Direction = 'ltr' | 'rtl' | 'auto';

/** Glyphs of one font, at one bidi level, in the order they are drawn (left to right). */
export type GlyphRun = {
  file: string;
  glyphs: Glyph[];
  positions: GlyphPosition[];
  /** The characters the run draws, in reading (logical) order: what copying it should give. */
  text: string;
  /** Advance in em. */
  advance: number;
  /** Shaped right to left (its glyphs are in visual order, the reverse of reading order). */
  rtl: boolean;
  unitsPerEm: number;
};

/** One line of text shaped for drawing: its runs left to right, and its width in em. */
export type ShapedLine = { runs: GlyphRun[]; advance: number; rtl: boolean };

const REPLACEMENT = '\ufffd';
let bidi: ReturnType<typeof bidiFactory> | undefined;

/**
 * Shapes one line: the Unicode bidi algorithm gives each character its level; the characters are
 * cut into runs of one level and one font (a space, digit, mark or punctuation stays with the run
 * around it when that font has it); fontkit shapes each run (GSUB/GPOS: Arabic joining, Indic
 * conjuncts and reordering, mark placement); the runs are put in visual order. A character that no
 * font has (emoji, unassigned, private use) is drawn as the replacement glyph.
 */
export function shapeLine(library: FontLibrary, text: string, direction: Direction): ShapedLine {
  bidi ??= bidiFactory();
  const { levels, paragraphs } = bidi.getEmbeddingLevels(text, direction === 'auto' ? undefined : direction);
  const mirrored = bidi.getMirroredCharactersMap(text, levels);
  const preference = hanPreference(text);
  const pieces: { file: string; level: number; draw: string; logical: string }[] = [];
  let index = 0;
  for (const char of text) {
    const at = index;
    index += char.length;
    const level = levels[at]!;
    const last = pieces.at(-1);
    if (drawsNothing(char)) {
      if (last) last.logical += char;
      continue;
    }
    const chosen = library.fileFor(char, preference);
    const joinsLast =
      last &&
      last.level === level &&
      last.file !== library.primary + REPLACEMENT &&
      staysWithRun(char) &&
      library.font(last.file).hasGlyphForCodePoint(char.codePointAt(0)!);
    const file = joinsLast ? last.file : chosen ? chosen : library.primary + REPLACEMENT;
    const draw = file.endsWith(REPLACEMENT) ? REPLACEMENT : (mirrored.get(at) ?? char);
    if (last && last.file === file && last.level === level) {
      last.draw += draw;
      last.logical += char;
    } else {
      pieces.push({ file, level, draw, logical: char });
    }
  }

  const runs = pieces.map((piece) => {
    const file = piece.file.endsWith(REPLACEMENT) ? library.primary : piece.file;
    const font = library.font(file);
    const rtl = piece.level % 2 === 1;
    const shaped = layoutRun(font, piece.draw, rtl);
    const advance = shaped.positions.reduce((sum, p) => sum + p.xAdvance, 0) / font.unitsPerEm;
    return {
      run: { file, glyphs: shaped.glyphs, positions: shaped.positions, text: piece.logical, advance, rtl, unitsPerEm: font.unitsPerEm },
      level: piece.level,
    };
  });

  return { runs: visualOrder(runs), advance: runs.reduce((sum, { run }) => sum + run.advance, 0), rtl: (paragraphs[0]?.level ?? 0) % 2 === 1 };
}

type Shaped = { glyphs: Glyph[]; positions: GlyphPosition[] };

/**
 * fontkit's shaping, which throws on a few fonts' tables (Noto Sans Gurmukhi's above-base mark
 * anchors, for one): then again without mark positioning, and at worst the glyphs unshaped, each
 * at its own advance. A name is drawn less finely, never not at all.
 */
function layoutRun(font: Font, text: string, rtl: boolean): Shaped {
  // fontkit's layout takes script, language and direction after the features; its typings omit them.
  const layout = font.layout as unknown as (text: string, features?: Record<string, boolean>, script?: string, language?: string, direction?: string) => Shaped;
  const direction = rtl ? 'rtl' : 'ltr';
  try {
    return layout.call(font, text, undefined, undefined, undefined, direction);
  } catch {
    try {
      // A new object each time: fontkit writes the features it applies into the one it is given.
      return layout.call(font, text, { abvm: false, blwm: false, mark: false, mkmk: false }, undefined, undefined, direction);
    } catch {
      const glyphs = font.glyphsForString(text);
      const positions = glyphs.map((g) => ({ xAdvance: g.advanceWidth, yAdvance: 0, xOffset: 0, yOffset: 0 }) as GlyphPosition);
      return rtl ? { glyphs: glyphs.reverse(), positions: positions.reverse() } : { glyphs, positions };
    }
  }
}

/** Characters of no script of their own: they take the font of the run they are in. */
const staysWithRun = (char: string) => /^[\p{M}\p{Zs}\p{P}\p{N}\p{S}]$/u.test(char);

/** Rule L2 of the bidi algorithm over runs: from the highest level down to the lowest odd one, reverse every stretch at or above it. */
function visualOrder<T>(runs: { run: T; level: number }[]): T[] {
  const order = [...runs];
  const highest = Math.max(0, ...order.map((r) => r.level));
  const lowestOdd = Math.min(...order.map((r) => r.level).filter((level) => level % 2 === 1), highest + 1);
  for (let level = highest; level >= lowestOdd; level--) {
    for (let i = 0; i < order.length; ) {
      if (order[i]!.level < level) {
        i++;
        continue;
      }
      let end = i;
      while (end < order.length && order[end]!.level >= level) end++;
      order.splice(i, end - i, ...order.slice(i, end).reverse());
      i = end;
    }
  }
  return order.map((r) => r.run);
}
