/**
 * The PDF work of the Node process, in a worker thread of its own and under a deadline. A promise
 * timeout cannot stop synchronous work that never returns (a decoder spinning on hostile input):
 * on the event loop it would freeze every route. In a thread, the process keeps answering, and a
 * call that passes its deadline fails and the thread is terminated; the next call starts a new one.
 * Calls run one at a time, so the deadline of one is never spent waiting on another.
 */
import { Worker } from 'node:worker_threads';
import { DEFAULT_PDF_DEADLINE_MS, DeadlineExceeded, withinDeadline } from '../lib/deadline.js';
import type { DocumentStore } from '../ports/document-store.js';
import type { PdfMaker } from '../ports/pdf-maker.js';
import type { SealSettings } from './inline-pdf-maker.js';
import type { PdfAnswer, PdfCall } from './pdf-thread-protocol.js';
import { type PdfWork, type PdfWorkByKey, pdfMakerWritingTo, storedPdfMaker } from './stored-pdf-maker.js';

/** Starting a thread (the TypeScript loader, then the PDF modules) is not the work, and is bounded apart. */
const STARTUP_LIMIT_MS = 60_000;

export type ThreadedPdfMaker = PdfMaker & {
  /** A generated document (generate-document.ts), made in the thread: what a seed file's `generate` asks for. */
  generateDocument(title: string, pages: number): Promise<Uint8Array>;
  close(): Promise<void>;
};

export type ThreadedPdfMakerOptions = {
  deadlineMs?: number;
  /** The module the thread serves the work with (pdf-thread.ts); a test may give one of its own. */
  entry?: URL;
  /**
   * The folder `documents` keeps its files in, when it is the file store (DATA_DIR/documents under
   * `npm start`): the thread then reads each original from its file, and the process never holds
   * one whole. Without it, the process reads the original and moves its bytes to the thread.
   */
  documentsFolder?: string;
};

/**
 * Reads the seal and the authority from `settings` at each call, as the in-process maker does.
 * The process writes the finished file to `documents` from the original, streamed again, and what
 * the thread hands back as appended (moved, not copied). The thread reads the original from its
 * file when given `documentsFolder`; otherwise (a store in the process's memory) it is handed the
 * bytes the process reads.
 */
export function threadedPdfMaker(settings: SealSettings, documents: DocumentStore, options: ThreadedPdfMakerOptions = {}): ThreadedPdfMaker {
  const deadlineMs = options.deadlineMs ?? DEFAULT_PDF_DEADLINE_MS;
  const entry = options.entry ?? new URL('./pdf-thread.ts', import.meta.url);
  let thread: PdfThread | undefined;
  let turns: Promise<unknown> = Promise.resolve();
  let closed = false;

  async function call(method: PdfCall['method'], args: unknown[], moved: ArrayBuffer[]): Promise<unknown> {
    if (closed) throw new Error('The PDF work has been closed with the server.');
    thread ??= new PdfThread(entry);
    const current = thread;
    try {
      await withinDeadline(current.ready, STARTUP_LIMIT_MS, 'Starting the PDF thread');
      const message = { method, args, settings: { seal: settings.seal, timestampUrl: settings.timestampUrl }, documentsFolder: options.documentsFolder };
      const work = current.call(message, moved);
      return await withinDeadline(work, deadlineMs, `The PDF work (${method})`);
    } catch (err) {
      // A thread past its deadline is still busy, and one that stopped answers nothing: start afresh.
      if (err instanceof DeadlineExceeded || current.stopped) {
        if (thread === current) thread = undefined;
        await current.stop();
      }
      throw err;
    }
  }

  function inTurn<T>(work: () => Promise<unknown>): Promise<T> {
    const turn = turns.then(work);
    turns = turn.catch(() => undefined);
    return turn as Promise<T>;
  }

  const maker = options.documentsFolder
    ? pdfMakerWritingTo(documents, {
        pageSizes: (key) => inTurn(() => call('pageSizes', [key], [])),
        finish: (request) => inTurn(() => call('finish', [request], [])),
        filledCopy: (request) => inTurn(() => call('filledCopy', [request], [])),
      } satisfies PdfWorkByKey)
    : storedPdfMaker(documents, {
        pageSizes: (bytes) => inTurn(() => call('pageSizes', [bytes], [bytes.buffer as ArrayBuffer])),
        // A store in the process's memory: the original is read here and its bytes moved to the thread.
        finish: (request) =>
          inTurn(async () => {
            const original = typeof request.original === 'function' ? await request.original() : request.original;
            return call('finish', [{ ...request, original }], [original.buffer as ArrayBuffer]);
          }),
        filledCopy: (request) =>
          inTurn(async () => {
            const original = typeof request.original === 'function' ? await request.original() : request.original;
            return call('filledCopy', [{ ...request, original }], [original.buffer as ArrayBuffer]);
          }),
      } satisfies PdfWork);
  return {
    ...maker,
    // In the thread too, where the fonts already are: the process holds no font, as the API Worker
    // holds none (it asks the PDF Worker). A signer's check may wait its turn behind a finish.
    typedSignaturesFit: (signatures) => inTurn(() => call('typedSignaturesFit', [signatures], [])),
    generateDocument: (title, pages) => inTurn(() => call('generateDocument', [title, pages], [])),
    async close() {
      closed = true;
      const current = thread;
      thread = undefined;
      await current?.stop();
    },
  };
}

type Pending = { resolve: (value: unknown) => void; reject: (err: Error) => void };

class PdfThread {
  readonly ready: Promise<void>;
  stopped = false;
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  constructor(entry: URL) {
    let started!: () => void;
    let failed!: (err: Error) => void;
    this.ready = new Promise<void>((resolve, reject) => {
      started = resolve;
      failed = reject;
    });
    // Awaited by the call that started the thread; a failure is told to it there.
    this.ready.catch(() => undefined);
    this.worker = new Worker(new URL('./pdf-thread-loader.mjs', import.meta.url), { workerData: { entry: entry.href } });
    // An idle thread does not keep the process alive; a call in progress has its deadline's timer.
    this.worker.unref();
    this.worker.on('message', (answer: PdfAnswer) => {
      if ('ready' in answer) return started();
      const pending = this.pending.get(answer.id);
      this.pending.delete(answer.id);
      if ('error' in answer) pending?.reject(Object.assign(new Error(answer.error.message), { name: answer.error.name }));
      else pending?.resolve(answer.result);
    });
    const fail = (err: Error) => {
      this.stopped = true;
      failed(err);
      for (const pending of this.pending.values()) pending.reject(err);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`The PDF thread stopped (exit code ${code}).`)));
  }

  /** `moved` goes to the thread with the call and is no longer usable here. */
  call(message: Omit<PdfCall, 'id'>, moved: ArrayBuffer[]): Promise<unknown> {
    if (this.stopped) return Promise.reject(new Error('The PDF thread has stopped.'));
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...message } satisfies PdfCall, moved);
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.worker.terminate();
  }
}
