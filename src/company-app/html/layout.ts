/**
 * The frame of every page of the company application. Pages are built with `hono/html`, which
 * escapes every value put into them (names and companies' names are typed by people). No inline
 * script or style: the content policy allows neither. Signed in, the frame is the shell: the
 * company's name, the person, the navigation, the switch of company and sign-out.
 */
import { html } from 'hono/html';
import { can, type Permission } from '../../domain/app-access/roles.js';
import type { AppSession } from '../../domain/app-access/sessions.js';
import type { AppMessages } from '../../i18n/app-messages.js';

export type Html = ReturnType<typeof html>;

/** The signed-in frame's parts: the session it shows, and the token of its sign-out form. */
export type Shell = { session: AppSession & { user: NonNullable<AppSession['user']> }; formToken: string; current?: NavItem['id'] };

/**
 * The navigation's entries, each a page that exists: a page adds its entry here when it is built,
 * with the permission (src/domain/app-access/roles.ts) that shows it.
 */
export type NavItem = {
  id: 'home' | 'envelopes' | 'templates' | 'keys' | 'users' | 'webhooks' | 'settings' | 'audit';
  href: string;
  label: (m: AppMessages) => string;
  permission?: Permission;
};
export const navigation: NavItem[] = [
  { id: 'home', href: '/app', label: (m) => m.text('shell.home') },
  { id: 'envelopes', href: '/app/envelopes', label: (m) => m.text('shell.envelopes'), permission: 'envelopes:read' },
  { id: 'templates', href: '/app/templates', label: (m) => m.text('shell.templates'), permission: 'templates:read' },
  { id: 'keys', href: '/app/keys', label: (m) => m.text('shell.keys'), permission: 'keys:manage' },
  { id: 'users', href: '/app/users', label: (m) => m.text('shell.users'), permission: 'users:manage' },
  { id: 'webhooks', href: '/app/webhooks', label: (m) => m.text('shell.webhooks'), permission: 'webhooks:read' },
  { id: 'settings', href: '/app/settings', label: (m) => m.text('shell.settings'), permission: 'settings:manage' },
  { id: 'audit', href: '/app/audit', label: (m) => m.text('shell.audit'), permission: 'audit:read' },
];

export function layout(options: { m: AppMessages; title: string; main: Html; shell?: Shell | undefined }): Html {
  const { m, shell } = options;
  return html`<!doctype html>
<html lang="${m.language}" dir="${m.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${m.text('page.title', { page: options.title, app: shell?.session.user.companyName || m.text('page.appName') })}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/app.css">
</head>
<body>
<a class="skip-link" href="#main">${m.text('page.skipLink')}</a>
${shell ? shellHeader(m, shell) : html`<header class="app-header"><p class="app-brand">${m.text('page.appName')}</p></header>`}
<main id="main" tabindex="-1">
${options.main}
</main>
</body>
</html>`;
}

function shellHeader(m: AppMessages, { session, formToken, current }: Shell): Html {
  const { user } = session;
  return html`<header class="app-header">
<p class="app-brand">${user.companyName}</p>
<nav class="app-nav" aria-label="${m.text('shell.nav')}">
<ul>${navigation.filter((item) => !item.permission || can(user.role, item.permission)).map((item) => html`<li><a href="${item.href}"${item.id === current ? html` aria-current="page"` : ''}>${item.label(m)}</a></li>`)}</ul>
</nav>
<div class="app-account">
<p>${m.text('shell.account', { name: user.name })}</p>
${session.memberships > 1 ? html`<a href="/app/company">${m.text('shell.switch')}</a>` : ''}
<form method="post" action="/app/sign-out">
<input type="hidden" name="form_token" value="${formToken}">
<button type="submit" class="button-quiet">${m.text('shell.signOut')}</button>
</form>
</div>
</header>`;
}

/** A page of one short message: the states with nothing to fill in, and the refusals. */
export function noticePage(options: { m: AppMessages; title: string; lead: Html | string; body?: Html; tone?: 'info' | 'warning'; shell?: Shell }): Html {
  return layout({
    m: options.m,
    title: options.title,
    shell: options.shell,
    main: html`<section class="notice notice-${options.tone ?? 'info'}" aria-labelledby="notice-title">
<h1 id="notice-title">${options.title}</h1>
<p class="lead">${options.lead}</p>
${options.body ?? ''}
</section>`,
  });
}
