/** The PDF thread of the Node process: the same PDF work as in a Worker, off the process's event loop, on originals it reads from their files (or is handed by the process). */
import { nodeFontSource } from './fonts/node-font-source.js';
import { inlinePdfWork } from './inline-pdf-maker.js';
import { sameSettings, servePdfWork } from './pdf-thread-protocol.js';

const settingsOf = sameSettings();
servePdfWork((settings) => inlinePdfWork(settingsOf(settings), nodeFontSource()));
