/**
 * The PDF thread of `npm start`, telling each call it receives from the process on the
 * `recorded-pdf-calls` channel, as it arrived: a test sees what the process handed the thread.
 */
import { BroadcastChannel, parentPort } from 'node:worker_threads';

const channel = new BroadcastChannel('recorded-pdf-calls');
parentPort!.on('message', (call: unknown) => channel.postMessage(call));
await import('../../src/pdf/pdf-thread.js');
