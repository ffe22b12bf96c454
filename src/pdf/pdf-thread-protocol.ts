/**
 * The messages between the process and its PDF thread (threaded-pdf-maker.ts): one call at a time,
 * by id, with the seal settings of that call; errors come back as their name and message.
 */
import { parentPort } from 'node:worker_threads';
import type { SealSettings } from './inline-pdf-maker.js';
import type { PdfWork } from './stored-pdf-maker.js';

export type PdfCall = { id: number; method: keyof PdfWork; args: unknown[]; settings: SealSettings };
export type PdfAnswer = { ready: true } | { id: number; result: unknown } | { id: number; error: { name: string; message: string } };

/** Answers the process's calls in this thread with the maker made for each call's settings. */
export function servePdfWork(makerFor: (settings: SealSettings) => PdfWork): void {
  const port = parentPort;
  if (!port) throw new Error('The PDF work is served in a worker thread only.');
  port.on('message', async ({ id, method, args, settings }: PdfCall) => {
    try {
      const result: unknown = await (makerFor(settings)[method] as (...given: unknown[]) => Promise<unknown>)(...args);
      // What the work appended goes back moved, not copied.
      const appended = (result as { appended?: unknown } | null)?.appended;
      port.postMessage({ id, result } satisfies PdfAnswer, appended instanceof Uint8Array ? [appended.buffer as ArrayBuffer] : []);
    } catch (err) {
      const { name, message } = err instanceof Error ? err : { name: 'Error', message: String(err) };
      port.postMessage({ id, error: { name, message } } satisfies PdfAnswer);
    }
  });
  port.postMessage({ ready: true } satisfies PdfAnswer);
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
