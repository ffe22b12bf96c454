/**
 * The seal at PAdES B-T: a time-stamp from an RFC 3161 authority (the local stand-in, over HTTP)
 * over the seal's signature value. Checked by readers that share no code with ours: pdfsig for
 * the seal, `openssl ts -verify` for the token against the authority's certificate. And every way
 * an authority can let the seal down fails the sealing, never yields a seal without its time-stamp.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ServedStandin, serveStandin } from '../../local/standins/standin.js';
import { createTimestampAuthorityStandin, type TimestampAuthorityStandin } from '../../local/standins/timestamp-authority.js';
import { OID } from '../../src/pdf/cms-attributes.js';
import { finishFile as finishDocument } from '../support/finished-file.js';
import { createSelfSignedSeal, loadSealIdentity, type SealIdentity } from '../../src/pdf/seal-identity.js';
import { timestampAuthority } from '../../src/pdf/timestamp.js';
import { COMPLETED, finishInput } from '../support/finish-input.js';
import { installed } from '../support/outside-tools.js';
import { opensslTimestampCheck, sealOf } from '../support/seal-reader.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'seal-tsa-'));

let tsa: TimestampAuthorityStandin;
let served: ServedStandin;
let seal: SealIdentity;
beforeAll(async () => {
  tsa = await createTimestampAuthorityStandin();
  served = await serveStandin(tsa);
  seal = await loadSealIdentity(await createSelfSignedSeal('E-Signing API test seal', COMPLETED));
}, 60_000);
afterAll(async () => {
  await served.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  tsa.mode = 'grant';
});

const finish = async (pages: number, timestamp = timestampAuthority(served.url)) =>
  finishDocument(await finishInput(`Time-stamped ${pages}`, pages, { seal, timestamp }));

async function pdfsig(bytes: Uint8Array, name: string): Promise<string> {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  try {
    return (await run('pdfsig', ['-nocert', path])).stdout;
  } catch (err) {
    return String((err as { stdout?: string }).stdout ?? err);
  }
}

const tools = installed('pdfsig', 'pdftotext', 'openssl');

describe('a time-stamped seal (PAdES B-T)', () => {
  it.skipIf(!tools).each([1, 10])('is valid over the whole %i-page document and carries a token over its signature value', async (pages) => {
    const before = tsa.issued();
    const finished = await finish(pages);
    expect(tsa.issued()).toBe(before + 1);

    const report = await pdfsig(finished.bytes, `bt-${pages}.pdf`);
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('Total document signed');
    expect(report).toContain('Signature Type: ETSI.CAdES.detached');

    const { signedAttributes, signatureValue, token } = sealOf(finished.bytes);
    // The time is the authority's, so the signer's own claim of it is left out, as PAdES asks.
    expect(signedAttributes).not.toContain(OID.signingTime);
    expect(signedAttributes).toEqual(expect.arrayContaining([OID.contentType, OID.messageDigest, OID.signingCertificateV2]));
    expect(token).toBeDefined();
    expect(await opensslTimestampCheck(token!, signatureValue, tsa.certificatePem)).toContain('Verification: OK');
    // The same token does not vouch for another signature.
    expect(await opensslTimestampCheck(token!, Buffer.from('another signature'), tsa.certificatePem)).not.toContain('Verification: OK');
  });

  it.skipIf(!tools)('names the authority on the certificate page', async () => {
    const finished = await finish(1);
    const path = join(dir, 'named.pdf');
    writeFileSync(path, finished.bytes);
    const { stdout } = await run('pdftotext', [path, '-']);
    expect(stdout).toContain(`Time-stamped (RFC 3161) by: ${new URL(served.url).host}`);
  });

  it('keeps the signing time attribute when no authority is configured (B-B)', async () => {
    const finished = await finishDocument(await finishInput('No TSA', 1, { seal }));
    const { signedAttributes, token } = sealOf(finished.bytes);
    expect(signedAttributes).toContain(OID.signingTime);
    expect(token).toBeUndefined();
  });

  it('sends credentials in the URL as Basic authentication, and never names them', async () => {
    let seen: string | null = null;
    const guarded = await serveStandin({
      fetch: (request) => {
        seen = request.headers.get('authorization');
        return seen === `Basic ${btoa('acme:s3cret pass')}` ? tsa.fetch(request) : new Response('who are you', { status: 401 });
      },
      close: async () => {},
    });
    try {
      const url = new URL(guarded.url);
      url.username = 'acme';
      url.password = 's3cret pass';
      await expect(finish(1, timestampAuthority(url.toString()))).resolves.toMatchObject({ sha256: expect.any(String) });
      url.password = 'wrong';
      const failure = await finish(1, timestampAuthority(url.toString())).catch((err: Error) => err.message);
      expect(failure).toBe(`The time-stamping authority at ${url.host} answered HTTP 401.`);
      expect(failure).not.toContain('wrong');
      expect(failure).not.toContain('acme');
    } finally {
      await guarded.close();
    }
  });

  it.each([
    ['unavailable', /answered HTTP 503\.$/],
    ['reject', /refused the request \(status 2: the authority refuses for now\)\.$/],
    ['other-imprint', /time-stamped other data than the seal\.$/],
  ] as const)('fails the sealing when the authority is %s', async (mode, message) => {
    tsa.mode = mode;
    await expect(finish(1)).rejects.toThrow(message);
  });

  it('fails the sealing when the authority cannot be reached, or answers what is not a time-stamp', async () => {
    const closed = await serveStandin({ fetch: () => new Response('x'), close: async () => {} });
    const gone = closed.url;
    await closed.close();
    await expect(finish(1, timestampAuthority(gone))).rejects.toThrow(/could not be reached \(network error\)\.$/);

    const html = await serveStandin({ fetch: () => new Response('<html>hello</html>', { headers: { 'content-type': 'text/html' } }), close: async () => {} });
    try {
      await expect(finish(1, timestampAuthority(html.url))).rejects.toThrow(/answered something that is not a time-stamp response\.$/);
    } finally {
      await html.close();
    }

    const slow = await serveStandin({ fetch: () => new Promise<Response>(() => {}), close: async () => {} });
    try {
      await expect(finish(1, timestampAuthority(slow.url, { timeoutMs: 200 }))).rejects.toThrow(/could not be reached \(timed out\)\.$/);
    } finally {
      await slow.close();
    }
  });
});
