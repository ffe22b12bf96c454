import { Unzlib } from 'fflate';

/**
 * Compressed bytes given to the inflater at a time: deflate expands a byte to at most about a
 * thousand, so no step makes much more than a megabyte before its output is counted.
 */
const STEP = 1024;

class PastLimit extends Error {}

/**
 * How many bytes a zlib stream, given in parts, inflates to, counted without keeping them. Null
 * when it is not one complete zlib stream, and as soon as the output passes `limit`: no part after
 * that one is read, so a small file that inflates to gigabytes costs no more than the limit.
 */
export function inflatedLengthWithin(parts: Iterable<Uint8Array>, limit: number): number | null {
  let length = 0;
  const inflater = new Unzlib((output) => {
    length += output.length;
    if (length > limit) throw new PastLimit();
  });
  try {
    for (const part of parts) {
      for (let at = 0; at < part.length; at += STEP) inflater.push(part.subarray(at, at + STEP));
    }
    inflater.push(new Uint8Array(0), true);
  } catch {
    return null;
  }
  return length;
}
