import type { Font, Glyph } from '@pdf-lib/fontkit';
import type { PDFDocument, PDFRef } from 'pdf-lib';

type PdfLib = typeof import('pdf-lib');

/**
 * One font file embedded in a PDF as a subset (a Type 0 font over a CIDFontType2, Identity-H, the
 * CIDs being the subset's glyph ids), with a ToUnicode map so that its text can be searched and
 * copied. Shaped glyphs are drawn by id (`cid`), which pdf-lib's own embedding cannot do: it maps
 * characters to glyphs itself and drops the positions that shaping gives. Its subset name is made
 * from the glyphs it holds, not drawn at random, so the same document gives the same bytes.
 */
export class EmbeddedFace {
  /** The font dictionary's reference, known before anything is drawn; the objects are written by `embed`. */
  readonly ref: PDFRef;
  private readonly subset;
  private readonly cids = new Map<number, number>();
  private readonly unicode = new Map<number, number[]>();
  private readonly widths: number[] = [];

  constructor(
    private readonly pdf: PDFDocument,
    readonly font: Font,
  ) {
    this.ref = pdf.context.nextRef();
    this.subset = withLongOffsets(font.createSubset());
    this.widths[0] = font.getGlyph(0).advanceWidth;
  }

  /** The CID that draws `glyph`; the first code points it is drawn for are what copying it gives. */
  cid(glyph: Glyph): number {
    let cid = this.cids.get(glyph.id);
    if (cid === undefined) {
      cid = this.subset.includeGlyph(glyph.id);
      this.cids.set(glyph.id, cid);
      this.widths[cid] = glyph.advanceWidth;
    }
    if (!this.unicode.has(cid) && glyph.codePoints.length > 0) this.unicode.set(cid, glyph.codePoints);
    return cid;
  }

  /**
   * Whether the ToUnicode map gives back `glyph`'s own characters: one glyph can stand for several
   * (Arabic ج and ح share a body, the dot being a glyph of its own), and the map holds one text per
   * glyph, so the others are told with ActualText where they are drawn.
   */
  spells(cid: number, glyph: Glyph): boolean {
    const mapped = this.unicode.get(cid) ?? [];
    return mapped.length === glyph.codePoints.length && mapped.every((cp, i) => cp === glyph.codePoints[i]);
  }

  get used(): boolean {
    return this.cids.size > 0;
  }

  /** Writes the font's objects at `ref`: called once, after the last glyph was drawn. */
  async embed(lib: PdfLib): Promise<void> {
    const { context } = this.pdf;
    const { font } = this;
    const program = await encodeInTurn(() => encode(this.subset.encodeStream()));
    const scale = 1000 / font.unitsPerEm;
    const name = `${subsetTag([...this.cids.keys()], font.postscriptName ?? '')}+${(font.postscriptName ?? 'Font').replace(/[^\x21-\x7e]|[()<>[\]{}/%#]/g, '')}`;
    const fontFile = context.register(context.flateStream(program, { Length1: program.length }));
    const { bbox } = font;
    const descriptor = context.register(
      context.obj({
        Type: 'FontDescriptor',
        FontName: name,
        Flags: 4, // symbolic: its glyphs are reached by id, not by a standard encoding
        FontBBox: [bbox.minX, bbox.minY, bbox.maxX, bbox.maxY].map((v) => Math.round(v * scale)),
        ItalicAngle: 0,
        Ascent: Math.round(font.ascent * scale),
        Descent: Math.round(font.descent * scale),
        CapHeight: Math.round((font.capHeight || font.ascent) * scale),
        StemV: 80,
        FontFile2: fontFile,
      }),
    );
    const widths = Array.from(this.widths, (w) => Math.round((w ?? 0) * scale));
    const cidFont = context.register(
      context.obj({
        Type: 'Font',
        Subtype: 'CIDFontType2',
        BaseFont: name,
        CIDSystemInfo: { Registry: lib.PDFString.of('Adobe'), Ordering: lib.PDFString.of('Identity'), Supplement: 0 },
        FontDescriptor: descriptor,
        W: [0, widths],
        CIDToGIDMap: 'Identity',
      }),
    );
    const toUnicode = context.register(context.flateStream(toUnicodeCMap(this.unicode)));
    context.assign(
      this.ref,
      context.obj({ Type: 'Font', Subtype: 'Type0', BaseFont: name, Encoding: 'Identity-H', DescendantFonts: [cidFont], ToUnicode: toUnicode }),
    );
  }
}

/**
 * fontkit writes a small subset's glyph offsets in the short format, which halves them, while it
 * copies each glyph's bytes unpadded: any odd-length glyph (common in Noto's Arabic) then shifts
 * every glyph after it and the font draws garbage. The long format stores offsets as they are.
 * fontkit (1.1.1, pinned) makes the table afresh on each encode and keeps a version already set.
 */
function withLongOffsets<T extends object>(subset: T): T {
  let loca: { version?: number } | undefined;
  Object.defineProperty(subset, 'loca', {
    get: () => loca,
    set: (table: { version?: number }) => {
      table.version = 1;
      loca = table;
    },
  });
  return subset;
}

/**
 * fontkit encodes a subset through its bundled `process.nextTick`, one queue for the whole isolate,
 * drained on a timer set by whichever call found it empty. In workerd a timer belongs to the request
 * that set it: a second request's encode queued behind another's waits on an event that is not its
 * own, and the runtime cancels it as hung (two envelopes finishing at once in one PDF Worker did).
 * So encodes take turns, each starting on an empty queue, and a request waiting for its turn waits
 * on timers of its own. A holder canceled mid-encode would leave fontkit's queue stuck whatever we
 * do: a wait is bounded (counted in waits, as workerd's clock stands still between events), so the
 * finish then fails and is retried, instead of hanging until its caller gives up.
 */
const TURN_WAIT_MS = 2;
const MAX_TURN_WAITS = 15_000; // 30 s: an encode takes milliseconds
let encoding = false;
async function encodeInTurn<T>(work: () => Promise<T>): Promise<T> {
  for (let waits = 0; encoding; waits++) {
    if (waits === MAX_TURN_WAITS) throw new Error('A font subset could not be encoded: another encode in this isolate never ended.');
    await new Promise((resolve) => setTimeout(resolve, TURN_WAIT_MS));
  }
  encoding = true;
  try {
    return await work();
  } finally {
    encoding = false;
  }
}

function encode(stream: ReturnType<ReturnType<Font['createSubset']>['encodeStream']>): Promise<Uint8Array> {
  return new Promise((resolve) => {
    const parts: Uint8Array[] = [];
    stream
      .on('data', (part) => parts.push(part))
      .on('end', () => {
        const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
        let at = 0;
        for (const part of parts) {
          out.set(part, at);
          at += part.length;
        }
        resolve(out);
      });
  });
}

/** Six capitals (a PDF subset font's name prefix) from the glyphs the subset holds. */
function subsetTag(glyphIds: number[], fontName: string): string {
  let hash = 0x811c9dc5;
  for (const value of [...[...fontName].map((c) => c.charCodeAt(0)), ...glyphIds.sort((a, b) => a - b)]) {
    hash = Math.imul(hash ^ value, 0x01000193) >>> 0;
  }
  let tag = '';
  for (let i = 0; i < 6; i++, hash = Math.floor(hash / 26)) tag += String.fromCharCode(65 + (hash % 26));
  return tag;
}

const hex4 = (n: number) => n.toString(16).padStart(4, '0');
const utf16Hex = (codePoints: number[]) =>
  codePoints.map((cp) => (cp > 0xffff ? hex4(0xd800 + ((cp - 0x10000) >> 10)) + hex4(0xdc00 + ((cp - 0x10000) & 0x3ff)) : hex4(cp))).join('');

/** The standard ToUnicode CMap, at most 100 mappings to a block as the format asks. */
function toUnicodeCMap(unicode: Map<number, number[]>): Uint8Array {
  const entries = [...unicode].sort(([a], [b]) => a - b).map(([cid, cps]) => `<${hex4(cid)}> <${utf16Hex(cps)}>`);
  const blocks: string[] = [];
  for (let i = 0; i < entries.length; i += 100) {
    const block = entries.slice(i, i + 100);
    blocks.push(`${block.length} beginbfchar\n${block.join('\n')}\nendbfchar`);
  }
  const text = [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    '<0000> <ffff>',
    'endcodespacerange',
    ...blocks,
    'endcmap',
    'CMapName currentdict /CMap defineresource pop',
    'end',
    'end',
  ].join('\n');
  return new TextEncoder().encode(text);
}
