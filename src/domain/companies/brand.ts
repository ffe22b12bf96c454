/**
 * A company's brand as the admin API reads and sets it: the display name its e-mails come from,
 * its logo, its accent colour and the default message of signing e-mails. One active brand
 * setting per company holds them. A change made by a user at the application is a row of the
 * company's audit trail (`settings.brand_changed`, the fields it set), in the same write.
 */
import { and, eq, sql } from 'drizzle-orm';
import { brandSettings } from '../../data/schema.js';
import { validationFailed } from '../../errors.js';
import { type Language, isLanguage } from '../../i18n/languages.js';
import { checkLogo } from '../../lib/brand-logo.js';
import type { CompanyReadContext } from '../read-context.js';
import type { CompanyContext } from '../verb-context.js';
import { logoUrlOf } from './brand-look.js';
import { settingsChanged } from './settings-audit.js';

/** The longest display name: it is the From name of e-mails and the signing page's header. */
export const MAX_DISPLAY_NAME_CHARS = 100;
/** The longest default message of signing e-mails: a few paragraphs. */
export const MAX_DEFAULT_MESSAGE_CHARS = 5000;

/** What a change gives; an absent field is kept as it is, `null` clears it. */
export type BrandChange = {
  display_name?: string | null | undefined;
  /** The image's bytes; its type is told from them. */
  logo?: Uint8Array | null | undefined;
  accent_color?: string | null | undefined;
  default_email_message?: string | null | undefined;
  /** The company's language of e-mails and the signing page, when a template names none (one of src/i18n's tags). */
  language?: string | null | undefined;
};

export type Brand = {
  company_id: string;
  display_name: string | null;
  accent_color: string | null;
  default_email_message: string | null;
  language: Language | null;
  logo: { type: 'image/png' | 'image/jpeg'; url: string; bytes: number } | null;
};

export async function getBrand(ctx: CompanyReadContext): Promise<Brand> {
  const { services, companyId } = ctx;
  const [row] = await services.database.db
    .select({
      displayName: brandSettings.displayName,
      accentColor: brandSettings.accentColor,
      defaultEmailMessage: brandSettings.defaultEmailMessage,
      language: brandSettings.language,
      logoType: brandSettings.logoType,
      logoDigest: brandSettings.logoSha256,
      logoBytes: sql<number | null>`octet_length(${brandSettings.logo})`,
    })
    .from(brandSettings)
    .where(and(eq(brandSettings.companyId, companyId), eq(brandSettings.active, true)))
    .limit(1);
  const url = await logoUrlOf(services, companyId, row?.logoDigest ?? null);
  return {
    company_id: companyId,
    display_name: row?.displayName ?? null,
    accent_color: row?.accentColor ?? null,
    default_email_message: row?.defaultEmailMessage ?? null,
    language: isLanguage(row?.language) ? row.language : null,
    logo: url && row?.logoType ? { type: row.logoType, url, bytes: Number(row.logoBytes) } : null,
  };
}

/** Sets the fields given on the company's active brand (the company was checked by the caller). */
export async function putBrand(ctx: CompanyContext, change: BrandChange): Promise<Brand> {
  const { services, companyId, now } = ctx;
  const values = brandValues(change);
  const fields = Object.keys(change).filter((field) => change[field as keyof BrandChange] !== undefined);
  if (Object.keys(values).length > 0) {
    await services.database.atomic((q) => [
      // Every company is made with an active brand; the insert is for one whose setting was deactivated.
      q
        .insert(brandSettings)
        .values({ companyId, active: true, createdAt: now, ...values })
        .onConflictDoUpdate({ target: brandSettings.companyId, targetWhere: sql`active`, set: values }),
      ...settingsChanged(q, ctx, 'settings.brand_changed', { fields }),
    ]);
  }
  return getBrand(ctx);
}

/** The columns a change sets, the logo checked and redrawn; 422 validation_failed for a logo refused. */
function brandValues(change: BrandChange): Partial<typeof brandSettings.$inferInsert> {
  const values: Partial<typeof brandSettings.$inferInsert> = {};
  if (change.display_name !== undefined) values.displayName = change.display_name;
  if (change.accent_color !== undefined) values.accentColor = change.accent_color?.toLowerCase() ?? null;
  if (change.default_email_message !== undefined) values.defaultEmailMessage = change.default_email_message;
  if (change.language !== undefined) values.language = change.language;
  if (change.logo === null) Object.assign(values, { logo: null, logoType: null });
  else if (change.logo !== undefined) {
    const logo = checkLogo(change.logo);
    if ('refused' in logo) throw validationFailed([{ path: 'logo', message: logo.refused }]);
    Object.assign(values, { logo: logo.bytes, logoType: logo.type });
  }
  return values;
}
