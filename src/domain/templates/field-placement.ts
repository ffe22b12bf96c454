import type { FieldSettings, FieldType } from '../../data/schema.js';

export type FieldPlacement = {
  type: FieldType;
  label: string | null;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  required: boolean;
  /** A number's bounds, a dropdown's or radio group's options; null for the kinds that take none. */
  settings: FieldSettings | null;
};

/** What a field is and where it sits, the same in a definition, a template and an envelope. */
export const placementOf = (
  field: Omit<FieldPlacement, 'label' | 'settings'> & { label?: string | null | undefined; settings?: FieldSettings | null | undefined },
): FieldPlacement => ({
  type: field.type,
  label: field.label ?? null,
  page: field.page,
  x: field.x,
  y: field.y,
  width: field.width,
  height: field.height,
  required: field.required,
  settings: field.settings ?? null,
});
