/** The application's home (`/app`): the company, the person, and what their role allows. */
import { html } from 'hono/html';
import type { AppMessages } from '../../i18n/app-messages.js';
import { type Html, layout, type Shell } from './layout.js';

export function homePage(m: AppMessages, shell: Shell): Html {
  const { user, email } = shell.session;
  const role = m.text(`role.${user.role}`);
  return layout({
    m,
    title: m.text('home.title'),
    shell: { ...shell, current: 'home' },
    main: html`<section class="panel" aria-labelledby="home-title">
<h1 id="home-title">${m.text('home.title')}</h1>
<p class="lead">${m.html('home.lead', { company: user.companyName, role })}</p>
<p>${m.text(`role.${user.role}.summary`)}</p>
<h2>${m.text('home.details')}</h2>
<dl class="details">
<div><dt>${m.text('home.company')}</dt><dd>${user.companyName}</dd></div>
<div><dt>${m.text('home.name')}</dt><dd>${user.name}</dd></div>
<div><dt>${m.text('home.email')}</dt><dd>${email}</dd></div>
<div><dt>${m.text('home.role')}</dt><dd>${role}</dd></div>
</dl>
</section>`,
  });
}
