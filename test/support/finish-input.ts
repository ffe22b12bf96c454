/**
 * A finished-document input for the suites that seal: one signer who signed, a generated original
 * of `pages` pages, completed at a fixed time, so each suite states only what it is about.
 */
import { sha256Hex } from '../../src/lib/crypto.js';
import type { FinishInput } from '../../src/pdf/finish-document.js';
import type { DocumentStore } from '../../src/ports/document-store.js';
import type { FinishRequest } from '../../src/ports/pdf-maker.js';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';

export const COMPLETED = new Date('2026-11-04T08:00:00.000Z');

/** A finish input whose original is in hand (the suites compare the finished file with it). */
export type FinishInputWithBytes = FinishInput & { original: Uint8Array };

export async function finishInput(title: string, pages: number, overrides: Partial<FinishInputWithBytes> = {}): Promise<FinishInputWithBytes> {
  const original = await generateDocument(title, pages, nodeFontSource());
  return {
    original,
    envelopeId: 'env_seal_0001',
    title,
    senderEmail: 'sender@example.test',
    senderName: 'Acme Ltd',
    fields: [{ type: 'signature', page: pages, x: 72, y: 300, width: 220, height: 50, value: 'Ann Signer' }],
    recipients: [
      { name: 'Ann Signer', email: 'ann@example.test', role: 'Buyer', kind: 'signer', events: [{ what: 'Signed', at: COMPLETED, ip: null, userAgent: null }] },
    ],
    consentVersion: 'esign-consent-2026-11',
    consentText: 'I agree to use electronic records and signatures.',
    originalSha256: await sha256Hex(original),
    completedAt: COMPLETED,
    fonts: nodeFontSource(),
    ...overrides,
  };
}

/**
 * The same, as a PDF maker is asked for it: the original put in `documents` and named by its key,
 * without the fonts, which are the maker's own.
 */
export async function finishRequest(documents: DocumentStore, title: string, pages: number, overrides: Partial<FinishRequest> = {}): Promise<FinishRequest> {
  const { fonts: _fonts, original, ...request } = await finishInput(title, pages);
  const { key } = await documents.put(original, { maxBytes: original.byteLength });
  return { ...request, originalKey: key, ...overrides };
}
