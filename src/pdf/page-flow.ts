import type { Color, PDFDocument, PDFFont, PDFPage } from 'pdf-lib';
import { truncateToWidth, wrapToWidth } from './text-layout.js';
import { toWinAnsi } from './win-ansi.js';

/** US Letter, in points. */
export const LETTER: [number, number] = [612, 792];
const MARGIN = 54;
const FOOTER_SPACE = 24;
const WIDTH = LETTER[0] - 2 * MARGIN;
// No line of the certificate needs more; longer input (a hostile user agent) is cut before it is wrapped.
const MAX_INPUT_CHARS = 2_000;

export type TextStyle = { font: PDFFont; size: number; color?: Color; indent?: number; maxLines?: number };

/**
 * Text laid out top to bottom on as many new pages as it takes. All input passes through
 * `toWinAnsi` here, so callers hand over raw values.
 */
export class PageFlow {
  readonly pages: PDFPage[] = [];
  private page!: PDFPage;
  private y = 0;

  constructor(
    private readonly pdf: PDFDocument,
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
    const shownLabel = truncateToWidth(labelStyle.font, toWinAnsi(label.slice(0, MAX_INPUT_CHARS)), labelStyle.size, labelWidth - 6);
    this.page.drawText(shownLabel, { x: MARGIN, y: baseline, size: labelStyle.size, font: labelStyle.font, color: labelStyle.color });
    this.lines(lines, valueStyle, MARGIN + labelWidth);
  }

  /** "Page N of M" and `left` at the foot of every page; only known once the flow has ended. */
  footers(left: string, style: TextStyle) {
    const y = MARGIN - style.size;
    this.pages.forEach((page, index) => {
      const right = `Page ${index + 1} of ${this.pages.length}`;
      const rightWidth = style.font.widthOfTextAtSize(right, style.size);
      page.drawText(right, { x: MARGIN + WIDTH - rightWidth, y, size: style.size, font: style.font, color: style.color });
      const shown = truncateToWidth(style.font, toWinAnsi(left.slice(0, MAX_INPUT_CHARS)), style.size, WIDTH - rightWidth - 18);
      page.drawText(shown, { x: MARGIN, y, size: style.size, font: style.font, color: style.color });
    });
  }

  private wrap(raw: string, style: TextStyle, width: number): string[] {
    const lines = wrapToWidth(style.font, toWinAnsi(raw.slice(0, MAX_INPUT_CHARS)), style.size, width);
    const max = style.maxLines ?? Infinity;
    if (lines.length <= max) return lines;
    // The last kept line plus the next is wider than a line, so truncating it always shows the ellipsis.
    return [...lines.slice(0, max - 1), truncateToWidth(style.font, `${lines[max - 1]} ${lines[max]}`, style.size, width)];
  }

  private lines(lines: string[], style: TextStyle, x: number) {
    for (const line of lines) {
      this.keep(lineHeight(style));
      this.page.drawText(line, { x, y: this.y - style.size, size: style.size, font: style.font, color: style.color });
      this.y -= lineHeight(style);
    }
  }
}

const lineHeight = (style: TextStyle) => style.size * 1.35;
