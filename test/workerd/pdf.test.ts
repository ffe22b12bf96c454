/** pdf-lib inside workerd: generating a document and reading its pages back. */
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { type AssetFetcher, assetFontSource } from '../../src/pdf/fonts/asset-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { readPageSizes } from '../../src/pdf/inspect-document.js';

const workerdFonts = assetFontSource(env.FONTS as AssetFetcher);

const latin1 = (bytes: Uint8Array) => Array.from(bytes, (byte) => String.fromCharCode(byte)).join('');

describe('generateDocument and readPageSizes', () => {
  it('make a PDF of US Letter pages that reads back with its page count and sizes', async () => {
    for (const pages of [1, 3]) {
      const bytes = await generateDocument(`Workerd NDA ${pages}`, pages, workerdFonts);
      expect(latin1(bytes.subarray(0, 5))).toBe('%PDF-');
      expect(latin1(bytes.subarray(-6))).toMatch(/%%EOF\s*$/);
      expect(await readPageSizes(bytes)).toEqual(Array.from({ length: pages }, () => ({ width: 612, height: 792 })));
    }
  });

  it('makes the same bytes for the same title, so a generated document keeps its hash', async () => {
    const [first, second, other] = await Promise.all([
      generateDocument('Same', 2, workerdFonts),
      generateDocument('Same', 2, workerdFonts),
      generateDocument('Other', 2, workerdFonts),
    ]);
    expect(first).toEqual(second);
    expect(first).not.toEqual(other);
  });

  it('reads the page sizes of a PDF made elsewhere, rounded to points', async () => {
    const { PDFDocument } = await import('pdf-lib');
    const pdf = await PDFDocument.create();
    pdf.addPage([595.28, 841.89]);
    pdf.addPage([841.89, 595.28]);
    expect(await readPageSizes(await pdf.save())).toEqual([
      { width: 595, height: 842 },
      { width: 842, height: 595 },
    ]);
  });

  it('answers null for bytes that are not a PDF', async () => {
    // pdf-lib warns about what it skips while trying; that is expected here.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const random = crypto.getRandomValues(new Uint8Array(4096));
      expect(await readPageSizes(random)).toBeNull();
      expect(await readPageSizes(new Uint8Array())).toBeNull();
      expect(await readPageSizes(new TextEncoder().encode('%PDF-1.7\nnot really a pdf\n%%EOF'))).toBeNull();
      const truncated = (await generateDocument('Cut short', 2, workerdFonts)).subarray(0, 200);
      expect(await readPageSizes(truncated)).toBeNull();
    } finally {
      warn.mockRestore();
    }
  });
});
