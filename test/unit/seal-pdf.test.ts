/**
 * The seal on the finished PDF, checked by poppler's pdfsig, a reader that shares no code with
 * ours: valid, covering the whole file, broken by a change of one byte; and the sealing identity's
 * refusals, whose messages name what is wrong and never hold the key.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FinishInputWithBytes } from '../support/finish-input.js';
import { finishFile as finishDocument, revisionEnds } from '../support/finished-file.js';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { installed } from '../support/outside-tools.js';
import { createSelfSignedSeal, loadSealIdentity, type SealIdentity, sealPemProblems } from '../../src/pdf/seal-identity.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'seal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

// A 24×8 RGBA PNG of a diagonal stroke, as a signature pad would send it.
const DRAWN = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABgAAAAICAYAAADjoT9jAAAAG0lEQVR42mPgEon6D8IMtAYwi0YtG7Vs8FkGAEQTIbKI3zeHAAAAAElFTkSuQmCC';
const COMPLETED = new Date('2026-11-04T08:00:00.000Z');

async function input(pages: number, seal: SealIdentity, drawn = false): Promise<FinishInputWithBytes> {
  const original = await generateDocument(`Sealed ${pages}`, pages, nodeFontSource());
  return {
    original,
    envelopeId: 'env_seal_0001',
    title: `Sealed ${pages}`,
    senderEmail: 'sender@example.test',
    senderName: 'Acme Ltd',
    fields: [{ type: 'signature', page: pages, x: 72, y: 300, width: 220, height: 50, value: drawn ? DRAWN : 'Ann Signer' }],
    recipients: [
      {
        name: 'Ann Signer',
        email: 'ann@example.test',
        role: 'Buyer',
        kind: 'signer',
        events: [{ what: 'Signed', at: COMPLETED, ip: '203.0.113.7', userAgent: null }],
      },
    ],
    consentVersion: 'esign-consent-2026-11',
    consentText: 'I agree to use electronic records and signatures.',
    originalSha256: createHash('sha256').update(original).digest('hex'),
    completedAt: COMPLETED,
    fonts: nodeFontSource(),
    seal,
  };
}

/** pdfsig's report; it exits non-zero for a signature that does not verify, which is still a report. */
async function pdfsig(bytes: Uint8Array, name: string): Promise<string> {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  // -nocert: the self-signed certificate is in no trust store; the signature itself is what is checked.
  try {
    const { stdout } = await run('pdfsig', ['-nocert', path]);
    return stdout;
  } catch (err) {
    return String((err as { stdout?: string }).stdout ?? err);
  }
}

let rsa: SealIdentity;
let ecdsa: SealIdentity;
beforeAll(async () => {
  rsa = await loadSealIdentity(await createSelfSignedSeal('E-Signing API test seal', COMPLETED));
  ecdsa = await loadSealIdentity(await createSelfSignedSeal('E-Signing API test seal (EC)', COMPLETED, { keyType: 'ECDSA' }));
}, 60_000);

describe.skipIf(!installed('pdfsig'))('the seal on a finished PDF', () => {
  it.each([
    ['1 page', 1, false],
    ['50 pages', 50, false],
    ['a drawn signature', 2, true],
  ])('is valid and covers the whole document: %s', async (_name, pages, drawn) => {
    const given = await input(pages, rsa, drawn);
    const { original } = given;
    const finished = await finishDocument(given);
    const report = await pdfsig(finished.bytes, `${pages}-${drawn}.pdf`);
    expect(report).toContain('Signature #1');
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('Total document signed');
    expect(report).toContain('Signature Type: ETSI.CAdES.detached');
    expect(report).toContain('E-Signing API test seal');
    expect(finished.sha256).toBe(createHash('sha256').update(finished.bytes).digest('hex'));
    // The seal is the last revision; the original, the signed content (the values' revision) and the certificate's stay a prefix.
    const ends = revisionEnds(finished.bytes);
    expect(ends).toHaveLength(4);
    expect(finished.bytes.subarray(0, ends[0])).toEqual(original);
    const prefix = finished.bytes.subarray(0, ends[1]);
    expect(createHash('sha256').update(prefix).digest('hex')).toBe(finished.signedContentSha256);
  });

  it('names the sealing certificate on the certificate page', async () => {
    const finished = await finishDocument(await input(1, rsa));
    const path = join(dir, 'named.pdf');
    writeFileSync(path, finished.bytes);
    const { stdout } = await run('pdftotext', [path, '-']);
    expect(stdout).toContain('Sealed by');
    expect(stdout).toContain('CN=E-Signing API test seal');
    expect(stdout.replace(/\s+/g, '')).toContain(rsa.fingerprint);
  });

  it('is invalid once one byte inside the signed range changes', async () => {
    const finished = await finishDocument(await input(2, rsa));
    const text = latin1(finished.bytes);
    // One byte of the binary-marker comment on the second line: the file still opens as before,
    // only the seal can tell.
    const at = text.indexOf('\n%') + 2;
    expect(at).toBeLessThan(20);
    const changed = finished.bytes.slice();
    changed[at] = changed[at]! ^ 0x01;
    const report = await pdfsig(changed, 'changed.pdf');
    expect(report).not.toContain('Signature is Valid');
    expect(report).toMatch(/Signature Validation: (Digest Mismatch|Signature is Invalid)/);
  });

  it('gives the same bytes for the same input with an RSA key', async () => {
    const [first, second] = [await finishDocument(await input(1, rsa)), await finishDocument(await input(1, rsa))];
    expect(first.sha256).toBe(second.sha256);
  });

  // A serial drawn with a zero first byte once made a certificate DER forbids: NSS read no signer from
  // it, and pdfsig reported "Unknown Validation Failure" for one new embedded server in 256.
  it.each([
    ['a zero first byte', [0x00, 0x01]],
    ['a set top bit', [0xff, 0xff]],
  ])('is valid with a certificate whose serial was drawn with %s', async (_, [first, second]) => {
    const realRandom = crypto.getRandomValues.bind(crypto);
    const draw = vi.spyOn(crypto, 'getRandomValues').mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
      realRandom(array as Uint8Array);
      if (array instanceof Uint8Array && array.length === 16) [array[0], array[1]] = [first!, second!];
      return array;
    });
    let unlucky: SealIdentity;
    try {
      unlucky = await loadSealIdentity(await createSelfSignedSeal('E-Signing API unlucky seal', COMPLETED));
    } finally {
      draw.mockRestore();
    }
    const report = await pdfsig((await finishDocument(await input(1, unlucky))).bytes, `serial-${first}.pdf`);
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('Signer Certificate Common Name: E-Signing API unlucky seal');
  });

  it('seals with an ECDSA P-256 key as well', async () => {
    const finished = await finishDocument(await input(1, ecdsa));
    const report = await pdfsig(finished.bytes, 'ecdsa.pdf');
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('Total document signed');
  });
});

describe('the sealing identity', () => {
  const SECRET = 'c2VjcmV0LWtleS1ieXRlcw==';
  it('refuses garbage PEM, naming the variable and not the value', () => {
    const problems = sealPemProblems(`-----BEGIN PRIVATE KEY-----\n${SECRET}\n-----END PRIVATE KEY-----`, 'not a certificate');
    expect(problems.join('; ')).toMatch(/SEAL_KEY_PEM/);
    expect(problems.join('; ')).toMatch(/SEAL_CERT_PEM/);
    expect(problems.join('; ')).not.toContain(SECRET);
  });

  it('refuses a key that is not the certificate’s', async () => {
    const one = await createSelfSignedSeal('One', COMPLETED);
    const other = await createSelfSignedSeal('Other', COMPLETED);
    const err = await loadSealIdentity({ keyPem: other.keyPem, certPem: one.certPem }).catch((e: unknown) => e as Error);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/SEAL_KEY_PEM is not the key of the first certificate in SEAL_CERT_PEM/);
    expect((err as Error).message).not.toContain(other.keyPem.split('\n')[1]);
  });
});
