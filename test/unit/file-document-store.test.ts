import { createHash } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { type FileHandle, mkdtemp, open, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { FileDocumentStore } from '../../src/adapters/embedded/file-document-store.js';
import { documentStoreContract, iterated, patterned, readAll, sha256Hex } from '../support/document-store-contract.js';

const KiB = 1024;
const MiB = 1024 * KiB;

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

/**
 * What the store does with its files, seen through every FileHandle of this process: the bytes
 * read from them, the reads under way, and which handles were opened for a read (their size asked)
 * and which were closed since.
 */
async function watchFileHandles(folder: string) {
  const probe = await open(folder, 'r');
  const prototype = Object.getPrototypeOf(probe) as FileHandle;
  await probe.close();
  const seen = { bytesRead: 0, readsStarted: 0, readsUnderWay: 0, opened: new Set<FileHandle>(), closed: new Set<FileHandle>() };
  const read = prototype.read;
  const stat = prototype.stat;
  vi.spyOn(prototype, 'read').mockImplementation(async function (this: FileHandle, ...args: unknown[]) {
    seen.readsStarted++;
    seen.readsUnderWay++;
    try {
      const result = await (read as (...a: unknown[]) => Promise<{ bytesRead: number }>).apply(this, args);
      seen.bytesRead += result.bytesRead;
      return result as never;
    } finally {
      seen.readsUnderWay--;
    }
  });
  vi.spyOn(prototype, 'stat').mockImplementation(function (this: FileHandle, ...args: unknown[]) {
    if (!seen.opened.has(this)) {
      seen.opened.add(this);
      // A FileHandle says when it is closed (an event its types do not tell; its close is its own, not its prototype's).
      (this as unknown as EventEmitter).once('close', () => seen.closed.add(this));
    }
    return (stat as (...a: unknown[]) => never).apply(this, args);
  });
  return {
    seen,
    /** Handles opened for a read and not closed. */
    open: () => [...seen.opened].filter((handle) => !seen.closed.has(handle)).length,
    /**
     * Resolves once no read is under way and none starts in a turn of the event loop: whatever the
     * store reads on its own, ahead of its reader, it has read by then (a file stream asks for its
     * next chunk as soon as one arrives, within the turn).
     */
    async quiet() {
      for (;;) {
        const started = seen.readsStarted;
        await new Promise((resolve) => setImmediate(resolve));
        if (seen.readsUnderWay === 0 && seen.readsStarted === started) return;
      }
    },
  };
}

describe('FileDocumentStore reads a document as its reader asks', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const tenMiB = patterned(10 * MiB, 11);
  async function storedTenMiB() {
    const folder = await scratch();
    const store = new FileDocumentStore(folder);
    const { key } = await store.put(tenMiB, { maxBytes: 10 * MiB });
    return { folder, store, key };
  }

  it('reads no more than one chunk of a 10 MiB document ahead of a reader, and closes the file on cancel', async () => {
    const { folder, store, key } = await storedTenMiB();
    const files = await watchFileHandles(folder);
    const document = (await store.get(key))!;
    const reader = document.body.getReader();
    // A reader that asks for nothing yet: the answer is waiting for a slow connection.
    await files.quiet();
    expect(files.seen.bytesRead).toBeLessThanOrEqual(64 * KiB);
    // One chunk read: the store has read it, and at most one more.
    const first = await reader.read();
    await files.quiet();
    expect(first.value!.byteLength).toBeGreaterThan(0);
    expect(files.seen.bytesRead - first.value!.byteLength).toBeLessThanOrEqual(64 * KiB);
    expect(files.open()).toBe(1);
    await reader.cancel();
    await vi.waitFor(() => expect(files.open()).toBe(0));
    expect(files.seen.bytesRead).toBeLessThanOrEqual(256 * KiB);
    // Nothing holds the file: it can be deleted, and is gone for the next reader.
    await store.delete(key);
    expect(await store.get(key)).toBeNull();
  });

  it('reads into the buffer a reader brings, one buffer for the whole document, and closes the file at its end', async () => {
    const { folder, store, key } = await storedTenMiB();
    const files = await watchFileHandles(folder);
    const document = (await store.get(key))!;
    const reader = document.body.getReader({ mode: 'byob' });
    let buffer = new ArrayBuffer(64 * KiB);
    const hash = createHash('sha256');
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read(new Uint8Array(buffer));
      if (done) break;
      hash.update(value);
      size += value.byteLength;
      // The same memory, handed back: no buffer of the store's own.
      buffer = value.buffer as ArrayBuffer;
      expect(buffer.byteLength).toBe(64 * KiB);
    }
    expect({ size, sha256: hash.digest('hex') }).toEqual({ size: 10 * MiB, sha256: key });
    await vi.waitFor(() => expect(files.open()).toBe(0));
  });

  it.each([
    ['whole', undefined, 10 * MiB],
    ['a range', { offset: 5 * MiB - 7, length: 200 * KiB }, 200 * KiB],
    ['an empty range', { offset: 10 * MiB, length: 5 }, 0],
  ])('closes the file once %s is read', async (_what, range, length) => {
    const { folder, store, key } = await storedTenMiB();
    const files = await watchFileHandles(folder);
    const document = (await store.get(key, range))!;
    const offset = range?.offset ?? 0;
    // Compared as Buffers: a deep equality of megabytes takes minutes.
    expect(Buffer.from(await readAll(document.body)).equals(tenMiB.subarray(offset, offset + length))).toBe(true);
    await vi.waitFor(() => expect(files.open()).toBe(0));
    expect(files.seen.opened.size).toBe(1);
  });
});
