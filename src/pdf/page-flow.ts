import type { Color, PDFDocument, PDFPage } from 'pdf-lib';
import { drawableText } from './drawable-text.js';
import type { Typesetter } from './fonts/typesetter.js';
import { truncateToWidth, wrapToWidth } from './text-layout.js';

/** US Letter, in points. */
export const LETTER: [number, number] = [612, 792];
const MARGIN = 54;
const FOOTER_SPACE = 24;
const WIDTH = LETTER[0] - 2 * MARGIN;
// No line of the certificate needs more; longer input (a hostile user agent) is cut before it is wrapped.
const MAX_INPUT_CHARS = 2_000;

export type TextStyle = { size: number; bold?: boolean; color?: Color; indent?: number; maxLines?: number };

/**
 * Text laid out top to bottom on as many new pages as it takes, in any script (the typesetter's
 * fonts). All input passes through `drawableText` here, so callers hand over raw values. Lines run
 * left to right as the certificate does; a right-to-left name or value within one is ordered by
 * the bidi algorithm.
 */
export class PageFlow {
  readonly pages: PDFPage[] = [];
  private page!: PDFPage;
  private y = 0;

  constructor(
    private readonly pdf: PDFDocument,
    private readonly type: Typesetter,
    /** Drawn at the top of every page after the first. */
    private readonly continued: { text: string; style: TextStyle },
  ) {
    this.newPage();
  }

  private newPage() {
    this.page = this.pdf.addPage(LETTER);
    this.pages.push(this.page);
    this.y = LETTER[1] - MARGIN;
    if (this.pages.length > 1) {
      this.text(this.continued.text, this.continued.style);
      this.gap(8);
    }
  }

  /** Starts a new page unless `height` points still fit on this one, to keep a block together. */
  keep(height: number) {
    if (this.y - height < MARGIN + FOOTER_SPACE) this.newPage();
  }

  gap(points: number) {
    this.y -= points;
  }

  /** Wrapped lines at the flow's left edge plus `indent`; with `maxLines`, the last one shown ends in an ellipsis. */
  text(raw: string, style: TextStyle) {
    this.lines(this.wrap(raw, style, WIDTH - (style.indent ?? 0)), style, MARGIN + (style.indent ?? 0));
  }

  /** A label in the left column and its value wrapped in the right one. */
  row(label: string, value: string, labelStyle: TextStyle, valueStyle: TextStyle, labelWidth: number) {
    const lines = this.wrap(value, valueStyle, WIDTH - labelWidth);
    this.keep(lineHeight(valueStyle));
    const baseline = this.y - valueStyle.size;
    const shownLabel = truncateToWidth(this.type.font(), drawableText(label.slice(0, MAX_INPUT_CHARS)), labelStyle.size, labelWidth - 6);
    this.draw(this.page, shownLabel, MARGIN, baseline, labelStyle);
    this.lines(lines, valueStyle, MARGIN + labelWidth);
  }

  /** "Page N of M" and `left` at the foot of every page; only known once the flow has ended. */
  footers(left: string, style: TextStyle) {
    const y = MARGIN - style.size;
    this.pages.forEach((page, index) => {
      const right = `Page ${index + 1} of ${this.pages.length}`;
      const rightWidth = this.type.font().widthOfTextAtSize(right, style.size);
      this.draw(page, right, MARGIN + WIDTH - rightWidth, y, style);
      const shown = truncateToWidth(this.type.font(), drawableText(left.slice(0, MAX_INPUT_CHARS)), style.size, WIDTH - rightWidth - 18);
      this.draw(page, shown, MARGIN, y, style);
    });
  }

  private wrap(raw: string, style: TextStyle, width: number): string[] {
    const lines = wrapToWidth(this.type.font(), drawableText(raw.slice(0, MAX_INPUT_CHARS)), style.size, width);
    const max = style.maxLines ?? Infinity;
    if (lines.length <= max) return lines;
    // The last kept line plus the next is wider than a line, so truncating it always shows the ellipsis.
    return [...lines.slice(0, max - 1), truncateToWidth(this.type.font(), `${lines[max - 1]} ${lines[max]}`, style.size, width)];
  }

  private draw(page: PDFPage, text: string, x: number, y: number, style: TextStyle) {
    if (text === '') return;
    this.type.draw(page, this.type.shape(text), { x, y, size: style.size, color: style.color, bold: style.bold });
  }

  private lines(lines: string[], style: TextStyle, x: number) {
    for (const line of lines) {
      this.keep(lineHeight(style));
      this.draw(this.page, line, x, this.y - style.size, style);
      this.y -= lineHeight(style);
    }
  }
}

const lineHeight = (style: TextStyle) => style.size * 1.35;
