/**
 * The next signer's filled copy made by the PDF Worker, through the `PDF` binding as the API Worker
 * calls it (its deadline included): named by the original's key in the shared bucket, it answers
 * only the update, which follows the original as one more revision drawing each value with the
 * fonts of the Worker's assets.
 */
import { env } from 'cloudflare:workers';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { boundPdfMaker } from '../../src/adapters/production/bound-pdf-maker.js';
import { R2DocumentStore } from '../../src/adapters/production/r2-document-store.js';
import { documentsBucket } from '../../src/entries/documents-binding.js';
import { sha256Hex } from '../../src/lib/crypto.js';
import { type AssetFetcher, assetFontSource } from '../../src/pdf/fonts/asset-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import type { FinishedField } from '../../src/ports/pdf-maker.js';
import { hex, latin1, toUnicodeMaps } from './to-unicode-maps.js';

const documents = new R2DocumentStore(documentsBucket(env, 'The suite'));
const pdf = boundPdfMaker(env.PDF);

const FIELDS: FinishedField[] = [
  { type: 'text', page: 1, x: 72, y: 300, width: 220, height: 24, value: 'Acme Ltd' },
  { type: 'signature', page: 2, x: 72, y: 400, width: 260, height: 40, value: 'محمد علي' },
];

async function storedOriginal() {
  const original = await generateDocument('Lease', 2, assetFontSource(env.FONTS as AssetFetcher));
  const { key } = await documents.put(original, { maxBytes: original.byteLength });
  return { original, originalKey: key, originalSha256: await sha256Hex(original) };
}

describe('the PDF Worker’s filled copy', () => {
  it('answers the update that follows the original, one revision drawing each value', async () => {
    const { original, originalKey, originalSha256 } = await storedOriginal();
    const update = await pdf.filledCopy({ originalKey, originalSha256, fields: FIELDS });
    expect(update).toBeInstanceOf(Uint8Array);
    expect(update.byteLength).toBeGreaterThan(0);
    // One incremental update, pointing back at the original's own cross-reference section.
    const originalXref = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(latin1(original))![1];
    const written = latin1(update);
    expect(written).toMatch(new RegExp(`/Prev ${originalXref}\\b`));
    expect(written.match(/%%EOF/g)).toHaveLength(1);

    const copy = new Uint8Array(original.byteLength + update.byteLength);
    copy.set(original);
    copy.set(update, original.byteLength);
    expect((await PDFDocument.load(copy)).getPageCount()).toBe(2);
    const maps = await toUnicodeMaps(update);
    for (const char of ['A', 'c', 'm', 'e', 'L', 'م', 'ح', 'ع']) expect(maps).toContain(`<${hex(char)}>`);
    expect(written).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansArabic-Regular/);
  });

  it('refuses an original that is not the one its hash names, and one the bucket does not hold', async () => {
    const { originalKey } = await storedOriginal();
    await expect(pdf.filledCopy({ originalKey, originalSha256: '0'.repeat(64), fields: FIELDS })).rejects.toThrow(/SHA-256/);
    await expect(pdf.filledCopy({ originalKey: 'f'.repeat(64), originalSha256: '0'.repeat(64), fields: FIELDS })).rejects.toThrow(/not in the document store/);
  });
});
