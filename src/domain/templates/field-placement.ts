import type { FieldType } from '../../data/schema.js';

export type FieldPlacement = {
  type: FieldType;
  label: string | null;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  required: boolean;
};

/** What a field is and where it sits, the same in a definition, a template and an envelope. */
export const placementOf = (field: Omit<FieldPlacement, 'label'> & { label?: string | null | undefined }): FieldPlacement => ({
  type: field.type,
  label: field.label ?? null,
  page: field.page,
  x: field.x,
  y: field.y,
  width: field.width,
  height: field.height,
  required: field.required,
});
