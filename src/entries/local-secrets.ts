import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBase62 } from '../lib/crypto.js';

export type LocalSecrets = { token_secret: string; admin_token: string };

/**
 * The embedded server makes its own token-signing secret and admin token on first start and keeps
 * them in the data directory, so tokens and the printed admin token survive a restart.
 */
export async function loadOrCreateLocalSecrets(dataDir: string): Promise<LocalSecrets> {
  const path = join(dataDir, 'secrets.json');
  try {
    return JSON.parse(await readFile(path, 'utf8')) as LocalSecrets;
  } catch {
    const secrets = { token_secret: randomBase62(48), admin_token: `adm_${randomBase62(32)}` };
    await mkdir(dataDir, { recursive: true });
    await writeFile(path, JSON.stringify(secrets, null, 2), { mode: 0o600 });
    return secrets;
  }
}
