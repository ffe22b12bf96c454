import type { PdfMaker } from '../../ports/pdf-maker.js';

/**
 * The PDF Worker's entry point as the API Worker's `PDF` service binding gives it: each call is an
 * RPC to that Worker (bytes and dates travel as they are), and its errors come back as errors.
 */
export function boundPdfMaker(binding: unknown): PdfMaker {
  const stub = binding as Partial<PdfMaker> | undefined;
  if (typeof stub?.pageSizes !== 'function' || typeof stub.finish !== 'function') {
    throw new Error("The Worker's configuration is incomplete: the PDF service binding is missing (deploy wrangler.pdf.toml, and keep [[services]] in wrangler.toml).");
  }
  return { pageSizes: (bytes) => stub.pageSizes!(bytes), finish: (request) => stub.finish!(request) };
}
