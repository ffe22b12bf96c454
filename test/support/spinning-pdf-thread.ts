/**
 * A PDF thread whose finish (and filled copy) never returns, as pdf-lib's decoder did on a hostile PNG: it says on
 * the `spinning-pdf-thread` channel that it has started, then spins. Its page sizes answer at once,
 * naming the thread, so a test can tell a fresh thread from the one that spun.
 */
import { BroadcastChannel, threadId } from 'node:worker_threads';
import { servePdfWork } from '../../src/pdf/pdf-thread-protocol.js';

/** Says it started, then never returns. */
async function spin(): Promise<never> {
  const channel = new BroadcastChannel('spinning-pdf-thread');
  channel.postMessage(threadId);
  channel.close();
  for (;;);
}

servePdfWork(() => ({
  pageSizes: async () => [{ width: threadId, height: 1 }],
  finish: spin,
  filledCopy: spin,
  typedSignaturesFit: async (signatures) => signatures.map(() => true),
  generateDocument: async () => {
    throw new Error('This thread generates no document.');
  },
}));
