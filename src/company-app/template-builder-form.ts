/**
 * One file although long: the form's rows, their reading, their changes and their checking share
 * one shape and are read together.
 *
 * The builder's form as posted: its text read into rows (settings, roles, fields), the row asked
 * to be added or removed, and the rows turned into a TemplateDefinition whose mistakes are named
 * by the inputs they belong to. The uploaded document travels in the form with an HMAC bound to
 * the session, so a post can only name a document this session uploaded.
 */
import type { Context } from 'hono';
import type { PageSize } from '../data/schema.js';
import { MAX_OPTION_CHARS, RADIO_OPTIONS, radioOptions } from '../domain/templates/field-kinds.js';
import { requiredSingleLineText } from '../domain/shared/text-fields.js';
import { fieldTypes, TemplateDefinition } from '../domain/templates/template-definition.js';
import type { TemplateDetail } from '../domain/templates/get-template.js';
import type { StoredDocument } from '../ports/document-store.js';
import { type FormEntries, singleValue } from '../http/page-forms.js';
import { formMac, verifyFormMac } from '../lib/form-mac.js';
import type { CompanyAppEnv } from './app-env.js';
import type { Shell } from './html/layout.js';

export const MAX_ROLES = 50;
export const MAX_FIELDS = 500;

export type RoleRowForm = { name: string; type: string; order: string; locked: boolean; recipient_name: string; recipient_email: string; verification: string };
/** A radio option's box as typed, in points. */
export type OptionBoxForm = { x: string; y: string; width: string; height: string };
/**
 * `options` one a line (a dropdown's or a radio group's), `boxes` each radio option's box in the
 * options' order, `min` and `max` a number field's bounds: what a kind needs beyond its place.
 */
export type FieldRowForm = {
  type: string;
  role: string;
  page: string;
  x: string;
  y: string;
  width: string;
  height: string;
  label: string;
  required: boolean;
  options: string;
  boxes: OptionBoxForm[];
  min: string;
  max: string;
};
export type BuilderForm = {
  name: string;
  email_subject: string;
  email_message: string;
  expiry_days: string;
  reminder_first: string;
  reminder_every: string;
  signing_order: string;
  share_signing_links: boolean;
  language: string;
  roles: RoleRowForm[];
  fields: FieldRowForm[];
};
/** Each input with a mistake (its id) and the catalogue key of its message. */
export type BuilderErrors = Record<string, string>;

/** The uploaded PDF the form is about: in the store, with its name and its pages' sizes. */
export type BuilderDocument = { fileName: string; stored: StoredDocument };
export type SignedDocument = BuilderDocument & { signature: string };

const LABEL = 'esign company application template document v1';
const bindingOf = (shell: Shell, document: BuilderDocument) =>
  JSON.stringify([shell.session.id, document.stored.key, document.stored.size, document.stored.sha256, document.fileName]);

export async function signDocument(c: Context<CompanyAppEnv>, shell: Shell, document: BuilderDocument): Promise<SignedDocument> {
  return { ...document, signature: await formMac(c.get('services').config.tokenSecret, LABEL, bindingOf(shell, document)) };
}

/** The document the form names, if its signature is this session's; null for a missing or forged one. */
export async function documentOf(c: Context<CompanyAppEnv>, shell: Shell, entries: FormEntries): Promise<SignedDocument | null> {
  const [key, size, sha256, fileName, signature] = ['document_key', 'document_size', 'document_sha256', 'document_name', 'document_mac'].map((name) =>
    singleValue(entries, name),
  );
  if (key === undefined || size === undefined || sha256 === undefined || fileName === undefined || signature === undefined || !/^\d{1,12}$/.test(size))
    return null;
  const document = { fileName, stored: { key, size: Number(size), sha256 } };
  const valid = await verifyFormMac(c.get('services').config.tokenSecret, LABEL, bindingOf(shell, document), signature);
  return valid ? { ...document, signature } : null;
}

export const emptyRole = (order: number): RoleRowForm => ({
  name: order === 1 ? 'Signer' : `Signer ${order}`,
  type: 'signer',
  order: String(order),
  locked: false,
  recipient_name: '',
  recipient_email: '',
  verification: 'none',
});

export const emptyField = (role: string): FieldRowForm => ({
  type: 'signature',
  role,
  page: '1',
  x: '72',
  y: '72',
  width: '180',
  height: '36',
  label: '',
  required: true,
  options: '',
  boxes: [],
  min: '',
  max: '',
});

export const emptyForm = (): BuilderForm => ({
  name: '',
  email_subject: '',
  email_message: '',
  expiry_days: '',
  reminder_first: '',
  reminder_every: '',
  signing_order: 'sequential',
  share_signing_links: false,
  language: '',
  roles: [emptyRole(1)],
  fields: [],
});

/** A saved template as the form shows it, to change it. */
export function formOfTemplate(template: TemplateDetail): BuilderForm {
  return {
    name: template.name,
    email_subject: template.email_subject ?? '',
    email_message: template.email_message ?? '',
    expiry_days: template.expiry_days === null ? '' : String(template.expiry_days),
    reminder_first: template.reminders ? String(template.reminders.first_after_days) : '',
    reminder_every: template.reminders ? String(template.reminders.every_days) : '',
    signing_order: template.signing_order,
    share_signing_links: template.share_signing_links,
    language: template.language ?? '',
    roles: template.roles.map((role) => ({
      name: role.name,
      type: role.type,
      order: String(role.order),
      locked: role.locked,
      recipient_name: role.recipient?.name ?? '',
      recipient_email: role.recipient?.email ?? '',
      verification: role.verification,
    })),
    fields: template.fields.map((field) => ({
      type: field.type,
      role: field.role,
      page: String(field.page),
      x: String(field.x),
      y: String(field.y),
      width: String(field.width),
      height: String(field.height),
      label: field.label ?? '',
      required: field.required,
      options:
        field.settings && 'options' in field.settings
          ? field.settings.options.map((option) => (typeof option === 'string' ? option : option.value)).join('\n')
          : '',
      boxes: radioOptions(field.settings).map((option) => ({
        x: String(option.x),
        y: String(option.y),
        width: String(option.width),
        height: String(option.height),
      })),
      min: field.settings && 'min' in field.settings && field.settings.min !== undefined ? String(field.settings.min) : '',
      max: field.settings && 'max' in field.settings && field.settings.max !== undefined ? String(field.settings.max) : '',
    })),
  };
}

const textOf = (entries: FormEntries, name: string) => singleValue(entries, name) ?? '';
const isTicked = (entries: FormEntries, name: string) => entries.some(([key, value]) => key === name && value === 'yes');

/** The rows posted: role-{i}-… and field-{i}-…, numbered from 0 without gaps, as the page writes them. */
export function readBuilderForm(entries: FormEntries): BuilderForm {
  const roles: RoleRowForm[] = [];
  for (let i = 0; i < MAX_ROLES + 1 && singleValue(entries, `role-${i}-name`) !== undefined; i++) {
    const at = (name: string) => textOf(entries, `role-${i}-${name}`);
    roles.push({
      name: at('name'),
      type: at('type'),
      order: at('order'),
      locked: isTicked(entries, `role-${i}-locked`),
      recipient_name: at('recipient_name'),
      recipient_email: at('recipient_email'),
      verification: at('verification'),
    });
  }
  const fields: FieldRowForm[] = [];
  for (let i = 0; i < MAX_FIELDS + 1 && singleValue(entries, `field-${i}-type`) !== undefined; i++) {
    const at = (name: string) => textOf(entries, `field-${i}-${name}`);
    fields.push({
      type: at('type'),
      role: at('role'),
      page: at('page'),
      x: at('x'),
      y: at('y'),
      width: at('width'),
      height: at('height'),
      label: at('label'),
      required: isTicked(entries, `field-${i}-required`),
      options: at('options'),
      boxes: boxesOf(entries, i),
      min: at('min'),
      max: at('max'),
    });
  }
  return {
    name: textOf(entries, 'name'),
    email_subject: textOf(entries, 'email_subject'),
    email_message: textOf(entries, 'email_message'),
    expiry_days: textOf(entries, 'expiry_days'),
    reminder_first: textOf(entries, 'reminder_first'),
    reminder_every: textOf(entries, 'reminder_every'),
    signing_order: textOf(entries, 'signing_order'),
    share_signing_links: isTicked(entries, 'share_signing_links'),
    language: textOf(entries, 'language'),
    roles,
    fields,
  };
}

/** A radio row's option boxes: field-{i}-option-{j}-…, numbered from 0 without gaps. */
function boxesOf(entries: FormEntries, i: number): OptionBoxForm[] {
  const boxes: OptionBoxForm[] = [];
  for (let j = 0; j < RADIO_OPTIONS.max + 1 && singleValue(entries, `field-${i}-option-${j}-x`) !== undefined; j++) {
    const at = (name: string) => textOf(entries, `field-${i}-option-${j}-${name}`);
    boxes.push({ x: at('x'), y: at('y'), width: at('width'), height: at('height') });
  }
  return boxes;
}

/** The options typed, one a line, blank lines left out. */
export const optionLines = (field: FieldRowForm) =>
  field.options
    .split(/\r?\n/)
    .map((option) => option.trim())
    .filter((option) => option !== '');

/** The largest side of a box the builder gives an option itself: the size of a check box. */
const OPTION_SIDE = 16;

/**
 * A radio row's options with their boxes: the box posted for it, else one laid out in the field's
 * box, side by side from its left edge (so that a form without script, or a line just added, has
 * a box the person then moves).
 */
export function radioBoxesOf(field: FieldRowForm): (OptionBoxForm & { value: string })[] {
  const lines = optionLines(field);
  const place = { x: whole(field.x), y: whole(field.y), width: whole(field.width), height: whole(field.height) };
  return lines.map((value, index) => {
    const posted = field.boxes[index];
    if (posted && [posted.x, posted.y, posted.width, posted.height].some((part) => part.trim() !== '')) return { value, ...posted };
    if (Object.values(place).some(Number.isNaN)) return { value, x: '', y: '', width: '', height: '' };
    const side = Math.max(1, Math.min(OPTION_SIDE, place.height, Math.floor(place.width / lines.length)));
    const x = place.x + Math.floor((index * place.width) / lines.length);
    return { value, x: String(x), y: String(place.y), width: String(side), height: String(side) };
  });
}

/** What the post's button asks: save, add or remove a row, or take a new PDF (the form then comes back as it is). */
export type BuilderAction =
  | { kind: 'save' }
  | { kind: 'replace-document' }
  | { kind: 'add-role' }
  | { kind: 'add-field'; type: string }
  | { kind: 'remove-role'; index: number }
  | { kind: 'remove-field'; index: number };

export function actionOf(entries: FormEntries): BuilderAction {
  const action = singleValue(entries, 'action') ?? 'save';
  if (action === 'add-role') return { kind: 'add-role' };
  if (action === 'replace-document') return { kind: 'replace-document' };
  const add = /^add-field(?:-([a-z_]+))?$/.exec(action);
  if (add) return { kind: 'add-field', type: (fieldTypes as readonly string[]).includes(add[1] ?? '') ? add[1]! : 'signature' };
  const remove = /^remove-(role|field)-(\d{1,3})$/.exec(action);
  if (remove) return { kind: remove[1] === 'role' ? 'remove-role' : 'remove-field', index: Number(remove[2]) };
  return { kind: 'save' };
}

/** The form after an add or a remove; a row past the limits is not added. */
export function applyAction(form: BuilderForm, action: BuilderAction): BuilderForm {
  switch (action.kind) {
    case 'add-role':
      return form.roles.length >= MAX_ROLES ? form : { ...form, roles: [...form.roles, emptyRole(form.roles.length + 1)] };
    case 'add-field': {
      if (form.fields.length >= MAX_FIELDS) return form;
      const signer = form.roles.find((role) => role.type === 'signer')?.name ?? form.roles[0]?.name ?? '';
      return { ...form, fields: [...form.fields, { ...emptyField(signer), type: action.type }] };
    }
    case 'remove-role':
      return { ...form, roles: form.roles.filter((_, index) => index !== action.index) };
    case 'remove-field':
      return { ...form, fields: form.fields.filter((_, index) => index !== action.index) };
    default:
      return form;
  }
}

/** A whole number as typed, or NaN (which the definition's rules refuse) for anything else. */
const whole = (value: string) => (/^\s*-?\d{1,9}\s*$/.test(value) ? Number(value) : Number.NaN);
const optional = (value: string) => (value.trim() === '' ? null : value);

/** The form as a definition, checked by the import's own rules, plus: every field inside its page. */
export function definitionOf(form: BuilderForm, pages: PageSize[]): { definition: TemplateDefinition } | { errors: BuilderErrors } {
  const errors: BuilderErrors = {};
  const bothOrNeither = (form.reminder_first.trim() === '') === (form.reminder_every.trim() === '');
  if (!bothOrNeither) errors.reminder_first = 'builder.error.reminders';
  const candidate = {
    name: form.name,
    email_subject: optional(form.email_subject),
    email_message: optional(form.email_message),
    expiry_days: form.expiry_days.trim() === '' ? null : whole(form.expiry_days),
    reminders:
      form.reminder_first.trim() === '' && form.reminder_every.trim() === ''
        ? null
        : { first_after_days: whole(form.reminder_first), every_days: whole(form.reminder_every) },
    signing_order: form.signing_order,
    share_signing_links: form.share_signing_links,
    language: optional(form.language),
    roles: form.roles.map((role) => ({
      name: role.name,
      type: role.type,
      order: whole(role.order),
      locked: role.locked,
      recipient:
        role.locked || role.recipient_name.trim() !== '' || role.recipient_email.trim() !== ''
          ? { name: role.recipient_name, email: role.recipient_email }
          : null,
      verification: role.verification,
    })),
    fields: form.fields.map((field) => ({
      role: field.role,
      type: field.type,
      label: optional(field.label),
      page: whole(field.page),
      x: whole(field.x),
      y: whole(field.y),
      width: whole(field.width),
      height: whole(field.height),
      required: field.required,
      ...kindSettings(field),
    })),
  };
  const parsed = TemplateDefinition.safeParse(candidate);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [first, index, part, option, key] = issue.path;
      if (first === 'roles' && typeof index === 'number') errors[`role-${index}-${roleInput(part)}`] ??= `builder.error.role.${roleKey(part)}`;
      else if (first === 'fields' && typeof index === 'number' && isOptionBoxIssue(form.fields[index], part, option, key))
        errors[`field-${index}-option-${String(option)}-x`] ??= 'builder.error.field.optionPlace';
      else if (first === 'fields' && typeof index === 'number') errors[`field-${index}-${fieldInput(part)}`] ??= `builder.error.field.${fieldKey(part)}`;
      else if (first === 'reminders') errors.reminder_first ??= 'builder.error.reminders';
      else if (first === 'roles') errors.roles ??= 'builder.error.roles';
      else if (first === 'fields') errors.fields ??= 'builder.error.fields';
      else if (typeof first === 'string' && first in settingsKeys) errors[first] ??= settingsKeys[first]!;
      else errors.name ??= 'builder.error.name';
    }
  }
  for (const [id, key] of Object.entries(placeErrors(form, pages))) errors[id] ??= key;
  if (!parsed.success || Object.keys(errors).length > 0) return { errors };
  return { definition: parsed.data };
}

/** The fields the pages cannot hold (an unknown page, a box past its edge): the import checks it again against the same sizes. */
export function placeErrors(form: BuilderForm, pages: PageSize[]): BuilderErrors {
  const errors: BuilderErrors = {};
  form.fields.forEach((row, index) => {
    const field = { page: whole(row.page), x: whole(row.x), y: whole(row.y), width: whole(row.width), height: whole(row.height) };
    if (Number.isNaN(field.page)) return;
    const page = pages[field.page - 1];
    if (!page) errors[`field-${index}-page`] = 'builder.error.field.page';
    else if (field.x + field.width > page.width || field.y + field.height > page.height) errors[`field-${index}-x`] = 'builder.error.field.place';
  });
  return errors;
}

/** A decimal number as typed, or NaN (refused by the definition's rules). */
const decimal = (value: string) => (/^\s*-?\d{1,15}(\.\d{1,6})?\s*$/.test(value) ? Number(value) : Number.NaN);

/** What the row's kind takes beyond its place; the other kinds are given none, as the rules require. */
function kindSettings(field: FieldRowForm): { options?: (string | RadioOptionNumbers)[]; min?: number; max?: number } {
  if (field.type === 'dropdown') return { options: optionLines(field) };
  if (field.type === 'radio')
    return {
      options: radioBoxesOf(field).map((box) => ({ value: box.value, x: whole(box.x), y: whole(box.y), width: whole(box.width), height: whole(box.height) })),
    };
  if (field.type !== 'number') return {};
  return { ...(field.min.trim() === '' ? {} : { min: decimal(field.min) }), ...(field.max.trim() === '' ? {} : { max: decimal(field.max) }) };
}

type RadioOptionNumbers = { value: string; x: number; y: number; width: number; height: number };

const settingsKeys: Record<string, string> = {
  name: 'builder.error.name',
  email_subject: 'builder.error.email_subject',
  email_message: 'builder.error.email_message',
  expiry_days: 'builder.error.expiry_days',
  signing_order: 'builder.error.signing_order',
  language: 'builder.error.language',
};

const optionText = requiredSingleLineText(MAX_OPTION_CHARS);

/** A mistake in a radio option's box (not in its value), which its own inputs show. */
function isOptionBoxIssue(
  field: FieldRowForm | undefined,
  part: PropertyKey | undefined,
  option: PropertyKey | undefined,
  key: PropertyKey | undefined,
): boolean {
  if (field?.type !== 'radio' || part !== 'options' || typeof option !== 'number' || key === 'value') return false;
  // A value too long fails the option as a whole too: that mistake is the options' own.
  return optionText.safeParse(optionLines(field)[option] ?? '').success;
}

function roleInput(part: PropertyKey | undefined): string {
  if (part === 'recipient') return 'recipient_name';
  return typeof part === 'string' ? part : 'name';
}
function roleKey(part: PropertyKey | undefined): string {
  return part === 'type' || part === 'order' || part === 'recipient' || part === 'verification' ? part : 'name';
}
function fieldInput(part: PropertyKey | undefined): string {
  if (part === 'settings') return 'options';
  return part === 'type' || part === 'role' || part === 'label' || part === 'page' || part === 'options' || part === 'min' || part === 'max' ? part : 'x';
}
function fieldKey(part: PropertyKey | undefined): string {
  if (part === 'options' || part === 'settings') return 'options';
  if (part === 'min' || part === 'max') return 'bounds';
  return part === 'type' || part === 'role' || part === 'label' || part === 'page' ? part : 'place';
}
