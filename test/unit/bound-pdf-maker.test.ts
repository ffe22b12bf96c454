/** The API Worker's side of the PDF Worker's binding (the calls across it run in test/workerd/seal.test.ts). */
import { describe, expect, it } from 'vitest';
import { boundPdfMaker } from '../../src/adapters/production/bound-pdf-maker.js';

describe('boundPdfMaker', () => {
  it('stops the Worker, saying what to deploy, when the PDF binding is missing or is not the entry point', () => {
    for (const binding of [undefined, {}, { fetch: () => undefined }]) {
      expect(() => boundPdfMaker(binding)).toThrow(/PDF service binding is missing \(deploy wrangler\.pdf\.toml/);
    }
  });

  it('passes each call to the entry point as it is', async () => {
    const calls: unknown[] = [];
    const key = 'a'.repeat(64);
    const maker = boundPdfMaker({
      pageSizes: async (given: string) => {
        calls.push(given);
        return [{ width: 612, height: 792 }];
      },
      finish: async () => ({ key, size: 4, sha256: 'a', signedContentSha256: 'b' }),
    });
    expect(await maker.pageSizes(key)).toEqual([{ width: 612, height: 792 }]);
    expect(calls).toEqual([key]);
    expect((await maker.finish({} as never)).key).toBe(key);
  });
});
