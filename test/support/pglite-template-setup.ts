/**
 * Runs once before the fast suites: a PGlite database migrated once and dumped to a file, which
 * every test file's stack then loads (test/support/stack.ts). Loading a dump skips PGlite's own
 * initdb and the migrations, a few seconds of each file's start.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { openPgliteDatabase } from '../../src/adapters/embedded/pglite-database.js';

export default async function setup({ provide }: { provide: (key: string, value: string) => void }) {
  const dir = await mkdtemp(join(tmpdir(), 'pglite-template-'));
  const client = new PGlite();
  const database = await openPgliteDatabase(client);
  const dump = await client.dumpDataDir('none');
  await database.close();
  const path = join(dir, 'migrated.tar');
  await writeFile(path, Buffer.from(await dump.arrayBuffer()));
  provide('pgliteTemplate', path);
  return () => rm(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}
