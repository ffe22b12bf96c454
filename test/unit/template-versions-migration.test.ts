/**
 * The migration that versions templates, run on a database that has templates and envelopes: what
 * was there becomes version 1 of each template, and a second version can be stored beside it.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../../src/data/migrations.js';

const MIGRATION = '0023_template_versions';
let scratch: string | undefined;
afterAll(() => (scratch ? rm(scratch, { recursive: true, force: true }) : undefined));

/** A copy of the migrations whose journal ends before `tag`, and the full one. */
async function foldersAround(tag: string) {
  scratch = await mkdtemp(join(tmpdir(), 'versions-migration-'));
  const before = join(scratch, 'before');
  await cp(migrationsFolder, before, { recursive: true });
  const journalPath = join(before, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((entry) => entry.tag === tag);
  expect(at).toBeGreaterThan(0);
  await writeFile(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
  return before;
}

describe(`migration ${MIGRATION}`, () => {
  it('makes existing templates, their parts and envelopes version 1, and lets a version 2 be stored', async () => {
    const pg = new PGlite();
    const db = drizzle(pg);
    await migrate(db, { migrationsFolder: await foldersAround(MIGRATION) });
    await pg.exec(`
      insert into companies (id, name, api_signature_requests_per_period) values ('00000000-0000-4000-8000-000000000001', 'Initech', 10);
      insert into users (id, company_id, email, name, role) values ('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', 'sam@initech.test', 'Sam', 'owner');
      insert into templates (id, company_id, name, signing_order) values ('00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-000000000001', 'NDA', 'parallel');
      insert into template_documents (company_id, template_id, file_name, storage_key, size, sha256, pages)
        values ('00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000003', 'nda.pdf', 'k', 1, 'abc', '[{"width":612,"height":792}]');
      insert into template_roles (id, company_id, template_id, name, type, "order")
        values ('00000000-0000-4000-8000-000000000004', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000003', 'Client', 'signer', 1);
      insert into template_fields (company_id, template_id, role_id, type, page, x, y, width, height)
        values ('00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-000000000004', 'signature', 1, 1, 1, 10, 10);
      insert into envelopes (id, company_id, template_id, sender_user_id, sender_email, title, email_subject, status, signing_order, share_signing_links, document_sha256)
        values ('env_1', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-000000000002',
          'sam@initech.test', 'NDA', 'Sign', 'sent', 'parallel', false, 'abc');
    `);

    await migrate(db, { migrationsFolder });

    const one = async (query: string) => (await pg.query<Record<string, unknown>>(query)).rows;
    expect(await one('select version, archived_at, updated_by from templates')).toEqual([{ version: 1, archived_at: null, updated_by: null }]);
    expect(await one('select version from template_documents')).toEqual([{ version: 1 }]);
    expect(await one('select version from template_roles')).toEqual([{ version: 1 }]);
    expect(await one('select version from template_fields')).toEqual([{ version: 1 }]);
    expect(await one('select template_version from envelopes')).toEqual([{ template_version: 1 }]);

    // A version 2 of the same document and role name fits beside version 1; a second version 1 does not.
    await pg.exec(`
      insert into template_documents (company_id, template_id, version, file_name, storage_key, size, sha256, pages)
        values ('00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000003', 2, 'nda.pdf', 'k', 1, 'abc', '[]');
      insert into template_roles (company_id, template_id, version, name, type, "order")
        values ('00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000003', 2, 'Client', 'signer', 1);
    `);
    await expect(
      pg.exec(`insert into template_roles (company_id, template_id, version, name, type, "order")
        values ('00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000003', 1, 'Client', 'signer', 1)`),
    ).rejects.toThrow(/template_roles_name/);
    await expect(
      pg.exec(`insert into template_documents (company_id, template_id, version, file_name, sha256, pages)
        values ('00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000003', 2, 'x.pdf', 'abc', '[]')`),
    ).rejects.toThrow(/template_documents_version/);
    await pg.close();
  });
});
