/**
 * A request body's size limit that never holds the body. A body that tells its length
 * (Content-Length) is judged by it before anything is read, by Hono's bodyLimit. One that does not
 * (chunked transfer) bodyLimit would read whole into memory before the handler runs: a 25 MiB
 * template import held whole although its form is read as it arrives (streamed-form.ts). Such a
 * body is counted instead as the handler reads it; past the limit its read fails, and the request
 * is answered with `refusal`'s 413 whatever the handler made of the failed read (a form cut short,
 * JSON that did not parse), as though refused before it began.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

export function streamedBodyLimit(maxSize: number, refusal: () => Error): MiddlewareHandler {
  const declared = bodyLimit({ maxSize, onError: () => Promise.reject(refusal()) });
  return async (c, next) => {
    const request = c.req.raw;
    // A Content-Length alongside a Transfer-Encoding does not tell the length: such a body is counted.
    if (!request.body || (request.headers.has('content-length') && !request.headers.has('transfer-encoding'))) return declared(c, next);
    let size = 0;
    let passed = false;
    const counted = request.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          size += chunk.byteLength;
          if (size <= maxSize) return controller.enqueue(chunk);
          passed = true;
          controller.error(refusal());
        },
      }),
    );
    c.req.raw = new Request(request, { body: counted, duplex: 'half' } as RequestInit);
    await next();
    if (passed) await refuse(c, refusal());
  };
}

/**
 * Drops the handler's answer, so that the refusal carries none of its headers (Hono merges an
 * earlier answer's headers into the one that replaces it), and refuses the request.
 */
async function refuse(c: Context, err: Error): Promise<never> {
  await c.res.body?.cancel().catch(() => {});
  c.res = undefined;
  throw err;
}
