// The first module of the PDF thread (threaded-pdf-maker.ts). Plain JavaScript, so that Node can
// start it as it is; it registers tsx's loader, a dependency of the service, so that the thread
// loads the TypeScript sources the same way under `npm start`, under vitest and under plain node.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
