/**
 * The sending company's brand at the top of the signing page: its logo and display name, and its
 * accent colour as the `--brand-accent` custom property, from a stylesheet of the service's own
 * (the page's content policy takes no inline style). Everything is on the page's own origin.
 */
import { html } from 'hono/html';
import type { BrandLook } from '../../domain/companies/brand-look.js';
import type { Html } from './layout.js';

export type PageBrand = { displayName: string; logoPath: string | null; accentColor: string | null };

/** What the page shows of a company's look: the logo by its path, the colour only if the company chose one. */
export function pageBrandOf(look: BrandLook): PageBrand {
  return {
    displayName: look.displayName,
    logoPath: look.logoUrl ? new URL(look.logoUrl).pathname : null,
    accentColor: look.accentChosen ? look.accentColor : null,
  };
}

/** The stylesheet that sets the accent, for the page's <head>. */
export const brandStylesheet = (brand: PageBrand | undefined): Html | '' =>
  brand?.accentColor ? html`<link rel="stylesheet" href="/brand/accent/${brand.accentColor.slice(1)}.css">` : '';

/** The header's brand line: the logo (its name is the text beside it, so the image itself is decoration) and the name. */
export const brandLine = (brand: PageBrand): Html =>
  html`<p class="brand brand-of-sender">${brand.logoPath ? html`<img class="brand-logo" src="${brand.logoPath}" alt="" height="32">` : ''}<span class="brand-name">${brand.displayName}</span></p>`;
