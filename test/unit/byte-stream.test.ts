/** The rules every document store shares (src/lib/byte-stream.ts): chunks, count, hash, limit, parts, ranges. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { chunksOf, clampRange, countedChunks, partsOf } from '../../src/lib/byte-stream.js';
import { DocumentTooLarge } from '../../src/ports/document-store.js';
import { iterated, patterned, streamed } from '../support/document-store-contract.js';

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe('chunksOf', () => {
  it('gives bytes in memory as one chunk, and a stream or an iterable chunk by chunk', async () => {
    const bytes = patterned(10);
    expect(await all(chunksOf(bytes))).toEqual([bytes]);
    expect((await all(chunksOf(streamed(bytes, 4)))).map((chunk) => chunk.byteLength)).toEqual([4, 4, 2]);
    expect((await all(chunksOf(iterated(bytes, 3)))).map((chunk) => chunk.byteLength)).toEqual([3, 3, 3, 1]);
  });

  it('cancels a stream that is given up half-way', async () => {
    let cancelled = false;
    const source = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(new Uint8Array(1)),
      cancel: () => {
        cancelled = true;
      },
    });
    for await (const _chunk of chunksOf(source)) break;
    expect(cancelled).toBe(true);
  });
});

describe('countedChunks', () => {
  it('counts and hashes what passes, and tells it once the source is read to its end', async () => {
    const bytes = patterned(1000);
    const { chunks, tally } = countedChunks(iterated(bytes, 300), 1000);
    expect(() => tally()).toThrow('not been read to its end');
    expect((await all(chunks)).length).toBe(4);
    expect(tally()).toEqual({ size: 1000, sha256: createHash('sha256').update(bytes).digest('hex') });
  });

  it('takes exactly maxBytes, and throws DocumentTooLarge before handing on the chunk that goes past it', async () => {
    expect((await all(countedChunks(iterated(patterned(10), 5), 10).chunks)).length).toBe(2);
    const passed: Uint8Array[] = [];
    const refused = (async () => {
      for await (const chunk of countedChunks(iterated(patterned(11), 5), 10).chunks) passed.push(chunk);
    })();
    await expect(refused).rejects.toEqual(new DocumentTooLarge(10));
    expect(passed.map((chunk) => chunk.byteLength)).toEqual([5, 5]);
  });
});

describe('partsOf', () => {
  it.each([
    [0, []],
    [1, [1]],
    [7, [7]],
    [8, [8]],
    [9, [8, 1]],
    [20, [8, 8, 4]],
  ])('cuts %i bytes into parts of 8 with only the last shorter', async (size, sizes) => {
    const bytes = patterned(size);
    const parts = await all(partsOf(iterated(bytes, 3), 8));
    expect(parts.map((part) => part.byteLength)).toEqual(sizes);
    expect(Buffer.concat(parts)).toEqual(Buffer.from(bytes));
  });
});

describe('clampRange', () => {
  it.each([
    [undefined, { offset: 0, length: 100 }],
    [
      { offset: 10, length: 20 },
      { offset: 10, length: 20 },
    ],
    [
      { offset: 90, length: 20 },
      { offset: 90, length: 10 },
    ],
    [
      { offset: 100, length: 1 },
      { offset: 100, length: 0 },
    ],
    [
      { offset: 150, length: 1 },
      { offset: 100, length: 0 },
    ],
    [
      { offset: -5, length: 10 },
      { offset: 0, length: 10 },
    ],
    [
      { offset: 5, length: -1 },
      { offset: 5, length: 0 },
    ],
  ])('clamps %j to a document of 100 bytes as %j', (range, clamped) => {
    expect(clampRange(100, range)).toEqual(clamped);
  });
});
