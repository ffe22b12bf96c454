/**
 * The PDF work of `npm start` in a thread under a deadline: the same PDF as in the process, and a
 * job whose work never ends fails at its deadline while the process keeps answering.
 */
import { BroadcastChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryDocumentStore } from '../../src/adapters/embedded/memory-document-store.js';
import { DeadlineExceeded } from '../../src/lib/deadline.js';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { inlinePdfMaker } from '../../src/pdf/inline-pdf-maker.js';
import { type ThreadedPdfMaker, threadedPdfMaker } from '../../src/pdf/threaded-pdf-maker.js';
import { finishRequest } from '../support/finish-input.js';
import { canvasRows, encodePng, pngDataUrl } from '../support/png.js';
import { TEST_SEAL_CERT_PEM, TEST_SEAL_KEY_PEM } from '../support/seal-fixture.js';
import { storedBytes } from '../support/stored-documents.js';

const spinning = new URL('../support/spinning-pdf-thread.ts', import.meta.url);
/** Where that thread says it has started spinning. */
const SPINNING_CHANNEL = 'spinning-pdf-thread';
const settings = { seal: { keyPem: TEST_SEAL_KEY_PEM, certPem: TEST_SEAL_CERT_PEM } };
/** The process's store: the thread is handed the bytes it reads, and hands back what it made. */
const documents = new MemoryDocumentStore();
const put = async (bytes: Uint8Array) => (await documents.put(bytes, { maxBytes: 1 << 20 })).key;
const makers: ThreadedPdfMaker[] = [];
const made = (...args: Parameters<typeof threadedPdfMaker>) => makers[makers.push(threadedPdfMaker(...args)) - 1]!;
afterEach(async () => {
  await Promise.all(makers.splice(0).map((maker) => maker.close()));
});

/** Resolves with the id of the next thread that starts spinning. */
function nextSpin(): Promise<number> {
  const channel = new BroadcastChannel(SPINNING_CHANNEL);
  return new Promise<number>((resolve) => {
    channel.onmessage = (event) => resolve((event as { data: number }).data);
  }).finally(() => channel.close());
}

describe('threadedPdfMaker', () => {
  it('makes, in its thread, the same sealed PDF and page sizes as the process does', async () => {
    const drawn = pngDataUrl(encodePng(canvasRows(300, 100), 300, 100));
    const request = await finishRequest(documents, 'Threaded', 2, {
      fields: [{ type: 'signature', page: 2, x: 72, y: 300, width: 220, height: 50, value: drawn }],
    });
    const threaded = made(settings, documents);
    const inProcessMaker = inlinePdfMaker(settings, nodeFontSource(), documents);
    const [inThread, inProcess] = [await threaded.finish(request), await inProcessMaker.finish(request)];
    expect(inThread.sha256).toBe(inProcess.sha256);
    expect(Buffer.from(await storedBytes(documents, inThread.key)).equals(Buffer.from(await storedBytes(documents, inProcess.key)))).toBe(true);
    expect(await threaded.pageSizes(request.originalKey)).toEqual(await inProcessMaker.pageSizes(request.originalKey));
    expect(await threaded.pageSizes(await put(new TextEncoder().encode('not a PDF')))).toBeNull();
  });

  it('fails work that never ends at its deadline, keeps the process answering meanwhile, and serves the next call from a new thread', async () => {
    const maker = made(settings, documents, { deadlineMs: 500, entry: spinning });
    const spin = nextSpin();
    let outcome: unknown;
    const finishing = maker.finish(await finishRequest(documents, 'Never ends', 1)).then(
      () => (outcome = 'finished'),
      (err: unknown) => (outcome = err),
    );
    const spun = await spin;
    // The thread spins; this thread's event loop still turns, and the work has not been given up yet.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(outcome).toBeUndefined();
    await finishing;
    expect(outcome).toBeInstanceOf(DeadlineExceeded);
    expect((outcome as Error).message).toBe('The PDF work (finish) did not finish within 500 ms.');

    const [next] = (await maker.pageSizes(await put(new Uint8Array(0))))!;
    expect(next!.width).not.toBe(spun);
  });

  it('tells the error of the work in the thread as its own', async () => {
    const mismatched = { seal: { keyPem: TEST_SEAL_KEY_PEM.replace(/[A-Za-z]{8}\n/, 'AAAAAAAA\n'), certPem: TEST_SEAL_CERT_PEM } };
    const request = await finishRequest(documents, 'Bad seal', 1);
    const inProcess = await inlinePdfMaker(mismatched, nodeFontSource(), documents)
      .finish(request)
      .then(
        () => null,
        (err: Error) => err,
      );
    expect(inProcess?.message).toMatch(/^The sealing identity is unusable/);
    await expect(made(mismatched, documents).finish(request)).rejects.toThrow(inProcess!.message);
  });
});
