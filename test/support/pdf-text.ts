import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A PDF's text as pdftotext reads it (poppler-utils), its whitespace runs made one space. */
export function pdfText(bytes: Uint8Array): string {
  const dir = mkdtempSync(join(tmpdir(), 'pdf-text-'));
  try {
    writeFileSync(join(dir, 'document.pdf'), bytes);
    return execFileSync('pdftotext', [join(dir, 'document.pdf'), '-'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).replace(/\s+/g, ' ');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export type PdfWord = { text: string; xMin: number; yMin: number; xMax: number; yMax: number };

/** The words of one page with their boxes, as `pdftotext -bbox` reads them: points from the page's top-left, as templates place fields. */
export function pdfWords(bytes: Uint8Array, page: number): PdfWord[] {
  const dir = mkdtempSync(join(tmpdir(), 'pdf-words-'));
  try {
    writeFileSync(join(dir, 'document.pdf'), bytes);
    const out = execFileSync('pdftotext', ['-bbox', '-f', String(page), '-l', String(page), join(dir, 'document.pdf'), '-'], { encoding: 'utf8' });
    return [...out.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map(
      ([, xMin, yMin, xMax, yMax, text]) => ({
        text: text!,
        xMin: Number(xMin),
        yMin: Number(yMin),
        xMax: Number(xMax),
        yMax: Number(yMax),
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
