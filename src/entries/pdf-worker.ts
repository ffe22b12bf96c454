/**
 * The PDF Worker (wrangler.pdf.toml): the service's PDF work, apart from the API Worker so that
 * pdf-lib, fontkit and the CMS code (most of the code by size) are not loaded with every API
 * isolate, and so that the seal's private key is a secret of this Worker alone. It has no public
 * address; the API Worker calls its `PdfMaker` entry point through the `PDF` service binding.
 *
 * Its configuration is read at start-up, so a missing or malformed seal stops it, named.
 */
import { env, WorkerEntrypoint } from 'cloudflare:workers';
import { R2DocumentStore } from '../adapters/production/r2-document-store.js';
import { type AssetFetcher, assetFontSource, urlFetcher } from '../pdf/fonts/asset-font-source.js';
import { inlinePdfMaker } from '../pdf/inline-pdf-maker.js';
import type { FilledCopyRequest, FinishRequest, PdfMaker as PdfMakerPort, TypedSignature } from '../ports/pdf-maker.js';
import { documentsBucket } from './documents-binding.js';
import { readPdfWorkerConfig } from './pdf-worker-config.js';

const config = readPdfWorkerConfig(env);
const fonts = assetFontSource(fontFiles(env));
// The same bucket as the API Worker's: it names documents by key, and this Worker reads and writes them.
const documents = new R2DocumentStore(documentsBucket(env, 'The PDF Worker'));
const maker = inlinePdfMaker({ seal: { keyPem: config.SEAL_KEY_PEM, certPem: config.SEAL_CERT_PEM }, timestampUrl: config.TSA_URL }, fonts, documents);

/** The methods the API Worker calls (src/adapters/production/bound-pdf-maker.ts). */
export class PdfMaker extends WorkerEntrypoint implements PdfMakerPort {
  pageSizes(key: string) {
    return maker.pageSizes(key);
  }

  finish(request: FinishRequest) {
    return maker.finish(request);
  }

  typedSignaturesFit(signatures: TypedSignature[]) {
    return maker.typedSignaturesFit(signatures);
  }

  /** Only the update crosses the binding: the API Worker streams the original from the bucket itself. */
  filledCopy(request: FilledCopyRequest) {
    return maker.filledCopy(request);
  }
}

/**
 * The font files: static assets of this Worker (wrangler.pdf.toml), outside its code bundle; under
 * `npm run dev`, served on loopback at FONTS_URL (see scripts/dev.ts).
 */
function fontFiles(env: Record<string, unknown>): AssetFetcher {
  if (env.FONTS) return env.FONTS as AssetFetcher;
  if (typeof env.FONTS_URL === 'string' && URL.canParse(env.FONTS_URL)) return urlFetcher(env.FONTS_URL);
  throw new Error("The PDF Worker has no FONTS binding: wrangler.pdf.toml's [assets] gives it the fonts of finished PDFs.");
}

export default {
  /** Nothing is served over HTTP: the entry point above is reached only through the binding. */
  fetch: () => new Response('Not found', { status: 404 }),
};
