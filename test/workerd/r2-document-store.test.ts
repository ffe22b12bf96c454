/**
 * The R2 document store inside workerd, over the `DOCUMENTS` bucket of wrangler.toml (Miniflare's
 * local R2): the store's contract, then the sizes around R2's 5 MiB part, where a streamed
 * document turns from one put into a multipart upload.
 */
import { env } from 'cloudflare:workers';
import type { R2Bucket } from '@cloudflare/workers-types/index.js';
import { describe, expect, it } from 'vitest';
import { PART_BYTES, R2DocumentStore } from '../../src/adapters/production/r2-document-store.js';
import { documentStoreContract, patterned, readAll, sha256Hex, streamed } from '../support/document-store-contract.js';

const bucket = env.DOCUMENTS as R2Bucket;
const store = new R2DocumentStore(bucket);

async function held(): Promise<number> {
  return (await bucket.list({ prefix: 'documents/' })).objects.length;
}

documentStoreContract('R2DocumentStore', () => ({ store, held }));

const MiB = 1024 * 1024;
// An odd chunk size, so that chunks straddle the parts' edges.
const CHUNK = 65_537;

describe('R2DocumentStore around the 5 MiB part', () => {
  it.each([
    ['a few bytes', 5],
    ['exactly 5 MiB', 5 * MiB],
    ['5 MiB + 1', 5 * MiB + 1],
    ['about 12 MiB', 12 * MiB + 12_345],
  ])('stores %s streamed, and serves it whole and in ranges', async (_size, size) => {
    const bytes = patterned(size, 7);
    const stored = await store.put(streamed(bytes, CHUNK), { maxBytes: size });
    expect(stored).toEqual({ key: expect.stringMatching(/^documents\/\w+$/), size, sha256: await sha256Hex(bytes) });
    const whole = await store.get(stored.key);
    expect(whole).toMatchObject({ size, range: { offset: 0, length: size } });
    expect(await sha256Hex(await readAll(whole!.body))).toBe(stored.sha256);
    const ranges = [
      { offset: 0, length: 3 },
      { offset: Math.floor(size / 2) - 1, length: 2 },
      { offset: size - 3, length: 3 },
      { offset: size - 2, length: 10 },
      { offset: size, length: 10 },
      { offset: size + 1000, length: 10 },
      // Across the first part's edge, where there is one.
      ...(size > PART_BYTES ? [{ offset: PART_BYTES - 100, length: 200 }] : []),
    ];
    for (const range of ranges) {
      const offset = Math.min(Math.max(range.offset, 0), size);
      const length = Math.max(0, Math.min(range.length, size - offset));
      const part = await store.get(stored.key, range);
      expect(part, JSON.stringify(range)).toMatchObject({ size, range: { offset, length } });
      expect(await readAll(part!.body), JSON.stringify(range)).toEqual(bytes.slice(offset, offset + length));
    }
    await store.delete(stored.key);
    expect(await store.get(stored.key)).toBeNull();
  });

  it('keeps the SHA-256 and size of a document put in one call in its custom metadata', async () => {
    const bytes = patterned(1000, 2);
    const fromMemory = await store.put(bytes, { maxBytes: 1000 });
    const fromStream = await store.put(streamed(bytes, 300), { maxBytes: 1000 });
    for (const stored of [fromMemory, fromStream]) {
      const object = await bucket.head(stored.key);
      expect(object?.customMetadata).toEqual({ sha256: await sha256Hex(bytes), size: '1000' });
      await store.delete(stored.key);
    }
    // R2 has no rename: each put is an object of its own, even of the same bytes.
    expect(fromStream.key).not.toBe(fromMemory.key);
  });

  it.each([
    ['in one put', 1000],
    ['in parts', 5 * MiB + 1],
  ])('takes maxBytes exactly at the size %s, and refuses one byte past it, keeping nothing', async (_how, size) => {
    const bytes = patterned(size, 4);
    const before = await held();
    const taken = await store.put(streamed(bytes, CHUNK), { maxBytes: size });
    expect(taken.size).toBe(size);
    await store.delete(taken.key);
    await expect(store.put(streamed(bytes, CHUNK), { maxBytes: size - 1 })).rejects.toMatchObject({ maxBytes: size - 1 });
    await expect(store.put(bytes, { maxBytes: size - 1 })).rejects.toMatchObject({ maxBytes: size - 1 });
    expect(await held()).toBe(before);
  });

  it('aborts a multipart upload whose source fails after its first part, keeping nothing', async () => {
    const before = await held();
    async function* cutOff() {
      yield patterned(PART_BYTES + 10);
      throw new Error('the upload was cut off');
    }
    await expect(store.put(cutOff(), { maxBytes: 20 * MiB })).rejects.toThrow('the upload was cut off');
    expect(await held()).toBe(before);
  });
});
