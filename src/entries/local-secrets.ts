import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBase62 } from '../lib/crypto.js';

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
