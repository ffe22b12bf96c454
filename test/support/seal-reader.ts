/**
 * Reads the seal back out of a finished PDF, as a verifier would: the CMS in the last /Contents,
 * its signed attributes, its signature value and the time-stamp token beside it, if any.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ContentInfo, SignedData } from 'pkijs';
import { OID } from '../../src/pdf/cms-attributes.js';

const run = promisify(execFile);

export function sealOf(bytes: Uint8Array) {
  const text = Buffer.from(bytes).toString('latin1');
  const [, b, c] = /\/ByteRange \[(\d+) (\d+) (\d+) (\d+) *\]/
    .exec(text.slice(text.lastIndexOf('/ByteRange')))!
    .slice(1)
    .map(Number) as number[];
  // The hole is padded with zeros after the CMS. They are not cut off: the DER may end in a zero
  // byte itself (a signature value does, once in 256), and the decoder reads one element and stops.
  const der = Buffer.from(text.slice(b! + 1, c! - 1), 'hex');
  const signerInfo = new SignedData({ schema: ContentInfo.fromBER(der).content }).signerInfos[0]!;
  const token = signerInfo.unsignedAttrs?.attributes.find((attribute) => attribute.type === OID.signatureTimeStampToken)?.values[0];
  return {
    signedAttributes: signerInfo.signedAttrs!.attributes.map((attribute) => attribute.type),
    signatureValue: Buffer.from(signerInfo.signature.valueBlock.valueHexView),
    token: token ? Buffer.from(token.toBER(false)) : undefined,
  };
}

/**
 * `openssl ts -verify` of a time-stamp token over `data`, trusting only `authorityPem`: a checker
 * that shares no code with ours. Answers what openssl printed (`Verification: OK` when it holds).
 */
export async function opensslTimestampCheck(token: Uint8Array, data: Uint8Array, authorityPem: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'tsr-'));
  try {
    writeFileSync(join(dir, 'token.der'), token);
    writeFileSync(join(dir, 'data'), data);
    writeFileSync(join(dir, 'authority.pem'), authorityPem);
    const { stdout } = await run('openssl', [
      'ts',
      '-verify',
      '-token_in',
      '-in',
      join(dir, 'token.der'),
      '-data',
      join(dir, 'data'),
      '-CAfile',
      join(dir, 'authority.pem'),
    ]);
    return stdout;
  } catch (err) {
    return `${(err as { stdout?: string }).stdout ?? ''}${(err as { stderr?: string }).stderr ?? err}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
