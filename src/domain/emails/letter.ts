/**
 * Every e-mail the service sends, as one shape (a `Letter`) drawn two ways: HTML in the company's
 * brand, and the plain-text alternative, from the same parts so that they never say different
 * things.
 *
 * The HTML is built with `hono/html`, as the signing page is: every value put into it is escaped,
 * and titles, names, messages and reasons come from senders and signers. Styles are inline (mail
 * clients drop style sheets) and the layout is tables (Outlook draws nothing else right). With
 * images off it still reads: the logo's alt text is the display name, and every button's link is
 * also written out as text.
 */
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { BrandLook } from '../companies/brand-look.js';

/** A paragraph as text and as HTML, both from one catalogue message (`Messages.text` and `.html`). */
export type Paragraph = { text: string; html: HtmlEscapedString };

export type Letter = {
  subject: string;
  /** The first line a mail client shows beside the subject. */
  preheader: string;
  paragraphs: Paragraph[];
  /** A person's own text, kept as they wrote it (line breaks too): the sender's message, a reason. */
  quote?: { label: string; text: string } | undefined;
  action?: { label: string; url: string /** Says that the link follows as text. */; fallback: string } | undefined;
  /** Small print after the action. */
  notes: string[];
  /** Why the e-mail came, at its foot. */
  footer: string;
};

export type Rendered = { text: string; html: string };

/** The language an e-mail is written in, and its script's direction. */
export type Speech = { language: string; dir: 'ltr' | 'rtl' };

export function renderLetter(letter: Letter, look: BrandLook, speech: Speech = { language: 'en', dir: 'ltr' }): Rendered {
  return { text: textOf(letter, look), html: htmlOf(letter, look, speech) };
}

function textOf(letter: Letter, look: BrandLook): string {
  const blocks: string[] = [look.displayName, ...letter.paragraphs.map((paragraph) => paragraph.text)];
  if (letter.quote) blocks.push(`${letter.quote.label}\n${letter.quote.text}`);
  if (letter.action) blocks.push(`${letter.action.label}: ${letter.action.url}`);
  if (letter.notes.length > 0) blocks.push(letter.notes.join('\n'));
  blocks.push(`--\n${letter.footer}`);
  return blocks.join('\n\n');
}

// Unquoted names (valid CSS): a quote would be escaped inside the style attribute.
const FONT = 'font-family:-apple-system,BlinkMacSystemFont,Segoe UI,Roboto,Noto Sans,Arial,sans-serif';
const SMALL = `${FONT};font-size:13px;line-height:1.5;color:#5f6368`;

function htmlOf(letter: Letter, look: BrandLook, { language, dir }: Speech): string {
  const accent = look.accentColor;
  const onAccent = readableOn(accent);
  const paragraph = ({ html: content }: Paragraph) => html`<p style="margin:0 0 16px">${content}</p>`;
  const header = look.logoUrl
    ? html`<img src="${look.logoUrl}" alt="${look.displayName}" height="48" style="display:block;height:48px;max-height:48px;width:auto;max-width:100%;border:0;${FONT};font-size:20px;font-weight:bold;color:#1d1d1f">`
    : html`<span style="${FONT};font-size:20px;font-weight:bold;color:#1d1d1f">${look.displayName}</span>`;
  const quote = letter.quote
    ? html`<p style="margin:0 0 4px;${SMALL}">${letter.quote.label}</p>
<div style="margin:0 0 16px;padding:12px 16px;border-${dir === 'rtl' ? 'right' : 'left'}:4px solid ${accent};background:#f6f7f9">${withBreaks(letter.quote.text)}</div>`
    : '';
  const action = letter.action
    ? html`<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 16px"><tr>
<td style="border-radius:6px;background:${accent}"><a href="${letter.action.url}" style="display:inline-block;padding:12px 24px;border-radius:6px;${FONT};font-size:16px;font-weight:bold;color:${onAccent};text-decoration:none">${letter.action.label}</a></td>
</tr></table>
<p style="margin:0 0 16px;${SMALL}">${letter.action.fallback}<br><a href="${letter.action.url}" style="color:#1a56a8;word-break:break-all">${letter.action.url}</a></p>`
    : '';
  const notes = letter.notes.map((note) => html`<p style="margin:0 0 8px;${SMALL}">${note}</p>`);
  const page = html`<!doctype html>
<html lang="${language}" dir="${dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${letter.subject}</title>
</head>
<body style="margin:0;padding:0;background:#f4f5f7">
<div style="display:none;max-height:0;overflow:hidden">${letter.preheader}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f4f5f7"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;background:#ffffff;border-top:4px solid ${accent};border-radius:8px">
<tr><td style="padding:24px 32px 8px">${header}</td></tr>
<tr><td dir="${dir}" style="padding:8px 32px 24px;${FONT};font-size:16px;line-height:1.5;color:#1d1d1f">
${letter.paragraphs.map(paragraph)}
${quote}
${action}
${notes}
</td></tr>
</table>
<p dir="${dir}" style="margin:16px 0 0;max-width:560px;${SMALL}">${letter.footer}</p>
</td></tr></table>
</body>
</html>`;
  return String(page);
}

/** A person's lines as they wrote them: `<br>` between them, which every mail client keeps. */
const withBreaks = (text: string) => text.split('\n').map((line, at) => (at === 0 ? line : html`<br>${line}`));

/**
 * Black or white, whichever reads better on the accent (WCAG contrast): a company may choose a
 * pale colour, and its button must still be legible.
 */
export function readableOn(hex: string): '#ffffff' | '#111111' {
  const [r, g, b] = [1, 3, 5].map((at) => {
    const channel = parseInt(hex.slice(at, at + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const withWhite = 1.05 / (luminance + 0.05);
  // #111111 has a relative luminance of 0.0056.
  const withBlack = (luminance + 0.05) / (0.0056 + 0.05);
  return withWhite >= withBlack ? '#ffffff' : '#111111';
}
