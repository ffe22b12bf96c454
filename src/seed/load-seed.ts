import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { apiKeys, companies, contacts, templates, users } from '../data/schema.js';
import { createApiKey } from '../domain/auth/manage-api-keys.js';
import { createCompany } from '../domain/companies/create-company.js';
import { importTemplate } from '../domain/templates/import-template.js';
import { TemplateDefinition } from '../domain/templates/template-definition.js';
import { parseOrFail } from '../http/validation-hook.js';
import { generateDocument } from '../pdf/generate-document.js';
import type { Services } from '../services.js';
import { SeedFile, SeedTemplate } from './seed-file.js';

export type SeededKey = { companyName: string; id: string; key: string; scopes: string[]; owner: string };

/**
 * Loads a seed file. Every row is added only if it is not there yet (companies by id or name,
 * users and contacts by e-mail, keys and templates by id, templates without id by name), so
 * loading the same file again changes nothing, and changes made since through the admin API stay.
 */
export async function loadSeedFile(services: Services, path: string): Promise<SeededKey[]> {
  const text = await readFile(path, 'utf8');
  return loadSeed(services, JSON.parse(text), dirname(resolve(path)));
}

export async function loadSeed(services: Services, input: unknown, baseDir: string): Promise<SeededKey[]> {
  const seed = parseOrFail(SeedFile, input, 'seed');
  const { db } = services.database;
  const keys: SeededKey[] = [];
  for (const company of seed.companies) {
    const [existing] = await db
      .select({ id: companies.id })
      .from(companies)
      .where(company.id ? eq(companies.id, company.id) : eq(companies.name, company.name))
      .limit(1);
    const companyId = existing?.id ?? (await createCompany(services, company)).id;

    for (const user of company.users) {
      await db
        .insert(users)
        .values({ companyId, email: user.email, name: user.name, role: user.role, active: user.active, esignSeat: user.esign_seat })
        .onConflictDoNothing();
    }
    for (const key of company.api_keys) {
      const [known] = await db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.id, key.id)).limit(1);
      if (!known) await createApiKey(services, companyId, key);
      keys.push({ companyName: company.name, id: key.id, key: key.key, scopes: key.scopes, owner: key.owner });
    }
    for (const [index, raw] of company.templates.entries()) {
      const where = `companies.${company.name}.templates[${index}]`;
      const { document: source, ...rest } = parseOrFail(SeedTemplate, raw, where);
      const template = parseOrFail(TemplateDefinition, rest, where);
      const [known] = await db
        .select({ id: templates.id })
        .from(templates)
        .where(template.id ? eq(templates.id, template.id) : and(eq(templates.companyId, companyId), eq(templates.name, template.name)))
        .limit(1);
      if (known) continue;
      const document =
        'path' in source
          ? { fileName: source.path.split('/').pop()!, bytes: new Uint8Array(await readFile(resolve(baseDir, source.path))) }
          : { fileName: 'document.pdf', bytes: await generateDocument(source.generate.title, source.generate.pages) };
      await importTemplate(services, companyId, template, document, { type: 'system', id: 'seed' });
    }
    for (const contact of company.contacts) {
      await db
        .insert(contacts)
        .values({ companyId, name: contact.name, email: contact.email, contactNumber: contact.contact_number ?? null })
        .onConflictDoNothing();
    }
  }
  return keys;
}
