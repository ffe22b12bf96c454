/**
 * Postgres cannot hold a NUL character in text, nor a UTF-16 surrogate without its pair (it has
 * no UTF-8 form). Either one reaching a query is refused there as a data error, so input is
 * checked for both before it gets that far.
 */
const NUL = /\u0000/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const hasNul = (value: string) => NUL.test(value);
export const hasLoneSurrogate = (value: string) => LONE_SURROGATE.test(value);

/** True when Postgres can store `value` as text exactly as given. */
export const isStorableText = (value: string) => !hasNul(value) && !hasLoneSurrogate(value);
