/**
 * An open file, or a range of it, as a byte stream read as its reader asks: one read of the file
 * per chunk asked for, and none before. A reader that brings its own buffer (a BYOB reader: the
 * webhook's body, which reads a document twice per attempt) has the file read into it, so that
 * reusing one buffer it leaves nothing behind; any other reader gets a new buffer per chunk, the
 * one copy of those bytes.
 *
 * Every buffer handed out stays counted in the isolate's memory until V8's next collection, which
 * the buffers alone do not bring on before tens of MB of them: a document served whole adds its
 * size to the isolate's peak. Readable.toWeb(file.createReadStream()) copied each chunk once more
 * (twice the size), and handed out no buffer a reader could reuse.
 *
 * The file is closed once its last byte asked for is read, when the reader cancels, and when a
 * read fails.
 */
import type { FileHandle } from 'node:fs/promises';
import type { ByteRange } from '../../ports/document-store.js';

/** What one read of the file asks for at most (the chunk a reader without a buffer of its own gets). */
export const FILE_READ_CHUNK_BYTES = 64 * 1024;

/**
 * Closes the stream, and answers the reads waiting on it (a reader may ask again before its last
 * read is answered): a byte stream answers a waiting read only when its source responds, even once closed.
 */
function ended(controller: ReadableByteStreamController) {
  controller.close();
  controller.byobRequest?.respond(0);
}

export function fileReadStream(file: FileHandle, range: ByteRange): ReadableStream<Uint8Array> {
  const end = range.offset + range.length;
  let position = range.offset;
  let closing: Promise<void> | undefined;
  let cancelled = false;
  // Once only, whichever comes first: the last read, a cancel, a failed read. A file that will not
  // close has still served its bytes; there is nothing a reader could do about it.
  const close = () => (closing ??= file.close().catch(() => {}));
  return new ReadableStream({
    type: 'bytes',
    // A small range gets a buffer of its own size, not a whole chunk's.
    autoAllocateChunkSize: Math.max(1, Math.min(FILE_READ_CHUNK_BYTES, range.length)),
    start(controller) {
      if (position < end) return;
      ended(controller);
      return close();
    },
    async pull(controller) {
      // A byte stream with no queue pulls only for a read waiting with its buffer.
      const request = controller.byobRequest;
      if (!request?.view) return;
      const view = request.view;
      const into = new Uint8Array(view.buffer, view.byteOffset, Math.min(view.byteLength, FILE_READ_CHUNK_BYTES, end - position));
      let bytesRead: number;
      try {
        ({ bytesRead } = await file.read(into, 0, into.byteLength, position));
      } catch (err) {
        await close();
        throw err;
      }
      if (bytesRead === 0 && !cancelled) {
        await close();
        throw new Error(`The file ended at byte ${position}, before the ${end} bytes it had when opened.`);
      }
      position += bytesRead;
      const last = position >= end;
      if (last) await close();
      // Cancelled meanwhile: the read's buffer is no longer anyone's.
      if (cancelled) return;
      request.respond(bytesRead);
      if (last) ended(controller);
    },
    cancel() {
      cancelled = true;
      return close();
    },
  });
}
