/**
 * The controls of the kinds whose value has a shape of its own: a date picker, a number input with
 * the field's bounds, a dropdown and a radio group. Plain form controls, so they work without
 * script; the server checks every value all the same (field-values.ts).
 */
import { html } from 'hono/html';
import type { SigningField } from '../../domain/signing/signing-state.js';
import { numberBounds, optionValues } from '../../domain/templates/field-kinds.js';
import type { Messages } from '../../i18n/index.js';
import type { Html } from './layout.js';
import { describedBy, errorIdOf, errorText, inputIdOf, invalid, labelOf, requiredMark } from './sign-page.js';

/** An ISO 8601 date (as stored) in the signer's language, or the text itself when it is no date. */
export function localDate(m: Messages, iso: string): string {
  const at = new Date(`${iso}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(iso) && !Number.isNaN(at.getTime()) ? m.date(at) : iso;
}

export function kindControl(m: Messages, field: SigningField, value: string | undefined, problems: string[]): Html {
  const id = inputIdOf(field.id);
  const error = problems.length > 0 ? errorIdOf(field.id) : null;
  const name = `field.${field.id}`;
  const required = field.required ? html` aria-required="true"` : '';
  const label = html`<label for="${id}">${labelOf(m, field)}${requiredMark(m, field)}</label>`;
  switch (field.type) {
    case 'date': {
      // The picker shows the date in the browser's own way; the line under it says it in the page's language.
      const shown = value ? localDate(m, value) : '';
      return html`<div class="field" id="field-${field.id}">
${label}
<input id="${id}" name="${name}" type="date" value="${value ?? ''}" data-field-input="${field.id}"${required}${describedBy(shown ? `shown-${field.id}` : null, error)}${invalid(problems)}>
${shown ? html`<p class="hint" id="shown-${field.id}">${shown}</p>` : ''}
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
      const options = optionValues(field.settings);
      // The first option carries the field's input id: the problem summary's link lands on the group.
      return html`<fieldset class="field field-radio" id="field-${field.id}"${describedBy(error)}>
<legend>${labelOf(m, field)}${requiredMark(m, field)}</legend>
${options.map((option, index) => {
  const optionId = index === 0 ? id : `${id}-${index}`;
  return html`<div class="field-choice"><input type="radio" id="${optionId}" name="${name}" value="${option}"${option === value ? ' checked' : ''} data-field-input="${field.id}"${invalid(problems)}><label for="${optionId}">${option}</label></div>`;
})}
${errorText(m, field.id, problems)}
</fieldset>`;
    }
  }
}
