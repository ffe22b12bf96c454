import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileDocumentStore } from '../../src/adapters/embedded/file-document-store.js';
import { documentStoreContract, iterated, patterned, readAll, sha256Hex } from '../support/document-store-contract.js';

const folders: string[] = [];
async function scratch() {
  const folder = await mkdtemp(join(tmpdir(), 'file-document-store-'));
  folders.push(folder);
  return folder;
}
afterAll(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

/** Every file in the folder, temporary ones included (none before the first write: the folder is made then). */
async function filesIn(folder: string) {
  return readdir(folder).catch(() => [] as string[]);
}

documentStoreContract('FileDocumentStore', async () => {
  const folder = join(await scratch(), 'documents');
  return { store: new FileDocumentStore(folder), held: async () => (await filesIn(folder)).length };
});

describe('FileDocumentStore', () => {
  it('names each file after its SHA-256: the same bytes twice are one file', async () => {
    const folder = await scratch();
    const store = new FileDocumentStore(folder);
    const bytes = patterned(3000);
    const first = await store.put(bytes, { maxBytes: 3000 });
    const second = await store.put(iterated(bytes, 512), { maxBytes: 3000 });
    expect(first.key).toBe(await sha256Hex(bytes));
    expect(second).toEqual(first);
    expect(await filesIn(folder)).toEqual([first.key]);
    expect(new Uint8Array(await readFile(join(folder, first.key)))).toEqual(bytes);
  });

  it('shows no file while the bytes are still arriving, and the whole one once they have', async () => {
    const folder = await scratch();
    const store = new FileDocumentStore(folder);
    const bytes = patterned(4096, 5);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const halfWay = new Promise<void>((resolve) => (arrived = resolve));
    async function* slow() {
      yield bytes.slice(0, 2048);
      arrived();
      await held;
      yield bytes.slice(2048);
    }
    const writing = store.put(slow(), { maxBytes: 4096 });
    await halfWay;
    const key = await sha256Hex(bytes);
    expect(await store.get(key)).toBeNull();
    expect((await filesIn(folder)).filter((name) => !name.startsWith('.'))).toEqual([]);
    release();
    expect((await writing).key).toBe(key);
    expect(await readAll((await store.get(key))!.body)).toEqual(bytes);
  });

  it('reads a range from the file, past its first read window', async () => {
    const store = new FileDocumentStore(await scratch());
    const bytes = patterned(300_000, 1);
    const { key } = await store.put(bytes, { maxBytes: 300_000 });
    const document = await store.get(key, { offset: 150_000, length: 100_000 });
    expect(document).toMatchObject({ size: 300_000, range: { offset: 150_000, length: 100_000 } });
    expect(await readAll(document!.body)).toEqual(bytes.slice(150_000, 250_000));
  });

  it('takes maxBytes exactly, and refuses one byte more leaving no file', async () => {
    const folder = await scratch();
    const store = new FileDocumentStore(folder);
    await expect(store.put(iterated(patterned(2000), 300), { maxBytes: 2000 })).resolves.toMatchObject({ size: 2000 });
    await expect(store.put(iterated(patterned(2001), 300), { maxBytes: 2000 })).rejects.toThrow('larger than 2000 bytes');
    expect(await filesIn(folder)).toHaveLength(1);
  });

  it('finds nothing under a key that is not a SHA-256, so no key names a path outside its folder', async () => {
    const folder = await scratch();
    const store = new FileDocumentStore(join(folder, 'documents'));
    await store.put(patterned(10), { maxBytes: 10 });
    expect(await store.get('../documents')).toBeNull();
    expect(await store.get('.incoming-x')).toBeNull();
    await store.delete('..');
    expect(await filesIn(folder)).toEqual(['documents']);
  });
});
