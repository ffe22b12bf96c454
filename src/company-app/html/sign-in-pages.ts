/**
 * The pages of signing in: ask for a link, check your e-mail, the link's button, the link that no
 * longer works, and the choice of company. Every form carries its `form_token`.
 */
import { html } from 'hono/html';
import type { Membership } from '../../domain/app-access/people.js';
import type { AppMessages } from '../../i18n/app-messages.js';
import { type Html, layout, noticePage } from './layout.js';

export type SignInNotice = 'ended' | 'signedOut';

export function signInPage(m: AppMessages, options: { formToken: string; email?: string; invalid?: boolean; notice?: SignInNotice }): Html {
  const { invalid } = options;
  return layout({
    m,
    title: m.text('signIn.title'),
    main: html`<section class="panel" aria-labelledby="sign-in-title">
${options.notice ? html`<p class="status" role="status">${m.text(options.notice === 'ended' ? 'signIn.ended' : 'signIn.signedOut')}</p>` : ''}
<h1 id="sign-in-title">${m.text('signIn.title')}</h1>
<p>${m.text('signIn.lead')}</p>
<form method="post" action="/app/sign-in" novalidate>
<input type="hidden" name="form_token" value="${options.formToken}">
<div class="field${invalid ? ' field-invalid' : ''}">
<label for="email">${m.text('signIn.email')}</label>
${invalid ? html`<p class="field-error" id="email-error"><span class="visually-hidden">${m.text('page.errorPrefix')} </span>${m.text('signIn.invalidEmail')}</p>` : ''}
<input id="email" name="email" type="email" autocomplete="email" inputmode="email" required maxlength="150" value="${options.email ?? ''}"${invalid ? html` aria-invalid="true" aria-describedby="email-error" autofocus` : ''}>
</div>
<button type="submit">${m.text('signIn.submit')}</button>
</form>
</section>`,
  });
}

export const checkEmailPage = (m: AppMessages, email: string): Html =>
  noticePage({
    m,
    title: m.text('checkEmail.title'),
    lead: m.html('checkEmail.lead', { email }),
    body: html`<p>${m.text('checkEmail.body')}</p>
<p><a href="/app">${m.text('checkEmail.again')}</a></p>`,
  });

export const signInLinkPage = (m: AppMessages, options: { email: string; formToken: string; action: string }): Html =>
  layout({
    m,
    title: m.text('link.title'),
    main: html`<section class="panel" aria-labelledby="link-title">
<h1 id="link-title">${m.text('link.title')}</h1>
<p>${m.html('link.lead', { email: options.email })}</p>
<form method="post" action="${options.action}">
<input type="hidden" name="form_token" value="${options.formToken}">
<button type="submit">${m.text('link.submit')}</button>
</form>
<p class="hint">${m.text('link.why')}</p>
</section>`,
  });

export const linkInvalidPage = (m: AppMessages): Html =>
  noticePage({
    m,
    title: m.text('linkInvalid.title'),
    lead: m.text('linkInvalid.lead'),
    body: html`<p><a href="/app">${m.text('linkInvalid.again')}</a></p>`,
    tone: 'warning',
  });

export const noCompanyPage = (m: AppMessages): Html => noticePage({ m, title: m.text('noCompany.title'), lead: m.text('noCompany.lead'), tone: 'warning' });

/** The companies the person may work in, each a button that posts its user's id. */
export function chooseCompanyPage(
  m: AppMessages,
  options: { memberships: Membership[]; current: string | null; formToken: string; shell?: Parameters<typeof layout>[0]['shell'] },
): Html {
  return layout({
    m,
    title: m.text('choose.title'),
    shell: options.shell,
    main: html`<section class="panel" aria-labelledby="choose-title">
<h1 id="choose-title">${m.text('choose.title')}</h1>
<p>${m.text('choose.lead')}</p>
<ul class="choices">${options.memberships.map(
      (membership) => html`<li>
<form method="post" action="/app/company">
<input type="hidden" name="form_token" value="${options.formToken}">
<input type="hidden" name="user_id" value="${membership.userId}">
<button type="submit" class="choice">${m.text('choose.submit', { company: membership.companyName })}
<span class="choice-detail">${m.text('choose.as', { role: m.text(`role.${membership.role}`) })}${membership.userId === options.current ? ` ${m.text('choose.current')}` : ''}</span></button>
</form>
</li>`,
    )}</ul>
</section>`,
  });
}
