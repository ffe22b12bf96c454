import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBase62 } from '../lib/crypto.js';
import { createSelfSignedSeal, loadSealIdentity, type SealSource, UnreadableSealCertificate } from '../pdf/seal-identity.js';

export type LocalSecrets = { token_secret: string; admin_token: string };

/**
 * The embedded server makes its own token-signing secret and admin token on first start and keeps
 * them in the data directory, so tokens and the printed admin token survive a restart. Only a
 * missing file is replaced: one that cannot be read stops the start, because silently making new
 * secrets would invalidate every token and the admin token that people already hold.
 */
export async function loadOrCreateLocalSecrets(dataDir: string): Promise<LocalSecrets> {
  const path = join(dataDir, 'secrets.json');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    const secrets = { token_secret: randomBase62(48), admin_token: `adm_${randomBase62(32)}` };
    await mkdir(dataDir, { recursive: true });
    await writeFile(path, JSON.stringify(secrets, null, 2), { mode: 0o600 });
    return secrets;
  }
  const secrets = parse(text);
  if (!secrets) {
    throw new Error(`${path} does not hold the server's secrets (token_secret and admin_token); repair it, or delete it to make new ones.`);
  }
  return secrets;
}

function parse(text: string): LocalSecrets | undefined {
  try {
    const value = JSON.parse(text) as Partial<LocalSecrets> | null;
    if (typeof value?.token_secret === 'string' && value.token_secret && typeof value.admin_token === 'string' && value.admin_token) {
      return { token_secret: value.token_secret, admin_token: value.admin_token };
    }
  } catch {
    // Not JSON: reported by the caller.
  }
  return undefined;
}

/**
 * The embedded server's sealing identity: an RSA key and a self-signed certificate made on first
 * start and kept in `seal.json` beside secrets.json (a file of its own, so a secrets.json from
 * before sealing loads as it always did). Kept for the same reason as the secrets: a seal made
 * again on every start would name a different certificate on every finished copy. The key is
 * checked against the certificate here, at start, so a damaged file stops the server at once.
 */
export async function loadOrCreateLocalSeal(dataDir: string, now = new Date()): Promise<SealSource> {
  const path = join(dataDir, 'seal.json');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    return createLocalSeal(dataDir, now);
  }
  let seal: SealSource | undefined;
  try {
    const value = JSON.parse(text) as { key_pem?: unknown; cert_pem?: unknown } | null;
    if (typeof value?.key_pem === 'string' && typeof value.cert_pem === 'string') seal = { keyPem: value.key_pem, certPem: value.cert_pem };
  } catch {
    // Not JSON: reported below.
  }
  if (!seal) throw new Error(`${path} does not hold the sealing key and certificate (key_pem and cert_pem); repair it, or delete it to make a new one.`);
  try {
    await loadSealIdentity(seal, { key: `key_pem of ${path}`, cert: `cert_pem of ${path}` });
  } catch (err) {
    if (err instanceof UnreadableSealCertificate) {
      // No verifier can read what it seals, so keeping it helps no one; the old file is kept aside.
      await rename(path, `${path}.unreadable`);
      console.log(
        `Made a new local seal: verifiers cannot read the certificate in ${path} (its serial number's encoding); the old file is now ${path}.unreadable.`,
      );
      return createLocalSeal(dataDir, now);
    }
    throw new Error(`${(err as Error).message} Repair ${path}, or delete it to make a new one.`);
  }
  return seal;
}

async function createLocalSeal(dataDir: string, now: Date): Promise<SealSource> {
  const seal = await createSelfSignedSeal('E-Signing API local seal (self-signed)', now);
  await mkdir(dataDir, { recursive: true });
  await writeFile(join(dataDir, 'seal.json'), JSON.stringify({ key_pem: seal.keyPem, cert_pem: seal.certPem }, null, 2), { mode: 0o600 });
  return seal;
}
