/**
 * The countries a company's verification codes may be texted to. Unset, every country with a
 * numbering plan; set, a send to a number of another country is refused, and so is a code for a
 * number stored before the list changed. A company that signs with people of a few countries
 * names them, and a stolen key cannot make the platform text numbers anywhere else (the costly
 * destinations of text-message pumping are rarely where a company's signers live).
 */
import { eq } from 'drizzle-orm';
import { isSupportedCountry } from 'libphonenumber-js/mobile';
import { companies } from '../../data/schema.js';
import { type Issue, validationFailed } from '../../errors.js';
import type { Services } from '../../services.js';
import type { CompanyReadContext } from '../read-context.js';
import type { CompanyContext } from '../verb-context.js';

/** There are some 250 countries with a numbering plan: a longer list names one twice. */
export const MAX_TEXT_MESSAGE_COUNTRIES = 250;

export type TextMessageCountries = { company_id: string; allowed_countries: string[] | null };

/** The list in its stored spelling (upper case, in the order given), or 422 validation_failed naming each item refused. */
export function checkCountries(raw: readonly string[]): string[] {
  const issues: Issue[] = [];
  const seen = new Map<string, number>();
  for (const [index, text] of raw.entries()) {
    const path = `allowed_countries[${index}]`;
    const country = text.toUpperCase();
    const first = seen.get(country);
    if (!/^[A-Z]{2}$/.test(country) || !isSupportedCountry(country)) {
      issues.push({
        path,
        message: `${JSON.stringify(text.slice(0, 20))} is not the two-letter code (ISO 3166-1) of a country with a numbering plan, such as GB or DE.`,
      });
    } else if (first !== undefined) issues.push({ path, message: `${country} is given twice: it is allowed_countries[${first}] already.` });
    else seen.set(country, index);
  }
  if (issues.length > 0) throw validationFailed(issues);
  return [...seen.keys()];
}

export async function textMessageCountries(services: Services, companyId: string): Promise<string[] | null> {
  const [row] = await services.database.db.select({ countries: companies.textMessageCountries }).from(companies).where(eq(companies.id, companyId)).limit(1);
  return row?.countries ?? null;
}

export async function getTextMessageCountries({ services, companyId }: CompanyReadContext): Promise<TextMessageCountries> {
  return { company_id: companyId, allowed_countries: await textMessageCountries(services, companyId) };
}

/** Replaces the company's list (the company was checked by the caller); null allows every country again. */
export async function putTextMessageCountries(ctx: CompanyContext, { raw }: { raw: readonly string[] | null }): Promise<TextMessageCountries> {
  const { services, companyId } = ctx;
  const countries = raw === null ? null : checkCountries(raw);
  await services.database.db.update(companies).set({ textMessageCountries: countries }).where(eq(companies.id, companyId));
  return { company_id: companyId, allowed_countries: countries };
}
