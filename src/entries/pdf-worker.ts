/**
 * The PDF Worker (wrangler.pdf.toml): the service's PDF work, apart from the API Worker so that
 * pdf-lib, its fonts and the CMS code (most of the code by size) are not loaded with every API
 * isolate, and so that the seal's private key is a secret of this Worker alone. It has no public
 * address; the API Worker calls its `PdfMaker` entry point through the `PDF` service binding.
 *
 * Its configuration is read at start-up, so a missing or malformed seal stops it, named.
 */
import { env, WorkerEntrypoint } from 'cloudflare:workers';
import { localPdfMaker } from '../pdf/local-pdf-maker.js';
import type { FinishRequest, PdfMaker as PdfMakerPort } from '../ports/pdf-maker.js';
import { readPdfWorkerConfig } from './pdf-worker-config.js';

const config = readPdfWorkerConfig(env);
const maker = localPdfMaker({ seal: { keyPem: config.SEAL_KEY_PEM, certPem: config.SEAL_CERT_PEM }, timestampUrl: config.TSA_URL });

/** The methods the API Worker calls (src/adapters/production/bound-pdf-maker.ts). */
export class PdfMaker extends WorkerEntrypoint implements PdfMakerPort {
  pageSizes(bytes: Uint8Array) {
    return maker.pageSizes(bytes);
  }

  finish(request: FinishRequest) {
    return maker.finish(request);
  }
}

export default {
  /** Nothing is served over HTTP: the entry point above is reached only through the binding. */
  fetch: () => new Response('Not found', { status: 404 }),
};
