/**
 * Taking back a refused write (DocumentStore.discard) in the stores keyed by SHA-256, where the
 * same bytes put twice are one document: the memory store forgets it once every put of it is taken
 * back; the file store keeps it, since it cannot tell whose it is. R2, where each put has a key of
 * its own, is proven in workerd (test/workerd/streamed-import.test.ts).
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileDocumentStore } from '../../src/adapters/embedded/file-document-store.js';
import { MemoryDocumentStore } from '../../src/adapters/embedded/memory-document-store.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('MemoryDocumentStore.discard', () => {
  it('forgets a document put once', async () => {
    const store = new MemoryDocumentStore();
    const stored = await store.put(bytes('refused'), { maxBytes: 100 });
    await store.discard(stored);
    expect(await store.get(stored.key)).toBeNull();
    expect(store.count).toBe(0);
  });

  it('keeps the same bytes put for another use until that put is taken back too', async () => {
    const store = new MemoryDocumentStore();
    const kept = await store.put(bytes('shared'), { maxBytes: 100 });
    const refused = await store.put(bytes('shared'), { maxBytes: 100 });
    expect(refused.key).toBe(kept.key);
    await store.discard(refused);
    expect((await store.get(kept.key))?.size).toBe(6);
    await store.discard(kept);
    expect(await store.get(kept.key)).toBeNull();
  });

  it('takes back nothing more for a key it no longer has', async () => {
    const store = new MemoryDocumentStore();
    const stored = await store.put(bytes('gone'), { maxBytes: 100 });
    await store.delete(stored.key);
    await store.discard(stored);
    const again = await store.put(bytes('gone'), { maxBytes: 100 });
    expect((await store.get(again.key))?.size).toBe(4);
  });
});

describe('FileDocumentStore.discard', () => {
  const folders: string[] = [];
  afterAll(async () => {
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  it('keeps the file: identical bytes may be another template’s', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'discard-'));
    folders.push(folder);
    const store = new FileDocumentStore(folder);
    const stored = await store.put(bytes('maybe shared'), { maxBytes: 100 });
    await store.discard(stored);
    expect((await store.get(stored.key))?.size).toBe(12);
    expect(await readdir(folder)).toEqual([stored.key]);
  });
});
