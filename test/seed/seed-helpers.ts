/**
 * Seeds for the seed tests: the demo seed as the repository ships it, and copies of it under fresh
 * ids, so that a test that changes what it loaded (rotates a key, deactivates a user) never touches
 * the rows of the shipped seed that other tests, on a shared database, rely on.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { count, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import {
  apiKeys,
  auditEvents,
  brandSettings,
  companies,
  contacts,
  templateDocuments,
  templateFields,
  templateRoles,
  templates,
  users,
} from '../../src/data/schema.js';
import type { SeedFile } from '../../src/seed/seed-file.js';
import type { Services } from '../../src/services.js';

export type SeedInput = z.input<typeof SeedFile>;

export const repoSeedPath = fileURLToPath(new URL('../../seed/demo.json', import.meta.url));
export const contractSeedPath = '/work/shared/contract/seed-example.json';

export const readSeed = (path: string): SeedInput => JSON.parse(readFileSync(path, 'utf8')) as SeedInput;

/** The demo seed under new company, key and template ids, new company names and new key secrets. */
export function freshDemoSeed(): SeedInput {
  const tag = crypto.randomUUID().replaceAll('-', '').slice(0, 10);
  const seed = readSeed(repoSeedPath);
  for (const company of seed.companies) {
    company.id = crypto.randomUUID();
    company.name = `${company.name} ${tag}`;
    for (const key of company.api_keys ?? []) {
      key.id = `${key.id}_${tag}`;
      key.key = `${key.key}${tag}`;
    }
    for (const template of (company.templates ?? []) as { id?: string; document: { path?: string } }[]) {
      template.id = crypto.randomUUID();
      // A document beside the seed file, found wherever the copy is loaded from.
      if (template.document.path) template.document.path = fileURLToPath(new URL(template.document.path, new URL('../../seed/', import.meta.url)));
    }
  }
  return seed;
}

/** How many rows each table holds for the given companies. */
export async function countRows(services: Services, companyIds: string[]): Promise<Record<string, number>> {
  const { db } = services.database;
  const tables = { brandSettings, users, apiKeys, templates, templateDocuments, templateRoles, templateFields, contacts, auditEvents };
  const counts: Record<string, number> = {};
  const [companyRows] = await db.select({ n: count() }).from(companies).where(inArray(companies.id, companyIds));
  counts.companies = companyRows?.n ?? 0;
  for (const [name, table] of Object.entries(tables)) {
    const [row] = await db.select({ n: count() }).from(table).where(inArray(table.companyId, companyIds));
    counts[name] = row?.n ?? 0;
  }
  return counts;
}
