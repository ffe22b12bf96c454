/** The finished, signed PDF made inside workerd: pdf-lib, WebCrypto hashing and PNG embedding in the runtime. */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { type AssetFetcher, assetFontSource } from '../../src/pdf/fonts/asset-font-source.js';
import { finishDocument as finishUpdates } from '../../src/pdf/finish-document.js';
import type { FinishInputWithBytes } from '../support/finish-input.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { readPageSizes } from '../../src/pdf/inspect-document.js';
import { sha256Hex } from '../../src/lib/crypto.js';

// A 24×8 RGBA PNG of a diagonal stroke, as a signature pad would send it.
const DRAWN = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABgAAAAICAYAAADjoT9jAAAAG0lEQVR42mPgEon6D8IMtAYwi0YtG7Vs8FkGAEQTIbKI3zeHAAAAAElFTkSuQmCC';
const latin1 = (bytes: Uint8Array) => Array.from(bytes, (byte) => String.fromCharCode(byte)).join('');

// The font files through a binding, as the PDF Worker reads its static assets.
const fonts = assetFontSource(env.FONTS as AssetFetcher);

async function input(): Promise<FinishInputWithBytes> {
  const original = await generateDocument('Workerd lease', 3, fonts);
  const at = new Date('2026-11-04T08:00:00.000Z');
  return {
    original,
    envelopeId: 'env_workerd_0001',
    title: 'Workerd lease',
    senderEmail: 'sender@example.test',
    senderName: 'Acme Ltd',
    fields: [
      { type: 'signature', page: 3, x: 72, y: 300, width: 220, height: 40, value: 'Ann Signer' },
      { type: 'signature', page: 3, x: 320, y: 300, width: 200, height: 60, value: DRAWN },
      { type: 'initials', page: 2, x: 72, y: 300, width: 60, height: 30, value: 'data:image/png;base64,bm90IGEgcG5n' },
      { type: 'text', page: 1, x: 72, y: 200, width: 300, height: 20, value: '<script>alert(1)</script> \u{1F600}\u0000' },
      { type: 'checkbox', page: 1, x: 72, y: 240, width: 12, height: 12, value: 'true' },
      { type: 'date_signed', page: 3, x: 72, y: 380, width: 120, height: 20, value: '2026-11-04' },
    ],
    recipients: [
      {
        name: 'Ann Signer',
        email: 'ann@example.test',
        role: 'Tenant',
        kind: 'signer',
        events: [
          { what: 'Sent', at, ip: null, userAgent: null },
          { what: 'Signed', at, ip: '203.0.113.7', userAgent: 'Mozilla/5.0 (workerd test)' },
        ],
      },
    ],
    consentVersion: 'esign-consent-2026-11',
    consentText: 'I agree to use electronic records and signatures.',
    originalSha256: await sha256Hex(original),
    completedAt: at,
    fonts,
  };
}

/** The finished file whole: the original, then what finishDocument appended to it. */
async function finishDocument(given: FinishInputWithBytes) {
  const made = await finishUpdates(given);
  const bytes = new Uint8Array(given.original.length + made.appended.length);
  bytes.set(given.original);
  bytes.set(made.appended, given.original.length);
  return { ...made, bytes };
}

describe('finishDocument in workerd', () => {
  it('makes a PDF of the document and its certificate, whose prefix is the signed content', async () => {
    const finished = await finishDocument(await input());
    expect(latin1(finished.bytes.subarray(0, 5))).toBe('%PDF-');
    expect(finished.sha256).toBe(await sha256Hex(finished.bytes));

    const sizes = await readPageSizes(finished.bytes);
    expect(sizes!.length).toBeGreaterThan(3);
    expect(sizes!.slice(3).every((size) => size.width === 612 && size.height === 792)).toBe(true);

    // The original's revision, then the values': the signed content ends with the second %%EOF.
    const text = latin1(finished.bytes);
    const secondEof = text.indexOf('%%EOF', text.indexOf('%%EOF') + 1) + '%%EOF'.length;
    const prefix = finished.bytes.subarray(0, secondEof);
    expect(await sha256Hex(prefix)).toBe(finished.signedContentSha256);
    expect(await readPageSizes(prefix)).toHaveLength(3);
  });

  it('gives the same bytes for the same input', async () => {
    const [first, second] = [await finishDocument(await input()), await finishDocument(await input())];
    expect(first.sha256).toBe(second.sha256);
    expect(first.bytes).toEqual(second.bytes);
  });
});
