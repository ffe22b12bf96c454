/**
 * The PDF Worker's own path (through the `PDF` binding, as the API Worker calls it): a finished
 * PDF whose signer writes in Arabic, Chinese and Devanagari embeds those fonts as subsets, read
 * from the Worker's static assets, and the certificate maps them back to the names as given.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { R2DocumentStore } from '../../src/adapters/production/r2-document-store.js';
import { documentsBucket } from '../../src/entries/documents-binding.js';
import { sha256Hex } from '../../src/lib/crypto.js';
import { readWholeDocument } from '../../src/lib/whole-document.js';
import { type AssetFetcher, assetFontSource } from '../../src/pdf/fonts/asset-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import type { FinishRequest, PdfMaker } from '../../src/ports/pdf-maker.js';

const workerdFonts = assetFontSource(env.FONTS as AssetFetcher);
/** The bucket the PDF Worker shares: the original goes in by key, the finished PDF comes out by key. */
const documents = new R2DocumentStore(documentsBucket(env, 'The suite'));

const latin1 = (bytes: Uint8Array) => Array.from(bytes, (byte) => String.fromCharCode(byte)).join('');

/** The text of every ToUnicode map in the file (they are Flate streams named by the fonts' ToUnicode entries). */
async function toUnicodeMaps(bytes: Uint8Array): Promise<string> {
  const text = latin1(bytes);
  const refs = new Set([...text.matchAll(/\/ToUnicode (\d+) 0 R/g)].map((m) => m[1]!));
  let maps = '';
  for (const ref of refs) {
    const at = text.lastIndexOf(`\n${ref} 0 obj`);
    const start = text.indexOf('stream\n', at) + 'stream\n'.length;
    const end = text.indexOf('\nendstream', start);
    const inflated = new Blob([bytes.slice(start, end)]).stream().pipeThrough(new DecompressionStream('deflate'));
    maps += await new Response(inflated).text();
  }
  return maps;
}
/** The UTF-16 hex a ToUnicode map writes for a character. */
const hex = (char: string) => Array.from({ length: char.length }, (_, i) => char.charCodeAt(i).toString(16).padStart(4, '0')).join('');

describe('the PDF Worker', () => {
  it('embeds the fonts of a non-Latin name from its assets, as subsets that map back to the name', async () => {
    const original = await generateDocument('Lease', 1, workerdFonts);
    const at = new Date('2026-11-04T08:00:00.000Z');
    const name = 'محمد 李雷 अनुष्का';
    const request: FinishRequest = {
      originalKey: (await documents.put(original, { maxBytes: original.byteLength })).key,
      envelopeId: 'env_workerd_fonts',
      title: 'عقد إيجار',
      senderEmail: 'sender@example.test',
      senderName: 'Acme Ltd',
      fields: [{ type: 'signature', page: 1, x: 72, y: 300, width: 300, height: 40, value: name }],
      recipients: [{ name, email: 'signer@example.test', role: 'Tenant', kind: 'signer', events: [{ what: 'Signed', at, ip: null, userAgent: null }] }],
      consentVersion: 'esign-consent-2026-11',
      consentText: 'I agree to use electronic records and signatures.',
      originalSha256: await sha256Hex(original),
      completedAt: at,
    };
    const finished = (await readWholeDocument(documents, (await (env.PDF as PdfMaker).finish(request)).key))!;
    const text = latin1(finished);
    for (const font of ['NotoSans-Regular', 'NotoSansArabic-Regular', 'NotoSansSC-Regular', 'NotoSansDevanagari-Regular']) {
      expect(text).toMatch(new RegExp(`/BaseFont /[A-Z]{6}\\+${font}`));
    }
    expect(text).toContain('/FontFile2');
    // Sealed by the Worker, as every finished copy is.
    expect(text).toContain('/ETSI.CAdES.detached');
    const maps = await toUnicodeMaps(finished);
    for (const char of ['م', 'ح', '李', '雷', 'अ', 'न']) expect(maps).toContain(`<${hex(char)}>`);
  });
});
