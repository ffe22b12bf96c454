import type { Font } from '@pdf-lib/fontkit';
import type { FontFileEntry, FontManifest, FontSource } from './font-source.js';
import { woffToSfnt } from './woff-to-sfnt.js';

/** Which CJK face draws Han characters first: the one of the language the text's kana or hangul show. */
export type HanPreference = 'sc' | 'jp' | 'kr';

const HAN_ORDER: Record<HanPreference, string[]> = { sc: ['sc', 'tc', 'jp', 'kr'], jp: ['jp', 'sc', 'tc', 'kr'], kr: ['kr', 'sc', 'tc', 'jp'] };
const CJK = new Set(HAN_ORDER.sc);
const MAX_KEPT_LINES = 4_000;

export const hanPreference = (text: string): HanPreference =>
  /[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]/.test(text) ? 'jp' : /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]/.test(text) ? 'kr' : 'sc';

/** Characters that draw nothing (bidi controls, variation selectors…) and are left out of shaping; ZWJ and ZWNJ are kept, they steer joining. */
export const drawsNothing = (char: string) => /^\p{Default_Ignorable_Code_Point}$/u.test(char) && char !== '\u200c' && char !== '\u200d';

/**
 * The fonts of one font source, parsed once and kept with it, and which of them draws each
 * character: the first file of the fallback chain whose ranges hold the character and whose font
 * really has a glyph for it. Choosing is asynchronous (files are read on first need), so a
 * document names its text up front (`need`); drawing then only looks up (`fileFor`).
 */
export class FontLibrary {
  private static readonly libraries = new WeakMap<FontSource, Promise<FontLibrary>>();
  private readonly parsed = new Map<string, Promise<Font>>();
  private readonly fonts = new Map<string, Font>();
  private readonly chosen = new Map<string, string | null>();
  private readonly lines = new Map<string, unknown>();
  private readonly chains: Record<HanPreference, FontFileEntry[]>;

  static of(source: FontSource): Promise<FontLibrary> {
    let library = FontLibrary.libraries.get(source);
    if (!library) {
      library = Promise.all([source.manifest(), import('@pdf-lib/fontkit'), import('./layout-runtime.js')]).then(
        ([manifest, fontkit]) => new FontLibrary(source, manifest, fontkit.default ?? fontkit),
      );
      FontLibrary.libraries.set(source, library);
      library.catch(() => FontLibrary.libraries.delete(source));
    }
    return library;
  }

  private constructor(
    private readonly source: FontSource,
    manifest: FontManifest,
    private readonly fontkit: typeof import('@pdf-lib/fontkit'),
  ) {
    const ordered = (han: string[]) => {
      const rest = manifest.files.filter((entry) => !CJK.has(entry.family));
      return [...rest, ...han.flatMap((family) => manifest.files.filter((entry) => entry.family === family))];
    };
    this.chains = { sc: ordered(HAN_ORDER.sc), jp: ordered(HAN_ORDER.jp), kr: ordered(HAN_ORDER.kr) };
  }

  /** The file that draws the Latin text of the certificate, and the replacement glyph. */
  get primary(): string {
    return this.chains.sc[0]!.file;
  }

  /** Reads and parses every file that `texts` need, each with its own Han preference. */
  async need(texts: Iterable<string>): Promise<void> {
    await this.load(this.primary);
    for (const text of texts) {
      const preference = hanPreference(text);
      for (const char of new Set(text)) {
        const key = `${preference}${char}`;
        if (this.chosen.has(key) || drawsNothing(char)) continue;
        const codePoint = char.codePointAt(0)!;
        let file: string | null = null;
        for (const entry of this.chains[preference]) {
          if (!entry.ranges.some(([first, last]) => codePoint >= first && codePoint <= last)) continue;
          if ((await this.load(entry.file)).hasGlyphForCodePoint(codePoint)) {
            file = entry.file;
            break;
          }
        }
        this.chosen.set(key, file);
      }
    }
  }

  /** The file chosen for `char` (null: no font has it); undefined when no `need` named it. */
  fileFor(char: string, preference: HanPreference): string | null | undefined {
    // A line cut from a longer text may have lost the kana or hangul that chose its preference.
    return this.chosen.get(`${preference}${char}`) ?? this.chosen.get(`sc${char}`) ?? this.chosen.get(`jp${char}`) ?? this.chosen.get(`kr${char}`);
  }

  /**
   * A line shaped once and kept: wrapping and fitting measure the same strings again, and the
   * certificate's own words recur in every document. The oldest go first past the limit.
   */
  shaped<T>(key: string, shape: () => T): T {
    let line = this.lines.get(key) as T | undefined;
    if (line === undefined) {
      line = shape();
      if (this.lines.size >= MAX_KEPT_LINES) this.lines.delete(this.lines.keys().next().value!);
    } else {
      this.lines.delete(key);
    }
    this.lines.set(key, line);
    return line;
  }

  /** A file that `need` has read. */
  font(file: string): Font {
    const font = this.fonts.get(file);
    if (!font) throw new Error(`The font file ${file} was not read before drawing.`);
    return font;
  }

  private load(file: string): Promise<Font> {
    let font = this.parsed.get(file);
    if (!font) {
      font = this.source
        .read(file)
        .then(woffToSfnt)
        .then((bytes) => {
          const parsed = withOwnCodePoints(this.fontkit.create(bytes));
          this.fonts.set(file, parsed);
          return parsed;
        });
      this.parsed.set(file, font);
      font.catch(() => this.parsed.delete(file));
    }
    return font;
  }
}

/**
 * fontkit keeps one glyph object per glyph id, with the characters of its first use: a glyph that
 * stands for several characters (Arabic ج and ح share their medial body) would then copy as the
 * first one everywhere. Each use made by layout gets a glyph of its own characters instead.
 */
function withOwnCodePoints(font: Font): Font {
  const shared = font.getGlyph.bind(font);
  font.getGlyph = (id, codePoints) => {
    const glyph = shared(id, codePoints);
    if (!codePoints || (glyph.codePoints.length === codePoints.length && glyph.codePoints.every((cp, i) => cp === codePoints[i]))) return glyph;
    return Object.create(glyph, { codePoints: { value: codePoints } }) as typeof glyph;
  };
  return font;
}
