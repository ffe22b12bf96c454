/**
 * A PDF growing by incremental updates keeps the original's hash, not its bytes: its digests are
 * those of the original followed by the updates, whatever becomes of the original's array once
 * it is parsed, and a digest may leave out bytes of an update only.
 */
import { createHash } from 'node:crypto';
import * as lib from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { Revisions } from '../../src/pdf/revisions.js';

const sha256 = (...parts: Uint8Array[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return new Uint8Array(hash.digest());
};

async function opened() {
  const made = await lib.PDFDocument.create();
  made.addPage([200, 200]);
  const original = await made.save({ useObjectStreams: false });
  const kept = original.slice();
  const pdf = await lib.PDFDocument.load(original, { updateMetadata: false });
  return { original, kept, pdf, revisions: new Revisions(lib, pdf, original) };
}

describe('Revisions', () => {
  it('hashes the original as it was when opened, then each update after it, without keeping the original', async () => {
    const { original, kept, pdf, revisions } = await opened();
    // The caller lets go of its array; overwritten here, it must change nothing that follows.
    original.fill(0);
    expect(revisions.digest()).toEqual(sha256(kept));

    pdf.setTitle('Updated');
    await revisions.append();
    const appended = revisions.appended();
    expect(revisions.size).toBe(kept.length + appended.length);
    expect(revisions.digest()).toEqual(sha256(kept, appended));
    expect(revisions.sha256()).toBe(Buffer.from(sha256(kept, appended)).toString('hex'));
  });

  it("leaves out bytes of an update, from the original's end on, and refuses to leave out one of the original's", async () => {
    const { kept, pdf, revisions } = await opened();
    pdf.setTitle('Updated');
    await revisions.append();
    const appended = revisions.appended();
    const end = kept.length;
    expect(revisions.digest([end, end + 5])).toEqual(sha256(kept, appended.subarray(5)));
    expect(() => revisions.digest([end - 1, end + 5])).toThrow(RangeError);
  });
});
