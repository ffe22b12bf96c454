/**
 * What each kind of field takes beyond its place, as a template states it: a number's optional
 * bounds, a dropdown's options (text), a radio group's options (each a value and its own box).
 * The definition's schema reads these keys on every field; the rules here say which kind may have
 * which, so a kind given settings it does not take, or missing those it needs, is refused by path.
 */
import { z } from 'zod';
import type { FieldSettings, FieldType, RadioOption } from '../../data/schema.js';
import { MAX_PAGE_POINTS } from './page-bounds.js';
import { requiredSingleLineText } from '../shared/text-fields.js';

export const MAX_OPTION_CHARS = 100;
export const DROPDOWN_OPTIONS = { min: 1, max: 50 } as const;
export const RADIO_OPTIONS = { min: 2, max: 20 } as const;
/** Bounds of a number field: what a double holds exactly as an integer keeps min/max comparable as typed. */
const boundary = z.number().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);

const point = z.number().int().min(0).max(MAX_PAGE_POINTS);
const RadioOptionSchema = z.strictObject({
  value: requiredSingleLineText(MAX_OPTION_CHARS),
  x: point,
  y: point,
  width: z.number().int().min(1).max(MAX_PAGE_POINTS),
  height: z.number().int().min(1).max(MAX_PAGE_POINTS),
});

/** The keys a field of any kind may carry; which are allowed, and required, depends on its kind (checkFieldKind). */
export const fieldKindKeys = {
  min: boundary.optional(),
  max: boundary.optional(),
  options: z
    .array(z.union([requiredSingleLineText(MAX_OPTION_CHARS), RadioOptionSchema]))
    .max(Math.max(DROPDOWN_OPTIONS.max, RADIO_OPTIONS.max))
    .optional(),
};

type KindKeys = { type: FieldType; min?: number | undefined; max?: number | undefined; options?: (string | RadioOption)[] | undefined } & Box;
type Box = { x: number; y: number; width: number; height: number };
type Issue = { path: (string | number)[]; message: string };

/** Every way a field's kind-specific keys are wrong, with the path under the field. */
export function checkFieldKind(field: KindKeys): Issue[] {
  const issues: Issue[] = [];
  const refuse = (key: 'min' | 'max' | 'options') => {
    if (field[key] !== undefined) issues.push({ path: [key], message: `A ${field.type} field takes no ${key}.` });
  };
  if (field.type !== 'number') (['min', 'max'] as const).forEach(refuse);
  if (field.type === 'number' && field.min !== undefined && field.max !== undefined && field.min > field.max) {
    issues.push({ path: ['min'], message: 'min must not be greater than max.' });
  }
  if (field.type === 'dropdown') issues.push(...dropdownIssues(field.options));
  else if (field.type === 'radio') issues.push(...radioIssues(field, field.options));
  else refuse('options');
  return issues;
}

function dropdownIssues(options: (string | RadioOption)[] | undefined): Issue[] {
  const { min, max } = DROPDOWN_OPTIONS;
  if (!options || options.length < min || options.length > max) return [{ path: ['options'], message: `A dropdown needs ${min} to ${max} options.` }];
  const issues: Issue[] = [];
  const seen = new Set<string>();
  options.forEach((option, index) => {
    if (typeof option !== 'string') issues.push({ path: ['options', index], message: "A dropdown's option is its text." });
    else if (seen.has(option)) issues.push({ path: ['options', index], message: 'Options must be distinct.' });
    else seen.add(option);
  });
  return issues;
}

/** Each option's box sits inside the field's own box, so the field's place on the page bounds the whole group. */
function radioIssues(field: Box, options: (string | RadioOption)[] | undefined): Issue[] {
  const { min, max } = RADIO_OPTIONS;
  if (!options || options.length < min || options.length > max) return [{ path: ['options'], message: `A radio group needs ${min} to ${max} options.` }];
  const issues: Issue[] = [];
  const seen = new Set<string>();
  options.forEach((option, index) => {
    if (typeof option === 'string')
      issues.push({ path: ['options', index], message: "A radio group's option is a value with its box: { value, x, y, width, height }." });
    else if (seen.has(option.value)) issues.push({ path: ['options', index, 'value'], message: 'Option values must be distinct.' });
    else {
      seen.add(option.value);
      const inside =
        option.x >= field.x && option.y >= field.y && option.x + option.width <= field.x + field.width && option.y + option.height <= field.y + field.height;
      if (!inside) issues.push({ path: ['options', index], message: "An option's box must sit inside the field's box." });
    }
  });
  return issues;
}

/** The settings kept for a field of this kind, from its checked definition; null for a kind that takes none. */
export function settingsOf(field: Omit<KindKeys, keyof Box>): FieldSettings | null {
  if (field.type === 'number') {
    if (field.min === undefined && field.max === undefined) return null;
    return { ...(field.min !== undefined ? { min: field.min } : {}), ...(field.max !== undefined ? { max: field.max } : {}) };
  }
  if (field.type === 'dropdown') return { options: (field.options ?? []).filter((option) => typeof option === 'string') };
  if (field.type === 'radio') return { options: (field.options ?? []).filter((option) => typeof option !== 'string') };
  return null;
}

/** A dropdown's or radio group's option values, from its stored settings. */
export function optionValues(settings: FieldSettings | null | undefined): string[] {
  if (!settings || !('options' in settings)) return [];
  return settings.options.map((option) => (typeof option === 'string' ? option : option.value));
}

/** A radio group's option boxes, from its stored settings. */
export function radioOptions(settings: FieldSettings | null | undefined): RadioOption[] {
  if (!settings || !('options' in settings)) return [];
  return settings.options.filter((option): option is RadioOption => typeof option !== 'string');
}

/** A number field's bounds, from its stored settings. */
export function numberBounds(settings: FieldSettings | null | undefined): { min?: number; max?: number } {
  return settings && !('options' in settings) ? settings : {};
}
