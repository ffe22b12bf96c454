import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreateLocalSecrets } from '../../src/entries/local-secrets.js';

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
});
