/**
 * What every document store promises (src/ports/document-store.ts), as one suite each adapter's
 * test runs against its own store: the same bytes back whatever the source, ranges clamped to the
 * end, the limit exact, nothing kept of a write that was refused or failed, and a read given up
 * half-way let go.
 */
import { describe, expect, it } from 'vitest';
import { type DocumentSource, type DocumentStore, DocumentTooLarge } from '../../src/ports/document-store.js';

export type StoreUnderTest = {
  store: DocumentStore;
  /** How many documents the store holds, temporary ones included. */
  held(): Promise<number>;
};

/** Deterministic bytes of any length, different at every offset within a period of 251. */
export function patterned(length: number, seed = 0): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let at = 0; at < length; at++) bytes[at] = (at + seed) % 251;
  return bytes;
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return Buffer.from(await crypto.subtle.digest('SHA-256', bytes as BufferSource)).toString('hex');
}

/** The bytes as a stream of chunks of `chunkBytes` each. */
export function streamed(bytes: Uint8Array, chunkBytes = 64 * 1024): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.slice(at, at + chunkBytes));
      at += chunkBytes;
    },
  });
}

export async function* iterated(bytes: Uint8Array, chunkBytes = 1000): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.byteLength; at += chunkBytes) yield bytes.slice(at, at + chunkBytes);
}

/** A source that gives some bytes, then fails. */
export async function* failing(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
  throw new Error('the upload was cut off');
}

export async function readAll(body: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(body).arrayBuffer());
}

export function documentStoreContract(name: string, open: () => StoreUnderTest | Promise<StoreUnderTest>) {
  describe(`${name}: the document store's contract`, () => {
    const sources: [string, (bytes: Uint8Array) => DocumentSource][] = [
      ['bytes in memory', (bytes) => bytes],
      ['a stream', (bytes) => streamed(bytes, 7)],
      ['an async iterable', (bytes) => iterated(bytes, 10)],
    ];
    it.each(sources)('keeps %s as given, with its size and SHA-256', async (_kind, source) => {
      const { store } = await open();
      const bytes = patterned(100);
      const stored = await store.put(source(bytes), { maxBytes: 100 });
      expect(stored).toMatchObject({ size: 100, sha256: await sha256Hex(bytes) });
      const document = await store.get(stored.key);
      expect(document).toMatchObject({ size: 100, range: { offset: 0, length: 100 } });
      expect(await readAll(document!.body)).toEqual(bytes);
    });

    it('keeps an empty document', async () => {
      const { store } = await open();
      const stored = await store.put(new Uint8Array(0), { maxBytes: 10 });
      expect(stored).toMatchObject({ size: 0, sha256: await sha256Hex(new Uint8Array(0)) });
      expect(await readAll((await store.get(stored.key))!.body)).toEqual(new Uint8Array(0));
    });

    it.each([
      ['at the start', { offset: 0, length: 10 }, { offset: 0, length: 10 }],
      ['in the middle', { offset: 40, length: 20 }, { offset: 40, length: 20 }],
      ['at the end', { offset: 90, length: 10 }, { offset: 90, length: 10 }],
      ['running past the end', { offset: 95, length: 50 }, { offset: 95, length: 5 }],
      ['starting at the end', { offset: 100, length: 10 }, { offset: 100, length: 0 }],
      ['starting past the end', { offset: 150, length: 10 }, { offset: 100, length: 0 }],
    ])('reads a range %s, clamped to the document', async (_where, asked, served) => {
      const { store } = await open();
      const bytes = patterned(100, 3);
      const { key } = await store.put(bytes, { maxBytes: 100 });
      const document = await store.get(key, asked);
      expect(document).toMatchObject({ size: 100, range: served });
      expect(await readAll(document!.body)).toEqual(bytes.slice(served.offset, served.offset + served.length));
    });

    it.each(sources)('refuses %s one byte past maxBytes and keeps nothing of it', async (_kind, source) => {
      const { store, held } = await open();
      const before = await held();
      const refused = store.put(source(patterned(101)), { maxBytes: 100 });
      await expect(refused).rejects.toBeInstanceOf(DocumentTooLarge);
      await expect(refused).rejects.toMatchObject({ maxBytes: 100 });
      expect(await held()).toBe(before);
    });

    it('keeps nothing of a source that fails half-way', async () => {
      const { store, held } = await open();
      const before = await held();
      await expect(store.put(failing(patterned(50)), { maxBytes: 100 })).rejects.toThrow('the upload was cut off');
      expect(await held()).toBe(before);
    });

    it('lets go of a read given up half-way: the document reads whole again, and is deleted', async () => {
      const { store } = await open();
      const bytes = patterned(300_000, 6);
      const { key } = await store.put(bytes, { maxBytes: 300_000 });
      const reader = (await store.get(key))!.body.getReader();
      const first = await reader.read();
      expect(first.done).toBe(false);
      await reader.cancel();
      expect(await sha256Hex(await readAll((await store.get(key))!.body))).toBe(await sha256Hex(bytes));
      await store.delete(key);
      expect(await store.get(key)).toBeNull();
    });

    it('answers null for a key it does not have, and forgets a deleted document', async () => {
      const { store } = await open();
      expect(await store.get('no-such-document')).toBeNull();
      const { key } = await store.put(patterned(20, 9), { maxBytes: 20 });
      await store.delete(key);
      expect(await store.get(key)).toBeNull();
      expect(await store.get(key, { offset: 0, length: 5 })).toBeNull();
      // Deleting what is not there is not an error.
      await store.delete(key);
    });
  });
}
