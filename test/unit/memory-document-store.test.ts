import { describe, expect, it } from 'vitest';
import { MemoryDocumentStore } from '../../src/adapters/embedded/memory-document-store.js';
import { documentStoreContract, patterned } from '../support/document-store-contract.js';

documentStoreContract('MemoryDocumentStore', () => {
  const store = new MemoryDocumentStore();
  return { store, held: async () => store.count };
});

describe('MemoryDocumentStore', () => {
  it('keys a document by its SHA-256, as the file store does: the same bytes twice are one document', async () => {
    const store = new MemoryDocumentStore();
    const first = await store.put(patterned(30), { maxBytes: 30 });
    const second = await store.put(patterned(30), { maxBytes: 30 });
    expect(second.key).toBe(first.key);
    expect(first.key).toBe(first.sha256);
    expect(store.count).toBe(1);
  });

  it('keeps its own copy of bytes whose producer reuses the buffer', async () => {
    const store = new MemoryDocumentStore();
    const reused = new Uint8Array([1, 2, 3]);
    async function* source() {
      yield reused;
      reused.fill(9);
      yield reused;
    }
    const { key } = await store.put(source(), { maxBytes: 10 });
    expect(new Uint8Array(await new Response((await store.get(key))!.body).arrayBuffer())).toEqual(new Uint8Array([1, 2, 3, 9, 9, 9]));
  });
});
