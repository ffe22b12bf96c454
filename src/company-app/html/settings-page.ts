/**
 * The settings page: the brand's form, the logo's upload, the preview of the signing e-mail as it
 * is sent, the origins allowed to embed signing pages, and the period's usage. Each form posts on
 * its own and, with a mistake, comes back (422) with the page around it and each field's message.
 */
import { html } from 'hono/html';
import type { Brand } from '../../domain/companies/brand.js';
import { MAX_DEFAULT_MESSAGE_CHARS, MAX_DISPLAY_NAME_CHARS } from '../../domain/companies/brand.js';
import { DEFAULT_ACCENT } from '../../domain/companies/brand-look.js';
import { MAX_ALLOWED_ORIGINS } from '../../domain/companies/embedding.js';
import type { CompanyUsage } from '../../domain/quota/company-usage.js';
import type { AppMessages } from '../../i18n/app-messages.js';
import { LANGUAGES, languageNames } from '../../i18n/languages.js';
import { MAX_LOGO_BYTES, MAX_LOGO_SIDE } from '../../lib/brand-logo.js';
import type { BrandErrors, BrandForm } from '../settings-forms.js';
import { type Html, layout, noticePage, type Shell } from './layout.js';

export type SettingsSaved = 'brand' | 'logo' | 'logoRemoved' | 'embedding';

export type SettingsView = {
  brand: Brand;
  origins: string[];
  usage: CompanyUsage;
  saved?: SettingsSaved | undefined;
  /** The brand form as posted, with its mistakes. */
  brandForm?: { form: BrandForm; errors: BrandErrors } | undefined;
  logoError?: string | undefined;
  /** The origins as posted, with what is wrong with them. */
  originsForm?: { text: string; errors: string[] } | undefined;
};

const hidden = (shell: Shell) => html`<input type="hidden" name="form_token" value="${shell.formToken}">`;
const fieldError = (m: AppMessages, id: string, message: string) =>
  html`<p class="field-error" id="${id}"><span class="visually-hidden">${m.text('page.errorPrefix')} </span>${message}</p>`;
const invalid = (error: string | undefined, id: string, hint: string) =>
  error ? html` aria-invalid="true" aria-describedby="${id}-error ${hint}"` : html` aria-describedby="${hint}"`;

export function settingsPage(m: AppMessages, shell: Shell, view: SettingsView): Html {
  const failed = view.brandForm || view.logoError || view.originsForm;
  return layout({
    m,
    title: m.text('settings.title'),
    shell: { ...shell, current: 'settings' },
    main: html`<section class="panel panel-wide settings" aria-labelledby="settings-title">
${view.saved ? html`<p class="status" role="status">${m.text(`settings.saved.${view.saved}`)}</p>` : ''}
${failed ? html`<p class="notice notice-warning" role="alert">${m.text('settings.fixErrors')}</p>` : ''}
<h1 id="settings-title">${m.text('settings.title')}</h1>
<p>${m.text('settings.lead')}</p>
${brandSection(m, shell, view)}
${logoSection(m, shell, view)}
${previewSection(m)}
${embeddingSection(m, shell, view)}
${usageSection(m, view.usage)}
</section>`,
  });
}

function brandSection(m: AppMessages, shell: Shell, view: SettingsView): Html {
  const { brand } = view;
  const form: BrandForm = view.brandForm?.form ?? {
    displayName: brand.display_name ?? '',
    accentColor: brand.accent_color ?? DEFAULT_ACCENT,
    message: brand.default_email_message ?? '',
    language: brand.language ?? '',
  };
  const errors = view.brandForm?.errors ?? {};
  const first = (['displayName', 'accentColor', 'message', 'language'] as const).find((field) => errors[field]);
  const focus = (field: keyof BrandForm) => (first === field ? html` autofocus` : '');
  return html`<section class="settings-part" aria-labelledby="brand-title">
<h2 id="brand-title">${m.text('settings.brand.title')}</h2>
<p>${m.text('settings.brand.lead')}</p>
<form method="post" action="/app/settings/brand" novalidate>
${hidden(shell)}
<div class="field${errors.displayName ? ' field-invalid' : ''}">
<label for="display_name">${m.text('settings.brand.displayName')}</label>
<p class="hint" id="display_name-hint">${m.text('settings.brand.displayNameHint', { max: MAX_DISPLAY_NAME_CHARS })}</p>
${errors.displayName ? fieldError(m, 'display_name-error', errors.displayName) : ''}
<input id="display_name" name="display_name" type="text" maxlength="${MAX_DISPLAY_NAME_CHARS}" autocomplete="organization" value="${form.displayName}"${invalid(errors.displayName, 'display_name', 'display_name-hint')}${focus('displayName')}>
</div>
<div class="field${errors.accentColor ? ' field-invalid' : ''}">
<label for="accent_color">${m.text('settings.brand.accent')}</label>
<p class="hint" id="accent_color-hint">${m.text('settings.brand.accentHint')}</p>
${errors.accentColor ? fieldError(m, 'accent_color-error', errors.accentColor) : ''}
<input id="accent_color" name="accent_color" type="color" class="colour-input" value="${/^#[0-9a-fA-F]{6}$/.test(form.accentColor) ? form.accentColor.toLowerCase() : DEFAULT_ACCENT}"${invalid(errors.accentColor, 'accent_color', 'accent_color-hint')}${focus('accentColor')}>
</div>
<div class="field${errors.message ? ' field-invalid' : ''}">
<label for="default_email_message">${m.text('settings.brand.message')}</label>
<p class="hint" id="default_email_message-hint">${m.text('settings.brand.messageHint', { max: MAX_DEFAULT_MESSAGE_CHARS })}</p>
${errors.message ? fieldError(m, 'default_email_message-error', errors.message) : ''}
<textarea id="default_email_message" name="default_email_message" rows="4" maxlength="${MAX_DEFAULT_MESSAGE_CHARS}"${invalid(errors.message, 'default_email_message', 'default_email_message-hint')}${focus('message')}>${form.message}</textarea>
</div>
<div class="field${errors.language ? ' field-invalid' : ''}">
<label for="language">${m.text('settings.brand.language')}</label>
<p class="hint" id="language-hint">${m.text('settings.brand.languageHint')}</p>
${errors.language ? fieldError(m, 'language-error', errors.language) : ''}
<select id="language" name="language"${invalid(errors.language, 'language', 'language-hint')}${focus('language')}>
<option value=""${form.language === '' ? ' selected' : ''}>${m.text('settings.brand.languageNone')}</option>
${LANGUAGES.map((tag) => html`<option value="${tag}" lang="${tag}"${form.language === tag ? ' selected' : ''}>${languageNames[tag]}</option>`)}
</select>
</div>
<div class="actions"><button type="submit">${m.text('settings.brand.submit')}</button></div>
</form>
</section>`;
}

function logoSection(m: AppMessages, shell: Shell, view: SettingsView): Html {
  const { logo } = view.brand;
  const error = view.logoError;
  return html`<section class="settings-part" aria-labelledby="logo-title">
<h2 id="logo-title">${m.text('settings.logo.title')}</h2>
<p id="logo-hint">${m.text('settings.logo.lead', { kib: MAX_LOGO_BYTES / 1024, side: MAX_LOGO_SIDE })}</p>
${
  logo
    ? html`<figure class="logo-current"><img src="${logo.url}" alt="${m.text('settings.logo.current')}" height="48"><figcaption class="hint">${m.text('settings.logo.current')}</figcaption></figure>`
    : html`<p class="hint">${m.text('settings.logo.none')}</p>`
}
<form method="post" action="/app/settings/logo" enctype="multipart/form-data" novalidate>
${hidden(shell)}
<div class="field${error ? ' field-invalid' : ''}">
<label for="logo">${m.text('settings.logo.file')}</label>
${error ? fieldError(m, 'logo-error', error) : ''}
<input id="logo" name="logo" type="file" accept="image/png,image/jpeg"${invalid(error, 'logo', 'logo-hint')}${error ? html` autofocus` : ''}>
</div>
<div class="actions"><button type="submit">${m.text('settings.logo.submit')}</button></div>
</form>
${
  logo
    ? html`<form method="post" action="/app/settings/logo/remove">
${hidden(shell)}
<div class="actions"><button type="submit" class="button-quiet">${m.text('settings.logo.remove')}</button></div>
</form>`
    : ''
}
</section>`;
}

/**
 * The e-mail as it is sent, in a frame of its own address (/app/settings/email-preview): its
 * inline styles need a policy of their own, and the frame's sandbox keeps it from scripts,
 * forms and the page around it.
 */
function previewSection(m: AppMessages): Html {
  return html`<section class="settings-part" aria-labelledby="preview-title">
<h2 id="preview-title">${m.text('settings.preview.title')}</h2>
<p>${m.text('settings.preview.lead')}</p>
<iframe class="email-preview" src="/app/settings/email-preview" title="${m.text('settings.preview.frame')}" sandbox></iframe>
<p><a href="/app/settings/email-preview">${m.text('settings.preview.open')}</a></p>
</section>`;
}

function embeddingSection(m: AppMessages, shell: Shell, view: SettingsView): Html {
  const posted = view.originsForm;
  const errors = posted?.errors ?? [];
  return html`<section class="settings-part" aria-labelledby="embedding-title">
<h2 id="embedding-title">${m.text('settings.embedding.title')}</h2>
<p>${m.text('settings.embedding.lead')}</p>
<form method="post" action="/app/settings/embedding" novalidate>
${hidden(shell)}
<div class="field${errors.length > 0 ? ' field-invalid' : ''}">
<label for="allowed_origins">${m.text('settings.embedding.origins')}</label>
<p class="hint" id="allowed_origins-hint">${m.text('settings.embedding.originsHint', { max: MAX_ALLOWED_ORIGINS })}</p>
${errors.length > 0 ? html`<div class="field-error" id="allowed_origins-error"><span class="visually-hidden">${m.text('page.errorPrefix')} </span><ul>${errors.map((error) => html`<li>${error}</li>`)}</ul></div>` : ''}
<textarea id="allowed_origins" name="allowed_origins" rows="4" spellcheck="false" autocomplete="off"${invalid(errors[0], 'allowed_origins', 'allowed_origins-hint')}${errors.length > 0 ? html` autofocus` : ''}>${posted?.text ?? view.origins.join('\n')}</textarea>
</div>
<div class="actions"><button type="submit">${m.text('settings.embedding.submit')}</button></div>
</form>
</section>`;
}

function usageSection(m: AppMessages, usage: CompanyUsage): Html {
  const month = new Date(`${usage.period}-01T00:00:00.000Z`).toLocaleDateString(m.locale, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const refused = (count: number | undefined) => (count === undefined ? m.text('settings.usage.refusedUnknown') : String(count));
  return html`<section class="settings-part" aria-labelledby="usage-title">
<h2 id="usage-title">${m.text('settings.usage.title')}</h2>
<p>${m.text('settings.usage.lead', { period: month })}</p>
<meter class="usage-meter" min="0" max="${Math.max(usage.allowance, 1)}" value="${Math.min(usage.used, usage.allowance)}" aria-label="${m.text('settings.usage.meter')}"></meter>
<dl class="details usage">
<div><dt>${m.text('settings.usage.used')}</dt><dd id="usage-used">${m.text('settings.usage.usedOf', { used: usage.used, allowance: usage.allowance })}</dd></div>
<div><dt>${m.text('settings.usage.left')}</dt><dd id="usage-left">${Math.max(0, usage.allowance - usage.used)}</dd></div>
<div><dt>${m.text('settings.usage.renews')}</dt><dd><time datetime="${usage.renewsAt.toISOString()}">${m.date(usage.renewsAt)}</time></dd></div>
<div><dt>${m.text('settings.usage.refusedQuota')}</dt><dd id="usage-refused-quota">${refused(usage.refused?.quota)}</dd></div>
<div><dt>${m.text('settings.usage.refusedRate')}</dt><dd id="usage-refused-rate">${refused(usage.refused?.rate)}</dd></div>
</dl>
</section>`;
}

export const settingsRefusedPage = (m: AppMessages, shell: Shell): Html =>
  noticePage({ m, title: m.text('settings.refused.title'), lead: m.text('settings.refused.lead'), tone: 'warning', shell });
