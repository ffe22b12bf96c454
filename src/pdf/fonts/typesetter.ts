import type { Color, PDFDocument, PDFName, PDFOperator, PDFPage } from 'pdf-lib';
import { EmbeddedFace } from './embedded-face.js';
import { FontLibrary } from './font-library.js';
import type { FontSource } from './font-source.js';
import { type Direction, type ShapedLine, shapeLine } from './shaped-line.js';

type PdfLib = typeof import('pdf-lib');
type PDFOperatorArg = NonNullable<Parameters<typeof PDFOperator.of>[1]>[number];

/** What text-layout.ts measures with: the part of pdf-lib's PDFFont it used, for shaped text. */
export type TextFont = {
  widthOfTextAtSize(text: string, size: number): number;
  heightAtSize(size: number, options?: { descender?: boolean }): number;
  sizeAtHeight(height: number): number;
};

export type DrawOptions = {
  x: number;
  /** The baseline. */
  y: number;
  size: number;
  color?: Color;
  /** Emphasis without a bold file: the outline is stroked as well as filled. */
  bold?: boolean;
  /** Slanted, as a typed signature is shown. */
  oblique?: boolean;
};

/**
 * The text of one revision of a PDF (the signed content, or the certificate that follows it):
 * shapes and measures lines with the fonts of `source`, draws them as positioned glyphs, and
 * embeds the subsets it used when `finish` is called, before the revision is saved.
 */
export class Typesetter {
  private readonly faces = new Map<string, EmbeddedFace>();
  private readonly metrics: Metrics;

  private constructor(
    private readonly lib: PdfLib,
    private readonly pdf: PDFDocument,
    private readonly library: FontLibrary,
  ) {
    this.metrics = metricsOf(library);
  }

  /** Reads the fonts that `texts` need; text not named here draws as replacement glyphs. */
  static async for(lib: PdfLib, pdf: PDFDocument, source: FontSource, texts: Iterable<string>): Promise<Typesetter> {
    const library = await FontLibrary.of(source);
    await library.need([ALWAYS, ...texts]);
    return new Typesetter(lib, pdf, library);
  }

  shape(text: string, direction: Direction = 'ltr'): ShapedLine {
    return shapedIn(this.library, text, direction);
  }

  /** Measures as `direction` lays out; heights are the primary font's, so every script sits on one line height. */
  font(direction: Direction = 'ltr'): TextFont {
    return measuringFont(this.library, this.metrics, direction);
  }

  /** Draws a shaped line from its left end at `x`, each run in its own font, with its reading-order text for copying. */
  draw(page: PDFPage, line: ShapedLine, options: DrawOptions): void {
    const { lib } = this;
    const { PDFOperator: Op, PDFName: Name, PDFNumber: Num, PDFHexString: Hex } = lib;
    const { size } = options;
    const slant = options.oblique ? 0.2 : 0;
    const ops: PDFOperator[] = [Op.of(lib.PDFOperatorNames.PushGraphicsState)];
    if (options.color) ops.push(lib.setFillingColor(options.color));
    if (options.bold) {
      if (options.color) ops.push(lib.setStrokingColor(options.color));
      ops.push(lib.setLineWidth(size * 0.035), lib.setTextRenderingMode(lib.TextRenderingMode.FillAndOutline));
    }
    let x = options.x;
    for (const run of line.runs) {
      const face = this.face(run.file);
      const key = this.fontKey(page, face);
      const scale = size / run.unitsPerEm;
      // Where the glyphs do not spell the run's text in order (conjuncts, reordered vowel signs,
      // replacement glyphs, marks placed apart), the text as read is attached for search and copy. Right-to-left runs
      // keep to their glyphs' own text, drawn in visual order: readers reverse that themselves.
      const cids = run.glyphs.map((glyph) => face.cid(glyph));
      const spelled = run.glyphs.map((glyph, i) => face.spells(cids[i]!, glyph));
      const inOrder = run.glyphs.map((g) => String.fromCodePoint(...g.codePoints)).join('') === run.text;
      // A mark placed apart (Thai tones, Vietnamese stacks) reads to some extractors as a word of its own.
      const placedApart = run.positions.some((p) => p.xOffset !== 0 || p.yOffset !== 0);
      const actual = !run.rtl && (!inOrder || placedApart || !spelled.every(Boolean));
      const span = (text: string) =>
        Op.of(lib.PDFOperatorNames.BeginMarkedContentSequence, [
          Name.of('Span'),
          this.pdf.context.obj({ ActualText: Hex.fromText(text) }) as unknown as PDFOperatorArg,
        ]);
      if (actual) ops.push(span(run.text));
      ops.push(Op.of(lib.PDFOperatorNames.BeginText), Op.of(lib.PDFOperatorNames.SetFontAndSize, [key, Num.of(size)]));
      const moveTo = (mx: number, my: number) =>
        ops.push(
          Op.of(
            lib.PDFOperatorNames.SetTextMatrix,
            [1, 0, slant, 1, mx, my].map((n) => Num.of(round(n))),
          ),
        );
      const glyphHex = (i: number) => Hex.of(cids[i]!.toString(16).padStart(4, '0'));
      // Glyphs on the pen's path go out together (TJ), each advance that differs from the font's
      // width (kerning, GPOS) as an adjustment; a glyph placed off the path (a mark, a raised tone)
      // gets a position of its own, and the pen is placed again after it.
      let shown = this.pdf.context.obj([]);
      let placed = false;
      const flush = () => {
        if (shown.size() > 0) ops.push(Op.of(lib.PDFOperatorNames.ShowTextAdjusted, [shown as unknown as PDFOperatorArg]));
        shown = this.pdf.context.obj([]);
      };
      run.glyphs.forEach((glyph, i) => {
        const position = run.positions[i]!;
        // In a right-to-left run, a glyph whose map gives other characters is told glyph by glyph.
        const own = run.rtl && !spelled[i];
        if (position.xOffset !== 0 || position.yOffset !== 0 || own) {
          flush();
          moveTo(x + position.xOffset * scale, options.y + position.yOffset * scale);
          if (own) ops.push(span(String.fromCodePoint(...glyph.codePoints)));
          ops.push(Op.of(lib.PDFOperatorNames.ShowText, [glyphHex(i)]));
          if (own) ops.push(Op.of(lib.PDFOperatorNames.EndMarkedContent));
          placed = false;
        } else {
          if (!placed) moveTo(x, options.y);
          placed = true;
          shown.push(glyphHex(i));
          const adjustment = round(Math.round((glyph.advanceWidth * 1000) / run.unitsPerEm) - (position.xAdvance * 1000) / run.unitsPerEm);
          if (adjustment !== 0) shown.push(Num.of(adjustment));
        }
        x += position.xAdvance * scale;
      });
      flush();
      ops.push(Op.of(lib.PDFOperatorNames.EndText));
      if (actual) ops.push(Op.of(lib.PDFOperatorNames.EndMarkedContent));
    }
    ops.push(Op.of(lib.PDFOperatorNames.PopGraphicsState));
    page.pushOperators(...ops);
  }

  /** Embeds the subsets of every font drawn with; call once, before the revision is saved. */
  async finish(): Promise<void> {
    for (const face of this.faces.values()) await face.embed(this.lib);
  }

  private face(file: string): EmbeddedFace {
    let face = this.faces.get(file);
    if (!face) this.faces.set(file, (face = new EmbeddedFace(this.pdf, this.library.font(file))));
    return face;
  }

  private readonly keys = new WeakMap<PDFPage, Map<EmbeddedFace, PDFName>>();

  private fontKey(page: PDFPage, face: EmbeddedFace): PDFName {
    let onPage = this.keys.get(page);
    if (!onPage) this.keys.set(page, (onPage = new Map()));
    let key = onPage.get(face);
    if (!key) onPage.set(face, (key = page.node.newFontDictionary('F', face.ref)));
    return key;
  }
}

/**
 * Measures `texts` as a Typesetter of `source` does, without a document to draw in: text is
 * checked with the very fonts and shaping it will later be drawn with.
 */
export async function textMeasure(source: FontSource, texts: Iterable<string>): Promise<(direction?: Direction) => TextFont> {
  const library = await FontLibrary.of(source);
  await library.need([ALWAYS, ...texts]);
  const metrics = metricsOf(library);
  return (direction = 'ltr') => measuringFont(library, metrics, direction);
}

type Metrics = { ascent: number; descent: number };

function metricsOf(library: FontLibrary): Metrics {
  const primary = library.font(library.primary);
  return { ascent: primary.ascent / primary.unitsPerEm, descent: primary.descent / primary.unitsPerEm };
}

const shapedIn = (library: FontLibrary, text: string, direction: Direction): ShapedLine =>
  library.shaped(`${direction}:${text}`, () => shapeLine(library, text, direction));

function measuringFont(library: FontLibrary, { ascent, descent }: Metrics, direction: Direction): TextFont {
  return {
    widthOfTextAtSize: (text, size) => shapedIn(library, text, direction).advance * size,
    heightAtSize: (size, options) => (options?.descender === false ? ascent : ascent - descent) * size,
    sizeAtHeight: (height) => height / (ascent - descent),
  };
}

// The certificate's own words and the layout's marks, whatever the values hold.
const ALWAYS = `${String.fromCharCode(...Array.from({ length: 95 }, (_, i) => 32 + i))}\u00b7\u2026\u2013\u2014\u2018\u2019\u201c\u201d\ufffd`;

const round = (n: number) => Math.round(n * 1000) / 1000;
