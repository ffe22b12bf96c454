/**
 * The finished file whole, for the suites that read it back: finishDocument answers what follows
 * the original, which the service streams after the original; here the two are simply joined.
 */
import { type FinishInput, type FinishedUpdates, finishDocument } from '../../src/pdf/finish-document.js';

export type FinishedFile = FinishedUpdates & { bytes: Uint8Array };

export async function finishFile(input: FinishInput & { original: Uint8Array }): Promise<FinishedFile> {
  const made = await finishDocument(input);
  const bytes = new Uint8Array(input.original.length + made.appended.length);
  bytes.set(input.original);
  bytes.set(made.appended, input.original.length);
  return { ...made, bytes };
}

/** Where each revision of `bytes` ends: just after each `%%EOF`. */
export function revisionEnds(bytes: Uint8Array): number[] {
  const text = Buffer.from(bytes).toString('latin1');
  const ends: number[] = [];
  for (let at = text.indexOf('%%EOF'); at >= 0; at = text.indexOf('%%EOF', at + 1)) ends.push(at + '%%EOF'.length);
  return ends;
}
