import type { DocumentStore } from '../ports/document-store.js';

/**
 * A stored document's bytes, read whole, for the work that cannot take it in windows (pdf-lib
 * opening a PDF); null when there is no such document.
 */
export async function readWholeDocument(documents: DocumentStore, key: string): Promise<Uint8Array | null> {
  const document = await documents.get(key);
  if (!document) return null;
  const bytes = new Uint8Array(document.size);
  let at = 0;
  for await (const chunk of document.body as unknown as AsyncIterable<Uint8Array>) {
    if (at + chunk.byteLength > bytes.byteLength) throw new Error(`The stored document ${key} is longer than its size.`);
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  if (at !== bytes.byteLength) throw new Error(`The stored document ${key} is shorter than its size.`);
  return bytes;
}
