/**
 * The stack floor's wrangler configuration, written at bench time beside its build: the build
 * settings that change what workerd loads (compatibility date and flags, minify, keep_names) are
 * read from the API Worker's wrangler.toml, so both bundles are made alike. Its `[alias]` is not
 * carried over: the floor is the packages as they ship.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../../..');

/** Writes `wrangler.toml` for the stack floor into `dir` and returns its path. */
export async function writeStackFloorConfig(dir: string, apiConfig = join(root, 'wrangler.toml')): Promise<string> {
  const toml = readFileSync(apiConfig, 'utf8');
  const setting = (name: string) => new RegExp(`^${name}\\s*=\\s*(.+)$`, 'm').exec(toml)?.[1]?.trim();
  const lines = [
    'name = "stack-floor"',
    `main = ${JSON.stringify(join(import.meta.dirname, 'worker.ts'))}`,
    ...['compatibility_date', 'compatibility_flags', 'minify', 'keep_names'].flatMap((name) => {
      const value = setting(name);
      return value === undefined ? [] : [`${name} = ${value}`];
    }),
  ];
  const path = join(dir, 'wrangler.toml');
  await writeFile(path, `${lines.join('\n')}\n`);
  return path;
}
