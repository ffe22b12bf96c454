import { readFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { apiKeys, companies, contacts, templates, users } from '../data/schema.js';
import { createApiKey } from '../domain/auth/manage-api-keys.js';
import { putBrand } from '../domain/companies/brand.js';
import { createCompany } from '../domain/companies/create-company.js';
import { importTemplate, storeTemplateDocument } from '../domain/templates/import-template.js';
import { companyContext, verbContext } from '../domain/verb-context.js';
import { DomainError, validationFailed } from '../errors.js';
import { parseOrFail } from '../domain/shared/parse-or-fail.js';
import { checkLogo } from '../lib/brand-logo.js';
import { nodeFontSource } from '../pdf/fonts/node-font-source.js';
import { generateDocument } from '../pdf/generate-document.js';
import type { Services } from '../services.js';
import { SeedFile } from './seed-file.js';

/** Makes the document a seed's `{ "generate": … }` names: in process by default; `npm start` has its PDF thread make it. */
export type DocumentGenerator = (title: string, pages: number) => Promise<Uint8Array>;
const generatedInProcess: DocumentGenerator = (title, pages) => generateDocument(title, pages, nodeFontSource());

export type SeededKey = { companyId: string; companyName: string; id: string; key: string; scopes: string[]; owner: string };

type SeedCompany = SeedFile['companies'][number];
type SeedTemplate = SeedCompany['templates'][number];

/**
 * Loads a seed file. Every row is added only if it is not there yet (companies by id or name,
 * users and contacts by e-mail, keys and templates by id, templates without id by name), so
 * loading the same file again changes nothing, and changes made since through the admin API stay.
 */
export async function loadSeedFile(services: Services, path: string, generate: DocumentGenerator = generatedInProcess): Promise<SeededKey[]> {
  const text = await readFile(path, 'utf8');
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (err) {
    throw new Error(`The seed file ${path} is not JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  return loadSeed(services, input, dirname(resolve(path)), generate);
}

/**
 * The whole seed is validated before anything is written. Problems only the writing finds (a PDF
 * that is missing or unreadable, a field off its page, a key owner who is not a user) are reported
 * with their path in the seed too; what was written before them stays, and loading the corrected
 * file completes it.
 */
export async function loadSeed(services: Services, input: unknown, baseDir: string, generate: DocumentGenerator = generatedInProcess): Promise<SeededKey[]> {
  const seed = parseOrFail(SeedFile, input);
  const keys: SeededKey[] = [];
  for (const [index, company] of seed.companies.entries()) {
    keys.push(...(await loadCompany(services, company, `companies[${index}]`, baseDir, generate)));
  }
  return keys;
}

async function loadCompany(services: Services, company: SeedCompany, where: string, baseDir: string, generate: DocumentGenerator): Promise<SeededKey[]> {
  const { db } = services.database;
  const [existing] = await db
    .select({ id: companies.id })
    .from(companies)
    .where(company.id ? eq(companies.id, company.id) : eq(companies.name, company.name))
    .limit(1);
  // The brand's look is set with the company, as its message is: loading the seed again leaves
  // what an operator changed since. So its logo is checked before the company is made.
  const brand = company.brand;
  const logo = !existing && brand?.logo ? await readLogo(brand.logo.path, baseDir, `${where}.brand.logo`) : undefined;
  // The seed acts as the operator would through the admin API.
  const operator = { kind: 'operator' } as const;
  const companyId = existing?.id ?? (await createCompany(verbContext(services, operator), company)).id;
  const ctx = companyContext(services, operator, companyId);
  if (!existing && (brand?.display_name || brand?.accent_color || logo)) {
    await atPath(`${where}.brand`, () => putBrand(ctx, { display_name: brand?.display_name, accent_color: brand?.accent_color, logo }));
  }

  for (const user of company.users) {
    await db
      .insert(users)
      .values({ companyId, email: user.email, name: user.name, role: user.role, active: user.active, esignSeat: user.esign_seat })
      .onConflictDoNothing();
  }

  const keys: SeededKey[] = [];
  for (const [index, key] of company.api_keys.entries()) {
    const [known] = await db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.id, key.id)).limit(1);
    if (!known) await atPath(`${where}.api_keys[${index}]`, () => createApiKey(ctx, key));
    keys.push({ companyId, companyName: company.name, id: key.id, key: key.key, scopes: key.scopes, owner: key.owner });
  }

  for (const [index, template] of company.templates.entries()) {
    const [known] = await db
      .select({ id: templates.id })
      .from(templates)
      .where(template.id ? eq(templates.id, template.id) : and(eq(templates.companyId, companyId), eq(templates.name, template.name)))
      .limit(1);
    if (known) continue;
    const templateWhere = `${where}.templates[${index}]`;
    const { document: source, ...definition } = template;
    const document = await readDocument(source, baseDir, `${templateWhere}.document`, generate);
    await atPath(templateWhere, async () => {
      const stored = await storeTemplateDocument(ctx, document);
      return importTemplate(ctx, { definition, document: { fileName: document.fileName, stored }, actor: { type: 'system', id: 'seed' } });
    });
  }

  for (const contact of company.contacts) {
    await db
      .insert(contacts)
      .values({ companyId, name: contact.name, email: contact.email, contactNumber: contact.contact_number ?? null })
      .onConflictDoNothing();
  }
  return keys;
}

async function readDocument(source: SeedTemplate['document'], baseDir: string, where: string, generate: DocumentGenerator) {
  if ('generate' in source) {
    return { fileName: 'document.pdf', bytes: await generate(source.generate.title, source.generate.pages) };
  }
  return readSeedFile(source.path, baseDir, where, 'A document of the seed cannot be read.');
}

async function readLogo(path: string, baseDir: string, where: string): Promise<Uint8Array> {
  const { bytes } = await readSeedFile(path, baseDir, where, 'The logo of the seed cannot be read.');
  const checked = checkLogo(bytes);
  if ('refused' in checked) throw validationFailed([{ path: where, message: checked.refused }], 'The logo of the seed is not taken.');
  return bytes;
}

/** A file the seed names, relative to the seed file. */
async function readSeedFile(path: string, baseDir: string, where: string, unreadable: string) {
  const file = resolve(baseDir, path);
  try {
    return { fileName: basename(file), bytes: new Uint8Array(await readFile(file)) };
  } catch (err) {
    const reason = err instanceof Error && 'code' in err && err.code === 'ENOENT' ? 'No such file' : 'The file cannot be read';
    throw validationFailed([{ path: `${where}.path`, message: `${reason}: ${file}.` }], unreadable);
  }
}

/** Runs a verb for one entry of the seed, placing the problems it reports under that entry's path. */
async function atPath<T>(where: string, verb: () => Promise<T>): Promise<T> {
  try {
    return await verb();
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    if (err.code === 'validation_failed' && Array.isArray(err.details.issues)) {
      const issues = (err.details.issues as { path: string; message: string }[]).map((issue) => ({
        path: issue.path ? `${where}.${issue.path}` : where,
        message: issue.message,
      }));
      throw validationFailed(issues, err.message);
    }
    if (err.code === 'user_not_found') throw validationFailed([{ path: `${where}.owner`, message: err.message }]);
    if (err.code === 'invalid_document') throw validationFailed([{ path: `${where}.document`, message: err.message }]);
    throw err;
  }
}
