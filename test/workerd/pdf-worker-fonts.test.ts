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
import { hex, latin1, toUnicodeMaps } from './to-unicode-maps.js';

const workerdFonts = assetFontSource(env.FONTS as AssetFetcher);
/** The bucket the PDF Worker shares: the original goes in by key, the finished PDF comes out by key. */
const documents = new R2DocumentStore(documentsBucket(env, 'The suite'));

/** A finish request for a one-page lease signed by `name`, its original put in the shared bucket. */
async function leaseSignedBy(name: string, envelopeId: string): Promise<FinishRequest> {
  const original = await generateDocument('Lease', 1, workerdFonts);
  const at = new Date('2026-11-04T08:00:00.000Z');
  return {
    originalKey: (await documents.put(original, { maxBytes: original.byteLength })).key,
    envelopeId,
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
}

const finishThroughBinding = async (request: FinishRequest) => (await readWholeDocument(documents, (await (env.PDF as PdfMaker).finish(request)).key))!;

describe('the PDF Worker', () => {
  it('embeds the fonts of a non-Latin name from its assets, as subsets that map back to the name', async () => {
    const finished = await finishThroughBinding(await leaseSignedBy('محمد 李雷 अनुष्का', 'env_workerd_fonts'));
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

  // Several envelopes finish at once in production, and one isolate may take them all: each
  // request embeds its fonts within its own request, never waiting on another's.
  it('finishes four envelopes at once in one isolate, each with its own fonts', async () => {
    const names = ['محمد علي', '李雷', 'अनुष्का', 'Zoë Ångström'];
    const requests = await Promise.all(names.map((name, i) => leaseSignedBy(name, `env_workerd_fonts_${i}`)));
    const finished = await Promise.all(requests.map(finishThroughBinding));
    for (const [i, bytes] of finished.entries()) {
      const maps = await toUnicodeMaps(bytes);
      expect(maps).toContain(`<${hex([...names[i]!][0]!)}>`);
    }
  });

  // The font files are read once per isolate and kept: a request that needs a file another is still
  // reading gets it without waiting on that request's read (Ethiopic: no other test of the suite reads it).
  it('finishes two envelopes at once that both need a font file not read yet', async () => {
    const requests = await Promise.all(['ሰላም አበበ', 'ተስፋዬ ገብሬ'].map((name, i) => leaseSignedBy(name, `env_workerd_ethiopic_${i}`)));
    const finished = await Promise.all(requests.map(finishThroughBinding));
    for (const bytes of finished) expect(latin1(bytes)).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansEthiopic/);
  });
});
