const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A malformed id can never name a row; callers answer it with the resource's not-found code. */
export const isUuid = (value: string) => UUID.test(value);
