/**
 * A form (multipart/form-data, or URL-encoded) read as its body arrives, for a form that carries a
 * large file. Hono's form validator reads the whole body into memory before the handler runs; here
 * the file part is handed on as a stream while the parser waits for it to be read (backpressure),
 * so the request holds a chunk of it at a time. The other parts named are read into memory up to
 * their limits; parts of other names are read past and dropped, as a zod object drops unknown keys.
 *
 * Parts are answered as FormData answers them, so that the same zod rules judge them: a field as
 * its text, a part sent as a file as a TextFile (read) or a StreamedFile (handed on), a name given
 * twice as the list of its parts. A body that is not a form, or not a whole one, answers as
 * zod-openapi's gate and Hono's validator do: 415, or 400 (src/http/error-handler.ts words both).
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Busboy, type BusboyInstance } from '@fastify/busboy';
import { HTTPException } from 'hono/http-exception';
import { chunksOf } from '../lib/byte-stream.js';

/** A text part sent as a file (`-F template=@template.json`): `text` is its first `limit` bytes, `size` all of it. */
export class TextFile {
  constructor(
    readonly fileName: string,
    readonly text: string,
    readonly size: number,
  ) {}
}

/** The file part, handed to `onFile` as it arrived. */
export class StreamedFile {
  constructor(readonly fileName: string) {}
}

export type FormPart = string | TextFile | StreamedFile;
export type StreamedForm = Record<string, FormPart | FormPart[]>;

export type FormReading = {
  /**
   * The parts read into memory, each with the most bytes kept of it. A field past its limit is
   * answered cut one byte past it, so that a rule on its length refuses it.
   */
  text: Record<string, number>;
  /** The name of the part streamed to `onFile`. */
  file: string;
  /**
   * Reads the file part; the body is read on as `bytes` is. It should not reject: a refusal is the
   * caller's to hold and tell once the form is judged whole. Called for the first such part only: a
   * second one is read past, unkept (the form is refused for holding two). Whatever it leaves of
   * `bytes` unread is read past.
   */
  onFile: (file: { fileName: string; bytes: ReadableStream<Uint8Array> }) => Promise<void>;
};

// The content types zod-openapi's gate lets through to a form body (its own patterns).
const MULTIPART = /^multipart\/form-data(;\s?boundary=[a-zA-Z0-9'"()+_,\-./:=?]+)?$/i;
const URLENCODED = /^application\/x-www-form-urlencoded(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;

export async function readStreamedForm(request: Request, reading: FormReading): Promise<StreamedForm> {
  const form: StreamedForm = Object.create(null);
  const contentType = request.headers.get('content-type');
  if (contentType === null) {
    // Without a type only an empty body passes, as an empty form (refused for its missing parts).
    if (await hasBytes(request.body)) throw unsupportedType();
    return form;
  }
  if (!MULTIPART.test(contentType) && !URLENCODED.test(contentType)) throw unsupportedType();

  const isText = (name: string) => Object.hasOwn(reading.text, name);
  const add = (name: string, part: FormPart) => {
    const held = form[name];
    form[name] = held === undefined ? part : [...(Array.isArray(held) ? held : [held]), part];
  };
  let parser: BusboyInstance;
  try {
    parser = Busboy({
      headers: { 'content-type': contentType },
      // A part is a file when it has a file name, even an empty one, as FormData has it; the name
      // is kept as sent, a path included.
      isPartAFile: (_name, _type, fileName) => fileName !== undefined,
      preservePath: true,
      limits: { fieldSize: Math.max(0, ...Object.values(reading.text)) + 1 },
    });
  } catch (err) {
    throw malformed(err);
  }

  const reads: Promise<void>[] = [];
  let handedOn = false;
  parser.on('field', (name, value) => {
    if (isText(name) || name === reading.file) add(name, withoutBom(value));
  });
  parser.on('file', (name, part, filename) => {
    const fileName = unescapeName(filename);
    // The body's own error says what went wrong with it; a part's copy of it is not news.
    part.on('error', () => {});
    if (isText(name)) {
      reads.push(readText(part, reading.text[name]!).then(({ text, size }) => add(name, new TextFile(fileName, text, size))));
    } else if (name === reading.file) {
      add(name, new StreamedFile(fileName));
      if (handedOn) part.resume();
      else {
        handedOn = true;
        reads.push(handOn(part, fileName, reading.onFile));
      }
    } else part.resume();
  });

  try {
    await pipeline(Readable.from(buffersOf(request.body), { objectMode: false }), parser);
  } catch (err) {
    // What was handed on has seen the error and given up before the form is refused.
    await Promise.allSettled(reads);
    throw malformed(err);
  }
  await Promise.all(reads);
  return form;
}

/** The body's chunks as the Buffers the parser reads. */
async function* buffersOf(body: ReadableStream<Uint8Array> | null) {
  if (!body) return;
  for await (const chunk of chunksOf(body)) yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

async function hasBytes(body: ReadableStream<Uint8Array> | null): Promise<boolean> {
  if (!body) return false;
  for await (const chunk of chunksOf(body)) if (chunk.byteLength > 0) return true;
  return false;
}

/** A part read as UTF-8, as `File.text()` reads it: a byte-order mark dropped, bytes that are not UTF-8 as U+FFFD. */
async function readText(part: Readable, limit: number): Promise<{ text: string; size: number }> {
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for await (const chunk of part as AsyncIterable<Buffer>) {
    if (size < limit) text += decoder.decode(chunk.subarray(0, limit - size), { stream: true });
    size += chunk.byteLength;
  }
  return { text: text + decoder.decode(), size };
}

async function handOn(part: Readable, fileName: string, onFile: FormReading['onFile']): Promise<void> {
  const { bytes, release } = streamOfPart(part);
  try {
    await onFile({ fileName, bytes });
  } finally {
    release();
  }
}

/**
 * The part as a web stream that asks the part for more only as it is read. Cancelling it, or
 * releasing it, lets the rest of the part flow past unkept: destroying the part instead would
 * leave the parser waiting for it forever.
 */
function streamOfPart(part: Readable): { bytes: ReadableStream<Uint8Array>; release: () => void } {
  // Released once the reader is done with it, or the stream has ended: a part may still say
  // 'end' after its 'error', and a stream takes one ending.
  let released = false;
  const release = () => {
    released = true;
    part.resume();
  };
  // Paused before its first listener, so that the part flows only when the stream is pulled.
  part.pause();
  const bytes = new ReadableStream<Uint8Array>({
    start(controller) {
      part.on('data', (chunk: Buffer) => {
        if (released) return;
        // A plain view: a Buffer's slice() does not copy, and a store copies what it keeps with slice().
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) part.pause();
      });
      part.on('end', () => {
        if (released) return;
        release();
        controller.close();
      });
      part.on('error', (err) => {
        if (released) return;
        release();
        controller.error(err);
      });
    },
    pull() {
      part.resume();
    },
    cancel: release,
  });
  return { bytes, release };
}

/** FormData drops a leading byte-order mark from a field's UTF-8, as `curl -F 'template=<file.json'` may send one. */
const withoutBom = (value: string) => (value.startsWith('\ufeff') ? value.slice(1) : value);

/** Browsers escape `"`, CR and LF in a file name (the HTML standard's form encoding); FormData reads them back. */
const unescapeName = (name: string) => name.replaceAll('%22', '"').replaceAll(/%0d/gi, '\r').replaceAll(/%0a/gi, '\n');

const unsupportedType = () => new HTTPException(415, { message: 'Unsupported Media Type' });

const malformed = (err: unknown) =>
  new HTTPException(400, { message: `Malformed FormData request. ${err instanceof Error ? err.message : String(err)}`, cause: err });
