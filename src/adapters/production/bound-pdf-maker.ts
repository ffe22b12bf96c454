import { DEFAULT_PDF_DEADLINE_MS, withinDeadline } from '../../lib/deadline.js';
import type { PdfMaker } from '../../ports/pdf-maker.js';

/**
 * The PDF Worker's entry point as the API Worker's `PDF` service binding gives it: each call is an
 * RPC to that Worker (documents by their key in the store, dates as they are), and its errors come back as errors.
 * Each call also has a deadline here: the platform ends a PDF Worker that spins at its CPU limit,
 * but the job waiting on it fails at the deadline whatever becomes of that Worker.
 */
export function boundPdfMaker(binding: unknown, options: { deadlineMs?: number } = {}): PdfMaker {
  const stub = binding as Partial<PdfMaker> | undefined;
  if (typeof stub?.pageSizes !== 'function' || typeof stub.finish !== 'function') {
    throw new Error(
      "The Worker's configuration is incomplete: the PDF service binding is missing (deploy wrangler.pdf.toml, and keep [[services]] in wrangler.toml).",
    );
  }
  const deadlineMs = options.deadlineMs ?? DEFAULT_PDF_DEADLINE_MS;
  return {
    pageSizes: (key) => withinDeadline(stub.pageSizes!(key), deadlineMs, 'The PDF Worker (pageSizes)'),
    finish: (request) => withinDeadline(stub.finish!(request), deadlineMs, 'The PDF Worker (finish)'),
    typedSignaturesFit: (signatures) => withinDeadline(stub.typedSignaturesFit!(signatures), deadlineMs, 'The PDF Worker (typedSignaturesFit)'),
    filledCopy: (request) => withinDeadline(stub.filledCopy!(request), deadlineMs, 'The PDF Worker (filledCopy)'),
  };
}
