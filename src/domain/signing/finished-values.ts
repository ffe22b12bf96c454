/**
 * A field's value as the finished PDF shows it: a date in the envelope's language (the one its
 * signing page and e-mails speak: its template version's, else the company's, else English), a radio group
 * with the boxes of its options, so the chosen one gets the mark; everything else as stored.
 */
import type { envelopeFields } from '../../data/schema.js';
import { messagesFor } from '../../i18n/index.js';
import { type Language, languageOfTag } from '../../i18n/languages.js';
import type { FinishedField } from '../../ports/pdf-maker.js';
import type { Services } from '../../services.js';
import { radioOptions } from '../templates/field-kinds.js';
import { envelopeLanguages } from '../templates/version-language.js';

type FieldRow = typeof envelopeFields.$inferSelect;

/** The language the envelope's signers were spoken to in, by default. */
export async function envelopeLanguage(services: Services, envelope: { templateId: string; templateVersion: number; companyId: string }): Promise<Language> {
  const languages = await envelopeLanguages(services.database.db, envelope);
  return [languages.template, languages.company].map((tag) => (tag ? languageOfTag(tag) : null)).find((found) => found !== null) ?? 'en';
}

export function finishedField(field: FieldRow, language: Language): FinishedField {
  const placed = { type: field.type, page: field.page, x: field.x, y: field.y, width: field.width, height: field.height };
  if (field.type === 'radio') return { ...placed, value: field.value, options: radioOptions(field.settings) };
  if (field.type === 'date' && field.value !== null) return { ...placed, value: shownDate(field.value, language) };
  return { ...placed, value: field.value };
}

/** An ISO 8601 date in the language's own way (UTC: a date has no time zone). */
function shownDate(iso: string, language: Language): string {
  const at = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(at.getTime()) ? iso : messagesFor(language).date(at);
}
