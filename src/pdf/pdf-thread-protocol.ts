/**
 * The messages between the process and its PDF thread (threaded-pdf-maker.ts): one call at a time,
 * by id, with the seal settings of that call; errors come back as their name and message.
 */
import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { documentFilePath } from '../adapters/embedded/document-file-path.js';
import type { TypedSignature } from '../ports/pdf-maker.js';
import type { SealSettings } from './inline-pdf-maker.js';
import { type PdfWork, readingWhole } from './stored-pdf-maker.js';

/**
 * Everything the thread does for the process, all of it with pdf-lib and the fonts, which the
 * process itself then never loads: the PDF work, the check of typed signatures, and the documents
 * a seed file asks to be generated.
 */
export type ThreadWork = PdfWork & {
  typedSignaturesFit(signatures: TypedSignature[]): Promise<boolean[]>;
  generateDocument(title: string, pages: number): Promise<Uint8Array>;
};

/**
 * A call of the work. Without `documentsFolder`, its arguments are PdfWork's: the PDF's bytes,
 * moved with the call. With it, they are PdfWorkByKey's: the PDF is named by its key in the file
 * store's folder, and the thread reads the file itself, so the process never holds it whole.
 */
export type PdfCall = { id: number; method: keyof ThreadWork; args: unknown[]; settings: SealSettings; documentsFolder?: string };
export type PdfAnswer = { ready: true } | { id: number; result: unknown } | { id: number; error: { name: string; message: string } };

/** Answers the process's calls in this thread with the maker made for each call's settings. */
export function servePdfWork(makerFor: (settings: SealSettings) => ThreadWork): void {
  const port = parentPort;
  if (!port) throw new Error('The PDF work is served in a worker thread only.');
  port.on('message', async ({ id, method, args, settings, documentsFolder }: PdfCall) => {
    try {
      const maker = makerFor(settings);
      const work = documentsFolder === undefined ? maker : { ...maker, ...readingWhole((key) => readDocumentFile(documentsFolder, key), maker) };
      const result: unknown = await (work[method] as (...given: unknown[]) => Promise<unknown>)(...args);
      // A PDF made here (what a finish appended, a generated document) goes back moved, not copied.
      const bytes = result instanceof Uint8Array ? result : (result as { appended?: unknown } | null)?.appended;
      port.postMessage({ id, result } satisfies PdfAnswer, bytes instanceof Uint8Array && ownsItsBuffer(bytes) ? [bytes.buffer as ArrayBuffer] : []);
    } catch (err) {
      const { name, message } = err instanceof Error ? err : { name: 'Error', message: String(err) };
      port.postMessage({ id, error: { name, message } } satisfies PdfAnswer);
    }
  });
  port.postMessage({ ready: true } satisfies PdfAnswer);
}

/** Whether `bytes` is the whole of its buffer: moving a view of a shared one would take the rest away too. */
const ownsItsBuffer = (bytes: Uint8Array) => bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;

/**
 * A document of the file store, read whole in this thread; null when there is none. The key is
 * checked here as the store checks it: the process passes on whatever key it was given, and a key
 * that is not a SHA-256 names no document, never a path.
 */
async function readDocumentFile(folder: string, key: string): Promise<Uint8Array | null> {
  const path = documentFilePath(folder, key);
  if (!path) return null;
  const bytes = await readFile(path).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  return bytes && new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * The same settings object for the same seal, call after call: the seal's identity is loaded once
 * per object, and each call's settings arrive as a new copy.
 */
export function sameSettings(): (settings: SealSettings) => SealSettings {
  let last: { key: string; settings: SealSettings } | undefined;
  return (settings) => {
    const key = JSON.stringify([settings.seal?.keyPem, settings.seal?.certPem, settings.timestampUrl]);
    if (last?.key !== key) last = { key, settings };
    return last.settings;
  };
}
