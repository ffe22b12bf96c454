/**
 * The copy a next signer downloads: the original's bytes, then the one update that draws the
 * earlier signers' values as the finished PDF draws them. Outside readers that share no code with
 * ours read it: qpdf's check and poppler's text, each value inside its field's box.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filledCopy } from '../../src/pdf/filled-copy.js';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import type { FinishedField } from '../../src/ports/pdf-maker.js';
import { installed } from '../support/outside-tools.js';
import { pdfText, pdfWords } from '../support/pdf-text.js';

const run = promisify(execFile);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const dir = mkdtempSync(join(tmpdir(), 'filled-copy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const tools = installed('qpdf', 'pdftotext');
const fonts = nodeFontSource();

/** Cleo's company name on page 2, her tick on page 1: boxes in points from the page's top-left. */
const COMPANY = { type: 'text', page: 2, x: 72, y: 300, width: 220, height: 24, value: 'Acme Ltd' } as const satisfies FinishedField;
const TICK = { type: 'checkbox', page: 1, x: 72, y: 400, width: 18, height: 18, value: 'true' } as const satisfies FinishedField;

let original: Uint8Array;
beforeAll(async () => {
  original = await generateDocument('Lease', 2, fonts);
});

describe('a filled copy', () => {
  it('is the original, byte for byte, followed by an update drawing each value inside its box', async () => {
    const update = await filledCopy({ original: original.slice(), originalSha256: sha256(original), fields: [COMPANY, TICK], fonts });
    const copy = new Uint8Array([...original, ...update]);
    expect(update.length).toBeGreaterThan(0);
    expect(Buffer.from(copy.subarray(0, original.length)).equals(Buffer.from(original))).toBe(true);
    // One revision: one more end of file than the original has.
    const eofs = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1').split('%%EOF').length - 1;
    expect(eofs(copy)).toBe(eofs(original) + 1);
    if (!tools) return;
    const file = join(dir, 'copy.pdf');
    writeFileSync(file, copy);
    await run('qpdf', ['--check', file]);
    expect(pdfText(original)).not.toContain('Acme');
    const words = pdfWords(copy, 2).filter((word) => word.text === 'Acme' || word.text === 'Ltd');
    expect(words.map((word) => word.text)).toEqual(['Acme', 'Ltd']);
    for (const word of words) {
      expect(word.xMin).toBeGreaterThanOrEqual(COMPANY.x);
      expect(word.xMax).toBeLessThanOrEqual(COMPANY.x + COMPANY.width);
      expect(word.yMin).toBeGreaterThanOrEqual(COMPANY.y);
      expect(word.yMax).toBeLessThanOrEqual(COMPANY.y + COMPANY.height);
    }
  });

  it('is made for the original its hash names, and no other', async () => {
    const other = await generateDocument('Another lease', 1, fonts);
    await expect(filledCopy({ original: other, originalSha256: sha256(original), fields: [COMPANY], fonts })).rejects.toThrow(/SHA-256/);
  });
});
