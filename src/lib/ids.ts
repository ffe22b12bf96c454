import { sha256Hex } from './crypto.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A malformed id can never name a row; callers answer it with the resource's not-found code. */
export const isUuid = (value: string) => UUID.test(value);

/** A UUID that is the same for the same name: for rows a repeated queue delivery must not double. */
export async function uuidFromName(name: string): Promise<string> {
  const hex = await sha256Hex(name);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
