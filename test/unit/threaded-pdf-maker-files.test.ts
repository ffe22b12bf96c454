/**
 * The PDF thread of `npm start` over the file store: it reads each original from its file, so the
 * process hands it the original's key and never holds the document whole; a key that is not a
 * SHA-256 names no file, whatever the folder holds.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BroadcastChannel } from 'node:worker_threads';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { FileDocumentStore } from '../../src/adapters/embedded/file-document-store.js';
import { MemoryDocumentStore } from '../../src/adapters/embedded/memory-document-store.js';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { inlinePdfMaker } from '../../src/pdf/inline-pdf-maker.js';
import type { PdfCall } from '../../src/pdf/pdf-thread-protocol.js';
import { type ThreadedPdfMaker, threadedPdfMaker } from '../../src/pdf/threaded-pdf-maker.js';
import { finishRequest } from '../support/finish-input.js';
import { canvasRows, encodePng, pngDataUrl } from '../support/png.js';
import { TEST_SEAL_CERT_PEM, TEST_SEAL_KEY_PEM } from '../support/seal-fixture.js';

/** The real PDF thread, telling on this channel each call the process hands it. */
const recording = new URL('../support/recording-pdf-thread.ts', import.meta.url);
const RECORDED_CHANNEL = 'recorded-pdf-calls';
const settings = { seal: { keyPem: TEST_SEAL_KEY_PEM, certPem: TEST_SEAL_CERT_PEM } };

const scratches: string[] = [];
const makers: ThreadedPdfMaker[] = [];
afterEach(async () => {
  await Promise.all(makers.splice(0).map((maker) => maker.close()));
});
afterAll(() => Promise.all(scratches.map((folder) => rm(folder, { recursive: true, force: true }))));

/** A file store in a folder of its own, inside a scratch folder that may hold other files. */
async function fileStore() {
  const scratch = await mkdtemp(join(tmpdir(), 'pdf-thread-files-'));
  scratches.push(scratch);
  const folder = join(scratch, 'documents');
  await mkdir(folder);
  return { scratch, folder, store: new FileDocumentStore(folder) };
}

function made(...args: Parameters<typeof threadedPdfMaker>): ThreadedPdfMaker {
  return makers[makers.push(threadedPdfMaker(...args)) - 1]!;
}

/** Resolves with the next call of `method` the thread receives, as it received it. */
function nextCall(method: PdfCall['method']): Promise<PdfCall> {
  const channel = new BroadcastChannel(RECORDED_CHANNEL);
  return new Promise<PdfCall>((resolve) => {
    channel.onmessage = (event) => {
      const call = (event as { data: PdfCall }).data;
      if (call.method === method) resolve(call);
    };
  }).finally(() => channel.close());
}

/** Whether `value` holds bytes anywhere: a buffer, or a view of one. */
function holdsBytes(value: unknown): boolean {
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return true;
  return typeof value === 'object' && value !== null && Object.values(value).some(holdsBytes);
}

describe('threadedPdfMaker over the file store', () => {
  it("finishes an envelope from the original's file, handed only its key, into the same sealed PDF as the process makes", async () => {
    const { folder, store } = await fileStore();
    const drawn = pngDataUrl(encodePng(canvasRows(300, 100), 300, 100));
    const request = await finishRequest(store, 'From its file', 2, {
      fields: [{ type: 'signature', page: 2, x: 72, y: 300, width: 220, height: 50, value: drawn }],
    });
    const maker = made(settings, store, { documentsFolder: folder, entry: recording });

    const handed = nextCall('finish');
    const finished = await maker.finish(request);
    const call = await handed;
    expect(call.documentsFolder).toBe(folder);
    expect(call.args).toEqual([request]);
    expect(holdsBytes(call)).toBe(false);

    const inProcessMaker = inlinePdfMaker(settings, nodeFontSource(), store);
    expect(finished).toEqual(await inProcessMaker.finish(request));
    expect(await maker.pageSizes(request.originalKey)).toEqual(await inProcessMaker.pageSizes(request.originalKey));
  });

  it('hands the thread the original itself when the store is not a file store', async () => {
    const documents = new MemoryDocumentStore();
    const request = await finishRequest(documents, 'From memory', 1);
    const { size } = (await documents.get(request.originalKey))!;
    const maker = made(settings, documents, { entry: recording });

    const handed = nextCall('finish');
    await maker.finish(request);
    const call = await handed;
    expect(call.documentsFolder).toBeUndefined();
    expect((call.args[0] as { original: Uint8Array }).original.byteLength).toBe(size);
  });

  it('refuses in the thread a key that is not a SHA-256, even where a PDF is at that name, as the store does', async () => {
    const { scratch, folder, store } = await fileStore();
    const pdf = await generateDocument('Not a stored document', 1, nodeFontSource());
    await writeFile(join(folder, 'not-a-key'), pdf);
    await writeFile(join(scratch, 'outside.pdf'), pdf);
    const request = await finishRequest(store, 'Refused', 1);
    const maker = made(settings, store, { documentsFolder: folder, entry: recording });

    const handed = nextCall('pageSizes');
    expect(await maker.pageSizes('not-a-key')).toBeNull();
    // The process passes the key on as it was given: the thread is the one that refuses it.
    expect((await handed).args).toEqual(['not-a-key']);
    expect(await maker.pageSizes('../outside.pdf')).toBeNull();
    expect(await maker.pageSizes(request.originalKey.toUpperCase())).toBeNull();
    await expect(maker.finish({ ...request, originalKey: '../outside.pdf' })).rejects.toThrow(
      "The envelope's original document (../outside.pdf) is not in the document store.",
    );
  });

  it('answers a document that is not in the folder as the process does: no page sizes, and no finished copy', async () => {
    const { folder, store } = await fileStore();
    const absent = 'a'.repeat(64);
    const request = await finishRequest(store, 'Gone', 1, { originalKey: absent });
    const maker = made(settings, store, { documentsFolder: folder });
    const inProcess = await inlinePdfMaker(settings, nodeFontSource(), store)
      .finish(request)
      .then(
        () => null,
        (err: Error) => err,
      );
    expect(inProcess?.message).toBe(`The envelope's original document (${absent}) is not in the document store.`);
    expect(await maker.pageSizes(absent)).toBeNull();
    await expect(maker.finish(request)).rejects.toThrow(inProcess!.message);
  });

  it("makes a filled copy from the original's file, handed only its key, or from the bytes handed it, as the process makes it", async () => {
    const fields = [{ type: 'text' as const, page: 1, x: 72, y: 300, width: 220, height: 24, value: 'Acme Ltd' }];
    const { folder, store } = await fileStore();
    const { originalKey, originalSha256 } = await finishRequest(store, 'Filled from its file', 1);
    const fromFile = made(settings, store, { documentsFolder: folder, entry: recording });
    const handed = nextCall('filledCopy');
    const update = await fromFile.filledCopy({ originalKey, originalSha256, fields });
    const call = await handed;
    expect(call.args).toEqual([{ originalKey, originalSha256, fields }]);
    expect(holdsBytes(call)).toBe(false);
    expect(update).toEqual(await inlinePdfMaker(settings, nodeFontSource(), store).filledCopy({ originalKey, originalSha256, fields }));

    const documents = new MemoryDocumentStore();
    const inMemory = await finishRequest(documents, 'Filled from memory', 1);
    const fromMemory = made(settings, documents, { entry: recording });
    const handedBytes = nextCall('filledCopy');
    const request = { originalKey: inMemory.originalKey, originalSha256: inMemory.originalSha256, fields };
    expect(await fromMemory.filledCopy(request)).toEqual(await inlinePdfMaker(settings, nodeFontSource(), documents).filledCopy(request));
    expect((await handedBytes).args[0]).toHaveProperty('original');
  });

  // The process loads neither pdf-lib nor a font: what needs them is asked of the thread.
  it("checks typed signatures and generates a seed's document in the thread, as the process would", async () => {
    const { folder, store } = await fileStore();
    const maker = made(settings, store, { documentsFolder: folder, entry: recording });
    const signatures = [
      { text: 'Ada Lovelace', width: 180, height: 40 },
      { text: 'A'.repeat(60), width: 180, height: 40 },
      { text: '山田太郎', width: 20, height: 40 },
    ];

    const fitCall = nextCall('typedSignaturesFit');
    const fits = await maker.typedSignaturesFit(signatures);
    expect((await fitCall).args).toEqual([signatures]);
    expect(fits).toEqual(await inlinePdfMaker(settings, nodeFontSource(), store).typedSignaturesFit(signatures));
    expect(fits).toEqual([true, false, false]);

    const generateCall = nextCall('generateDocument');
    const generated = await maker.generateDocument('Offer Letter', 2);
    expect((await generateCall).args).toEqual(['Offer Letter', 2]);
    expect(generated).toEqual(await generateDocument('Offer Letter', 2, nodeFontSource()));
  });
});
