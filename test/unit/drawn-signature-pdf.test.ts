/**
 * Drawn signatures in the finished PDF: a stored value that a version checking only a PNG's first
 * bytes let through is drawn as the "unreadable" text instead of spinning in pdf-lib's decoder,
 * and a signature pad's PNG is drawn as an image of its size.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { finishFile as finishDocument } from '../support/finished-file.js';
import { finishInput } from '../support/finish-input.js';
import { installed } from '../support/outside-tools.js';
import { imagesOnPage } from '../support/pdf-images.js';
import { canvasRows, encodePng, HOSTILE_PNG, pngDataUrl } from '../support/png.js';

const pdftotext = installed('pdftotext');
const dir = mkdtempSync(join(tmpdir(), 'drawn-signature-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function pageText(bytes: Uint8Array, page: number): string {
  const file = join(dir, `${crypto.randomUUID()}.pdf`);
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-f', String(page), '-l', String(page), file, '-'], { encoding: 'utf8' });
}

const box = { type: 'signature', page: 1, x: 72, width: 240, height: 60 } as const;

describe('a drawn signature in the finished PDF', () => {
  it('draws a stored PNG whose data is not zlib as unreadable, and the other fields as usual', async () => {
    const canvas = pngDataUrl(encodePng(canvasRows(300, 100), 300, 100));
    const finished = await finishDocument(
      await finishInput('Stored before the check', 1, {
        fields: [
          { ...box, y: 200, value: HOSTILE_PNG },
          { ...box, type: 'initials', y: 300, value: HOSTILE_PNG },
          { ...box, y: 400, value: canvas },
        ],
      }),
    );
    expect(await imagesOnPage(finished.bytes, 1)).toEqual([{ width: 300, height: 100 }]);
    if (pdftotext) expect(pageText(finished.bytes, 1).split('[signature image unreadable]')).toHaveLength(3);
  });

  it('draws a signature pad PNG as an image of its size, once however many fields show it', async () => {
    const canvas = pngDataUrl(encodePng(canvasRows(600, 200), 600, 200));
    const finished = await finishDocument(
      await finishInput('Drawn', 1, {
        fields: [
          { ...box, y: 200, value: canvas },
          { ...box, type: 'initials', y: 300, value: canvas },
        ],
      }),
    );
    expect(await imagesOnPage(finished.bytes, 1)).toEqual([{ width: 600, height: 200 }]);
    if (pdftotext) expect(pageText(finished.bytes, 1)).not.toContain('unreadable');
  });
});
