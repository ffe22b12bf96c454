/**
 * How large a document the service takes. A template's PDF of up to 25 MiB is finished within the
 * memory of one isolate (docs/admin.md); a larger one is refused at upload, where the uploader can
 * still do something about it, rather than failing at the end of a signing.
 */
export const MAX_TEMPLATE_DOCUMENT_BYTES = 25 * 1024 * 1024;

/**
 * The finished PDF: the original, then the drawn values, the certificate pages and the seal as
 * incremental updates. Drawn signatures and a long trail add a few MiB at most; the margin is wide
 * so that only a runaway write is stopped.
 */
export const MAX_FINISHED_DOCUMENT_BYTES = MAX_TEMPLATE_DOCUMENT_BYTES + 16 * 1024 * 1024;
