/**
 * The values of the kinds that have a shape of their own, as a signer's form posts them: a date
 * (ISO 8601, as <input type="date"> sends it), a number (within the field's bounds), one of a
 * dropdown's or radio group's options. What is kept is what was checked: the date as ISO 8601,
 * the number as typed, the option as the template states it.
 */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A decimal number as a person or a number input writes it; no hex, no Infinity, no thousands separators. */
const DECIMAL = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
/** Longer than any number a person means to type; the limit keeps what is stored and drawn short. */
const MAX_NUMBER_CHARS = 40;

type Outcome = { value: string } | { problem: 'number_invalid' } | { problem: 'number_below'; min: number } | { problem: 'number_above'; max: number };

/** The date if it is one that exists (no 31 February), else null. */
export function dateValue(value: string): { value: string } | null {
  const parts = ISO_DATE.exec(value);
  if (!parts) return null;
  const [year, month, day] = parts.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  const exists = year >= 1 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return exists ? { value } : null;
}

/** The number as typed, if it is one and within the field's bounds. */
export function numberValue(value: string, bounds: { min?: number; max?: number }): Outcome {
  if (value.length > MAX_NUMBER_CHARS || !DECIMAL.test(value)) return { problem: 'number_invalid' };
  const number = Number(value);
  if (!Number.isFinite(number)) return { problem: 'number_invalid' };
  if (bounds.min !== undefined && number < bounds.min) return { problem: 'number_below', min: bounds.min };
  if (bounds.max !== undefined && number > bounds.max) return { problem: 'number_above', max: bounds.max };
  return { value };
}

/** The option chosen, exactly as the template states it, or null for a value that is none of them. */
export function chosenValue(raw: string, options: string[]): { value: string } | null {
  const chosen = options.find((option) => option === raw) ?? options.find((option) => option.trim() === raw.trim());
  return chosen === undefined ? null : { value: chosen };
}
