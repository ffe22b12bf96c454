import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadOrCreateLocalSeal, loadOrCreateLocalSecrets } from '../../src/entries/local-secrets.js';
import { createSelfSignedSeal, loadSealIdentity } from '../../src/pdf/seal-identity.js';

describe('the secrets the embedded server keeps in DATA_DIR', () => {
  let scratch: string;
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'esign-secrets-'));
  });
  afterAll(() => rm(scratch, { recursive: true, force: true }));

  it('are made once, readable only by their owner, and the same on the next start', async () => {
    const dataDir = join(scratch, 'fresh', 'nested');
    const made = await loadOrCreateLocalSecrets(dataDir);
    expect(made.admin_token).toMatch(/^adm_[0-9A-Za-z]{32}$/);
    expect(made.token_secret).toMatch(/^[0-9A-Za-z]{48}$/);
    expect((await stat(join(dataDir, 'secrets.json'))).mode & 0o777).toBe(0o600);
    expect(await loadOrCreateLocalSecrets(dataDir)).toEqual(made);
  });

  it.each([
    ['not JSON', '{ "admin_token": '],
    ['JSON without the secrets', '{}'],
    ['null', 'null'],
  ])('stop the start, and stay as they are, when the file is %s', async (_label, content) => {
    const dataDir = await mkdtemp(join(scratch, 'broken-'));
    await writeFile(join(dataDir, 'secrets.json'), content);
    await expect(loadOrCreateLocalSecrets(dataDir)).rejects.toThrow(/secrets\.json does not hold the server's secrets/);
    expect(await readFile(join(dataDir, 'secrets.json'), 'utf8')).toBe(content);
  });

  it('keep a secrets.json from before sealing as it is, and add the seal in seal.json beside it', async () => {
    const dataDir = await mkdtemp(join(scratch, 'old-'));
    const old = JSON.stringify({ token_secret: 'x'.repeat(48), admin_token: `adm_${'y'.repeat(32)}` });
    await writeFile(join(dataDir, 'secrets.json'), old);
    expect(await loadOrCreateLocalSecrets(dataDir)).toEqual(JSON.parse(old));
    const seal = await loadOrCreateLocalSeal(dataDir);
    expect(await readFile(join(dataDir, 'secrets.json'), 'utf8')).toBe(old);
    expect((await stat(join(dataDir, 'seal.json'))).mode & 0o777).toBe(0o600);
    expect((await loadSealIdentity(seal)).subject).toBe('CN=E-Signing API local seal (self-signed)');
    expect(await loadOrCreateLocalSeal(dataDir)).toEqual(seal);
  });

  it('replace a seal.json whose certificate no verifier can read (a serial with a leading zero byte), keeping the old file aside', async () => {
    const dataDir = await mkdtemp(join(scratch, 'serial-'));
    const unreadable = await withLeadingZeroSerial(await createSelfSignedSeal('E-Signing API local seal (self-signed)', new Date()));
    const old = JSON.stringify({ key_pem: unreadable.keyPem, cert_pem: unreadable.certPem });
    await writeFile(join(dataDir, 'seal.json'), old);
    // The refusal a deployment's SEAL_CERT_PEM gets, naming the variable.
    await expect(loadSealIdentity(unreadable)).rejects.toThrow(/first certificate in SEAL_CERT_PEM encodes its serial number with a leading byte DER forbids/);

    const printed = vi.spyOn(console, 'log').mockImplementation(() => {});
    let seal: Awaited<ReturnType<typeof loadOrCreateLocalSeal>>;
    let lines: string;
    try {
      seal = await loadOrCreateLocalSeal(dataDir);
    } finally {
      lines = printed.mock.calls.join('\n');
      printed.mockRestore();
    }
    expect(lines).toMatch(/Made a new local seal: verifiers cannot read the certificate in .*seal\.json/);
    expect(seal.certPem).not.toBe(unreadable.certPem);
    expect((await loadSealIdentity(seal)).subject).toBe('CN=E-Signing API local seal (self-signed)');
    expect(await readFile(join(dataDir, 'seal.json.unreadable'), 'utf8')).toBe(old);
    expect(await loadOrCreateLocalSeal(dataDir)).toEqual(seal);
  });

  it('stop the start when seal.json is damaged, or its key is not its certificate’s, without printing the key', async () => {
    const dataDir = await mkdtemp(join(scratch, 'seal-'));
    await writeFile(join(dataDir, 'seal.json'), '{}');
    await expect(loadOrCreateLocalSeal(dataDir)).rejects.toThrow(/seal\.json does not hold the sealing key and certificate/);
    const [one, other] = [await createSelfSignedSeal('One', new Date()), await createSelfSignedSeal('Other', new Date())];
    await writeFile(join(dataDir, 'seal.json'), JSON.stringify({ key_pem: other.keyPem, cert_pem: one.certPem }));
    const err = (await loadOrCreateLocalSeal(dataDir).catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(/key_pem of .*seal\.json is not the key of the first certificate in cert_pem of .*seal\.json/);
    expect(err.message).not.toContain(other.keyPem.split('\n')[1]);
  });
});

/**
 * The certificate with the first two bytes of its 16-byte serial made 00 01, as one new seal in 256
 * once was: the same length, so the rest of the DER stands (its self-signature no longer matches,
 * which no check here reads).
 */
async function withLeadingZeroSerial(seal: { keyPem: string; certPem: string }) {
  const der = Buffer.from(seal.certPem.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64');
  // version [0] INTEGER 2, then the serial: INTEGER of 16 bytes.
  const at = der.indexOf(Buffer.from([0xa0, 0x03, 0x02, 0x01, 0x02, 0x02, 0x10])) + 7;
  expect(at).toBeGreaterThan(7);
  der[at] = 0x00;
  der[at + 1] = 0x01;
  const base64 = der
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n');
  return { keyPem: seal.keyPem, certPem: `-----BEGIN CERTIFICATE-----\n${base64}\n-----END CERTIFICATE-----\n` };
}
