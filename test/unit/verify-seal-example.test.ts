/**
 * The evidence guide's way to check a finished PDF in code (examples/verify-seal.mjs), run as an
 * integrator runs it: it accepts a sealed file as made, B-B and B-T, and refuses one changed by a
 * byte, one with an update appended after the seal, another file than announced, and a seal made
 * by another certificate.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedStandin, serveStandin } from '../../local/standins/standin.js';
import { createTimestampAuthorityStandin } from '../../local/standins/timestamp-authority.js';
import { finishFile as finishDocument } from '../support/finished-file.js';
import { createSelfSignedSeal, loadSealIdentity, type SealIdentity } from '../../src/pdf/seal-identity.js';
import { type Timestamper, timestampAuthority } from '../../src/pdf/timestamp.js';
import { COMPLETED, finishInput } from '../support/finish-input.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'verify-seal-'));
let seal: SealIdentity;
let tsa: ServedStandin;
beforeAll(async () => {
  seal = await loadSealIdentity(await createSelfSignedSeal('Acme Ltd e-signing seal', COMPLETED));
  tsa = await serveStandin(await createTimestampAuthorityStandin());
}, 60_000);
afterAll(async () => {
  await tsa.close();
  rmSync(dir, { recursive: true, force: true });
});

const finished = async (timestamp?: Timestamper) => finishDocument(await finishInput('Verify me', 2, { seal, timestamp }));

/** Runs the example on `bytes`; answers its exit code and what it printed. */
async function verify(bytes: Uint8Array, ...expected: string[]) {
  const path = join(dir, `${crypto.randomUUID()}.pdf`);
  writeFileSync(path, bytes);
  try {
    const { stdout } = await run(process.execPath, ['examples/verify-seal.mjs', path, ...expected]);
    return { code: 0, out: stdout };
  } catch (err) {
    const failed = err as { code: number; stdout: string };
    return { code: failed.code, out: failed.stdout };
  }
}

describe('examples/verify-seal.mjs', () => {
  it('accepts a sealed file as made, by its announced hash and the certificate page’s fingerprint', async () => {
    const file = await finished();
    const result = await verify(file.bytes, file.sha256, seal.fingerprint);
    expect(result.code).toBe(0);
    expect(result.out).toContain('signature:           valid');
    expect(result.out).toContain('covers:              the whole file but the signature');
    expect(result.out).toContain('sealed by:           Acme Ltd e-signing seal');
    expect(result.out).toContain('time-stamp:          none');
    expect(result.out).toMatch(/\nOK\n$/);
  });

  it('accepts a time-stamped seal, and shows the authority’s time', async () => {
    const file = await finished(timestampAuthority(tsa.url));
    const result = await verify(file.bytes, file.sha256);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/time-stamp: {10}\d{4}-\d\d-\d\dT[\d:.]+Z \(valid, over this signature\)/);
  });

  it('refuses a file changed by one byte inside the signed range', async () => {
    const file = await finished();
    const changed = file.bytes.slice();
    changed[200] = changed[200]! ^ 0x01;
    const result = await verify(changed);
    expect(result.code).toBe(1);
    expect(result.out).toContain('signature:           INVALID');
    expect(result.out).toContain('NOT OK');
  });

  it('refuses a file with an update appended after the seal', async () => {
    const file = await finished();
    const appended = Buffer.concat([file.bytes, Buffer.from('\n1 0 obj\n(changed)\nendobj\n')]);
    const result = await verify(appended);
    expect(result.code).toBe(1);
    expect(result.out).toContain('covers:              NOT the whole file');
  });

  it('refuses another file than announced, and a seal by another certificate', async () => {
    const file = await finished();
    expect((await verify(file.bytes, '0'.repeat(64))).out).toContain('NOT OK: the file is not the one announced');
    expect((await verify(file.bytes, file.sha256, `${'AB:'.repeat(31)}AB`)).out).toContain('NOT OK: the seal was made by another certificate');
  });
});
