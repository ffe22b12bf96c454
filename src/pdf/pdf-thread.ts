/**
 * The PDF thread of the Node process: the same PDF work as in a Worker, off the process's event
 * loop, on originals it reads from their files (or is handed by the process); and the other work
 * that needs pdf-lib or the fonts (typed signatures' fit, a seed's generated documents), so that
 * the process, like the API Worker, never loads them. One font source for the thread's life, as the
 * PDF Worker has: each file is read and parsed once.
 */
import { nodeFontSource } from './fonts/node-font-source.js';
import { generateDocument } from './generate-document.js';
import { inlinePdfWork } from './inline-pdf-maker.js';
import { sameSettings, servePdfWork } from './pdf-thread-protocol.js';
import { typedSignatureFitter } from './typed-signature-fit.js';

const settingsOf = sameSettings();
const fonts = nodeFontSource();
const typedSignaturesFit = typedSignatureFitter(fonts);
servePdfWork((settings) => ({
  ...inlinePdfWork(settingsOf(settings), fonts),
  typedSignaturesFit,
  generateDocument: (title, pages) => generateDocument(title, pages, fonts),
}));
