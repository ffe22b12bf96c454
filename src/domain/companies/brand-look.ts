/**
 * How a company looks to the people it sends documents to: the name its e-mails come from, its
 * logo and its accent colour, read from its active brand setting for e-mails and the signing page.
 *
 * The logo is served by the service at `{BASE_URL}/brand/{company_id}/logo/{version}`: mail clients
 * show a linked image far more reliably than a `data:` URI, and a link keeps e-mails small. The
 * version is an HMAC of the logo's digest under the token secret, so a new logo gets a new address
 * (the old one may be cached for a year) and no one can fetch a company's logo without having been
 * shown its address.
 */
import { and, eq } from 'drizzle-orm';
import { brandSettings, companies, recipients } from '../../data/schema.js';
import { derivedHmacKey, hmacBase64url, timingSafeEqual } from '../../lib/crypto.js';
import { isUuid } from '../../lib/ids.js';
import { asSingleLine } from '../../lib/single-line-text.js';
import type { Services } from '../../services.js';

/** The accent when a company has chosen none: the signing page's own blue. */
export const DEFAULT_ACCENT = '#1f5fbf';

export type BrandLook = {
  /** The brand's display name, else the company's name: never empty. */
  displayName: string;
  /** `#rrggbb`. */
  accentColor: string;
  /** Whether the company chose the colour (the signing page keeps its own otherwise). */
  accentChosen: boolean;
  logoUrl: string | null;
  /** The company's language for e-mails and pages, when one is set. */
  language: string | null;
};

const versionKey = (tokenSecret: Uint8Array) => derivedHmacKey(tokenSecret, 'esign brand logo v1');

/** The unguessable part of a logo's address, from the logo's SHA-256 digest (hex). */
export async function logoVersion(tokenSecret: Uint8Array, companyId: string, digestHex: string): Promise<string> {
  return (await hmacBase64url(await versionKey(tokenSecret), `${companyId}:${digestHex}`)).slice(0, 32);
}

/** A company's logo address from the logo's digest (kept beside it, `logo_sha256`); null without a logo. */
export async function logoUrlOf(services: Services, companyId: string, digestHex: string | null): Promise<string | null> {
  if (!digestHex) return null;
  return `${services.config.baseUrl}/brand/${companyId}/logo/${await logoVersion(services.config.tokenSecret, companyId, digestHex)}`;
}

const lookColumns = {
  companyId: companies.id,
  companyName: companies.name,
  displayName: brandSettings.displayName,
  accentColor: brandSettings.accentColor,
  // The digest the database made as the logo was written: the logo's bytes are not read to build an e-mail.
  logoDigest: brandSettings.logoSha256,
  language: brandSettings.language,
};

const looks = (services: Services) =>
  services.database.db
    .select(lookColumns)
    .from(companies)
    .leftJoin(brandSettings, and(eq(brandSettings.companyId, companies.id), eq(brandSettings.active, true)));

/** The look of a company; a company that is gone looks like the service itself. */
export async function brandLook(services: Services, companyId: string): Promise<BrandLook> {
  const [row] = await looks(services).where(eq(companies.id, companyId)).limit(1);
  return lookOf(services, row);
}

/** The look of the company that sent a recipient's envelope: for the signing page, which knows the recipient. */
export async function brandLookOfRecipient(services: Services, recipientId: string): Promise<BrandLook> {
  const [row] = await looks(services).innerJoin(recipients, eq(recipients.companyId, companies.id)).where(eq(recipients.id, recipientId)).limit(1);
  return lookOf(services, row);
}

type LookRow = {
  companyId: string;
  companyName: string;
  displayName: string | null;
  accentColor: string | null;
  logoDigest: string | null;
  language: string | null;
};

async function lookOf(services: Services, row: LookRow | undefined): Promise<BrandLook> {
  return {
    // A name stored before the single-line rule would break the From header: it is made one line.
    displayName: asSingleLine(row?.displayName || row?.companyName || 'E-signature').trim() || 'E-signature',
    accentColor: row?.accentColor ?? DEFAULT_ACCENT,
    accentChosen: Boolean(row?.accentColor),
    logoUrl: row ? await logoUrlOf(services, row.companyId, row.logoDigest) : null,
    language: row?.language ?? null,
  };
}

/** The logo at its address, or null for any other address (another version, another company). */
export async function logoAt(services: Services, companyId: string, version: string): Promise<{ bytes: Uint8Array; type: string } | null> {
  if (!isUuid(companyId) || !/^[A-Za-z0-9_-]{32}$/.test(version)) return null;
  const [row] = await services.database.db
    .select({ logo: brandSettings.logo, type: brandSettings.logoType, logoDigest: brandSettings.logoSha256 })
    .from(brandSettings)
    .where(and(eq(brandSettings.companyId, companyId), eq(brandSettings.active, true)))
    .limit(1);
  if (!row?.logo || !row.type || !row.logoDigest) return null;
  const expected = await logoVersion(services.config.tokenSecret, companyId, row.logoDigest);
  return timingSafeEqual(expected, version) ? { bytes: row.logo, type: row.type } : null;
}
