/**
 * The frame of every page under `/sign/`. Pages are built with `hono/html`, which escapes every
 * value put into them: titles, messages and names come from senders and recipients, never trusted.
 * No inline script or style anywhere: the content policy allows neither. Every page is in the
 * signer's language (`m`), with its direction on <html>, and names its address for each language
 * in the switcher when it has one (`languageLinks`).
 */
import { html } from 'hono/html';
import { LANGUAGES, type Language, type Messages, languageNames } from '../../i18n/index.js';
import { type PageBrand, brandLine, brandStylesheet } from './brand-header.js';
import { type PageEmbed, embedMeta } from './embed-meta.js';

export type Html = ReturnType<typeof html>;

/**
 * The web font of Japanese and Chinese pages (scripts/copy-page-fonts.mjs), first in sign.css's font
 * list on those pages: many devices have no font of these scripts, or one with the other's glyph
 * forms. Its files are split by unicode range, so only the ranges the page shows are fetched.
 */
const webFont: Partial<Record<Language, string>> = { ja: 'noto-sans-jp', 'zh-Hans': 'noto-sans-sc' };

/** The page's address in each language: the same link with `?lang=` (and `keep`, the rest of its query to keep). */
export type LanguageLinks = { path: string; keep?: string };

export function layout(options: {
  m: Messages;
  title: string;
  main: Html;
  withScript?: boolean;
  /** The finished PDF's font (Noto Sans), for a page that shows values as the PDF will draw them. */
  documentFont?: boolean;
  languageLinks?: LanguageLinks;
  brand?: PageBrand | undefined;
  embed?: PageEmbed | undefined;
}): Html {
  const { m } = options;
  // Inside an integrator's frame, every page runs the script that tells the parent what happened.
  const withScript = options.withScript || options.embed !== undefined;
  return html`<!doctype html>
<html lang="${m.language}" dir="${m.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${options.title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/sign.css">
${webFont[m.language] ? html`<link rel="stylesheet" href="/static/vendor/fonts/${webFont[m.language]}.css">` : ''}
${options.documentFont ? html`<link rel="stylesheet" href="/static/vendor/fonts/noto-sans.css">` : ''}
${brandStylesheet(options.brand)}
${embedMeta(options.embed)}
${withScript ? html`<script type="module" src="/static/sign.js"></script>` : ''}
</head>
<body>
<a class="skip-link" href="#main">${m.text('page.skipLink')}</a>
<header class="site-header${options.brand ? ' branded' : ''}">
${options.brand ? brandLine(options.brand) : html`<p class="brand"><span class="brand-mark" aria-hidden="true"></span>${m.text('page.brand')}</p>`}
${options.languageLinks ? languageSwitcher(m, options.languageLinks) : ''}
</header>
<main id="main" tabindex="-1">
${options.main}
</main>
<footer class="site-footer">
<p>${m.text('page.personalLink')}</p>
</footer>
</body>
</html>`;
}

/**
 * The languages, as links that keep the token (no script needed): each named in its own language,
 * marked with that language so a screen reader speaks it right; the page's own is the current one.
 */
function languageSwitcher(m: Messages, links: LanguageLinks): Html {
  const href = (language: Language) => `${links.path}?lang=${encodeURIComponent(language)}${links.keep ?? ''}`;
  return html`<nav class="language-switcher" aria-label="${m.text('page.language')}">
<details>
<summary>${m.text('page.languageNow', { name: m.name })}</summary>
<ul>${LANGUAGES.map(
    (language) =>
      html`<li><a href="${href(language)}" hreflang="${language}" lang="${language}"${language === m.language ? html` aria-current="true"` : ''}>${languageNames[language]}</a></li>`,
  )}</ul>
</details>
</nav>`;
}

/** A page of one short message: the states with nothing to fill in, and the refusals. */
export function noticePage(options: {
  m: Messages;
  title: string;
  heading?: string;
  lead: Html | string;
  body?: Html;
  tone?: 'info' | 'success' | 'warning';
  languageLinks?: LanguageLinks;
  brand?: PageBrand | undefined;
  embed?: PageEmbed | undefined;
}): Html {
  return layout({
    m: options.m,
    languageLinks: options.languageLinks,
    brand: options.brand,
    embed: options.embed,
    title: options.title,
    main: html`<section class="notice notice-${options.tone ?? 'info'}" aria-labelledby="notice-title">
<h1 id="notice-title">${options.heading ?? options.title}</h1>
<p class="lead">${options.lead}</p>
${options.body ?? ''}
</section>`,
  });
}

/** A date as the signer's language writes it, in UTC (the service does not know the signer's time zone). */
export function dateText(m: Messages, at: Date, withTime = false): Html {
  return html`<time datetime="${at.toISOString()}">${m.date(at, { withTime })}</time>`;
}
