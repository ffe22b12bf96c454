/**
 * The deadline of the PDF work: the API Worker's calls to the PDF Worker fail at it when the PDF
 * Worker never answers (a finish, page sizes, a filled copy), and `npm start` takes it from PDF_DEADLINE_SECONDS.
 */
import { describe, expect, it } from 'vitest';
import { boundPdfMaker } from '../../src/adapters/production/bound-pdf-maker.js';
import { readNodeConfig } from '../../src/entries/node-config.js';
import { DEFAULT_PDF_DEADLINE_MS, DeadlineExceeded } from '../../src/lib/deadline.js';

describe('boundPdfMaker', () => {
  it('fails a call the PDF Worker never answers at its deadline, and passes on an answer within it', async () => {
    const never = new Promise<never>(() => {});
    const silent = boundPdfMaker({ pageSizes: () => never, finish: () => never }, { deadlineMs: 50 });
    await expect(silent.finish({} as never)).rejects.toThrow(new DeadlineExceeded('The PDF Worker (finish)', 50));
    await expect(silent.pageSizes('0'.repeat(64))).rejects.toBeInstanceOf(DeadlineExceeded);
    const silentCopy = boundPdfMaker({ pageSizes: () => never, finish: () => never, filledCopy: () => never }, { deadlineMs: 50 });
    await expect(silentCopy.filledCopy({} as never)).rejects.toThrow(new DeadlineExceeded('The PDF Worker (filledCopy)', 50));

    const failing = boundPdfMaker(
      { pageSizes: async () => null, finish: () => Promise.reject(new Error('The sealing identity is unusable')) },
      { deadlineMs: 50 },
    );
    await expect(failing.finish({} as never)).rejects.toThrow('The sealing identity is unusable');
    expect(await failing.pageSizes('0'.repeat(64))).toBeNull();
  });
});

describe('PDF_DEADLINE_SECONDS', () => {
  it('is 60 s unless set, takes whole seconds from 1 to 100, and refuses the rest, naming the variable', () => {
    expect(readNodeConfig({}).PDF_DEADLINE_SECONDS * 1000).toBe(DEFAULT_PDF_DEADLINE_MS);
    expect(readNodeConfig({ PDF_DEADLINE_SECONDS: '1' }).PDF_DEADLINE_SECONDS).toBe(1);
    expect(readNodeConfig({ PDF_DEADLINE_SECONDS: '100' }).PDF_DEADLINE_SECONDS).toBe(100);
    for (const bad of ['0', '101', '1.5', 'soon']) {
      expect(() => readNodeConfig({ PDF_DEADLINE_SECONDS: bad })).toThrow('PDF_DEADLINE_SECONDS: must be a whole number of seconds from 1 to 100');
    }
  });
});
