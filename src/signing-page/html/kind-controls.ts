/**
 * The controls of the kinds whose value has a shape of its own: a date picker, a number input with
 * the field's bounds, a dropdown and a radio group. Plain form controls, so they work without
 * script; the server checks every value all the same (field-values.ts).
 */
import { html } from 'hono/html';
import { dateValue } from '../../domain/signing/field-values.js';
import type { SigningField } from '../../domain/signing/signing-state.js';
import { numberBounds, optionValues, radioOptions } from '../../domain/templates/field-kinds.js';
import { type Messages, messagesFor } from '../../i18n/index.js';
import type { Language } from '../../i18n/languages.js';
import type { Html } from './layout.js';
import { describedBy, errorIdOf, errorText, inputIdOf, invalid, labelOf, requiredMark } from './sign-page.js';

/**
 * An ISO 8601 date (as stored) in the signer's language, or the text itself when it is no date
 * that exists: `Date` would read 30 February as 2 March.
 */
export function localDate(m: Messages, iso: string): string {
  return dateValue(iso) ? m.date(new Date(`${iso}T00:00:00Z`)) : iso;
}

/**
 * `documentLanguage` is the envelope's: the finished PDF writes a date in it (finished-values.ts),
 * whatever language the signer reads the page in; none means English, as there.
 */
export function kindControl(m: Messages, field: SigningField, value: string | undefined, problems: string[], documentLanguage: Language | null = null): Html {
  const id = inputIdOf(field.id);
  const error = problems.length > 0 ? errorIdOf(field.id) : null;
  const name = `field.${field.id}`;
  const required = field.required ? html` aria-required="true"` : '';
  const label = html`<label for="${id}">${labelOf(m, field)}${requiredMark(m, field)}</label>`;
  switch (field.type) {
    case 'date': {
      // The picker shows the date in the browser's own way, which the page cannot set; the line under
      // it says how the finished PDF will write it (sign.js keeps it up to date as the date is picked).
      const document = messagesFor(documentLanguage ?? 'en');
      // A refused date that does not exist gets no line: the error under it says what is wrong.
      const shown = value && dateValue(value) ? m.text('field.dateAppears', { date: localDate(document, value) }) : '';
      const say = m.text('field.dateAppears', { date: '{date}' });
      return html`<div class="field" id="field-${field.id}">
${label}
<input id="${id}" name="${name}" type="date" value="${value ?? ''}" data-field-input="${field.id}"${required}${describedBy(`shown-${field.id}`, error)}${invalid(problems)}>
<p class="hint" id="shown-${field.id}" data-date-shown="${field.id}" data-locale="${document.locale}" data-say="${say}">${shown}</p>
${errorText(m, field.id, problems)}
</div>`;
    }
    case 'number': {
      const { min, max } = numberBounds(field.settings);
      return html`<div class="field" id="field-${field.id}">
${label}
<input id="${id}" name="${name}" type="number" step="any"${min !== undefined ? html` min="${min}"` : ''}${max !== undefined ? html` max="${max}"` : ''} inputmode="decimal" value="${value ?? ''}" data-field-input="${field.id}"${required}${describedBy(error)}${invalid(problems)}>
${errorText(m, field.id, problems)}
</div>`;
    }
    case 'dropdown': {
      const options = optionValues(field.settings);
      // A required dropdown still starts on no choice, so that nobody agrees to the first option by not looking.
      return html`<div class="field" id="field-${field.id}">
${label}
<select id="${id}" name="${name}" data-field-input="${field.id}"${required}${describedBy(error)}${invalid(problems)}>
<option value=""${options.includes(value ?? '') ? '' : ' selected'}>${m.text('field.choose')}</option>
${options.map((option) => html`<option value="${option}"${option === value ? ' selected' : ''}>${option}</option>`)}
</select>
${errorText(m, field.id, problems)}
</div>`;
    }
    default: {
      // Each option's box on the page: with script, sign.js moves the option (its input and label) there,
      // so the signer chooses where the finished PDF draws the mark; without it, the options stay here.
      const boxes = new Map(radioOptions(field.settings).map((option) => [option.value, option]));
      const options = optionValues(field.settings);
      // The first option carries the field's input id: the problem summary's link lands on the group.
      return html`<fieldset class="field field-radio" id="field-${field.id}"${describedBy(error)} data-radio-group="${field.id}" data-page="${field.page}">
<legend id="legend-${field.id}">${labelOf(m, field)}${requiredMark(m, field)}</legend>
${boxes.size > 0 ? html`<p class="hint js-only">${m.text('field.radioOnPage')}</p>` : ''}
${options.map((option, index) => {
  const optionId = index === 0 ? id : `${id}-${index}`;
  const box = boxes.get(option);
  const place = box ? html` data-option-box data-x="${box.x}" data-y="${box.y}" data-w="${box.width}" data-h="${box.height}"` : '';
  return html`<div class="field-choice"${place}><input type="radio" id="${optionId}" name="${name}" value="${option}"${option === value ? ' checked' : ''} data-field-input="${field.id}"${invalid(problems)}><label for="${optionId}">${option}</label></div>`;
})}
${errorText(m, field.id, problems)}
</fieldset>`;
    }
  }
}
