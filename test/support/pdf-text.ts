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
