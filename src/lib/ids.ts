import { sha256Hex } from './crypto.js';
import { isStorableText } from './storable-text.js';

/*
 * A malformed id can never name a row, so callers answer it with the resource's not-found code
 * before any query: the database never sees it, and a caller cannot tell it from an unknown id.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Envelopes and recipients are made as their prefix plus 22 base62 characters. */
const ENVELOPE_ID = /^env_[0-9A-Za-z]{22}$/;
const RECIPIENT_ID = /^rcp_[0-9A-Za-z]{22}$/;

export const isUuid = (value: string) => UUID.test(value);
export const isEnvelopeId = (value: string) => ENVELOPE_ID.test(value);
export const isRecipientId = (value: string) => RECIPIENT_ID.test(value);

/**
 * Generated API key ids are `key_` plus 20 base62 characters, but a seed may bring ids of its own
 * choosing, so any short text the database can hold passes.
 */
export const isApiKeyId = (value: string) => value.length >= 1 && value.length <= 200 && isStorableText(value);

/** A UUID that is the same for the same name: for rows a repeated queue delivery must not double. */
export async function uuidFromName(name: string): Promise<string> {
  const hex = await sha256Hex(name);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
