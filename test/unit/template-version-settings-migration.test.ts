/**
 * The migration that keeps each template version's settings apart, run on a database that has
 * versioned templates: every version already saved gets its row, with the template's settings,
 * the name its audit row recorded, when it was saved and who saved the latest; nothing else changes.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../../src/data/migrations.js';

const MIGRATION = '0024_template_version_settings';
let scratch: string | undefined;
afterAll(() => (scratch ? rm(scratch, { recursive: true, force: true }) : undefined));

/** A copy of the migrations whose journal ends before `tag`. */
async function migrationsBefore(tag: string) {
  scratch = await mkdtemp(join(tmpdir(), 'version-settings-migration-'));
  const before = join(scratch, 'before');
  await cp(migrationsFolder, before, { recursive: true });
  const journalPath = join(before, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((entry) => entry.tag === tag);
  expect(at).toBeGreaterThan(0);
  await writeFile(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
  return before;
}

const COMPANY = '00000000-0000-4000-8000-000000000001';
const USER = '00000000-0000-4000-8000-000000000002';
const NDA = '00000000-0000-4000-8000-000000000003';
const LEASE = '00000000-0000-4000-8000-000000000004';

describe(`migration ${MIGRATION}`, () => {
  it('gives every saved version of every template its settings row, losing nothing', async () => {
    const pg = new PGlite();
    const db = drizzle(pg);
    await migrate(db, { migrationsFolder: await migrationsBefore(MIGRATION) });
    await pg.exec(`
      insert into companies (id, name, api_signature_requests_per_period) values ('${COMPANY}', 'Initech', 10);
      insert into users (id, company_id, email, name, role) values ('${USER}', '${COMPANY}', 'sam@initech.test', 'Sam', 'owner');
      insert into templates (id, company_id, name, email_subject, email_message, expiry_days, reminders, signing_order, share_signing_links, language, version, updated_by)
        values ('${NDA}', '${COMPANY}', 'NDA v2', 'Sign it', 'Thanks', 30, '{"first_after_days":2,"every_days":3}', 'sequential', true, 'fr', 2, '${USER}'),
               ('${LEASE}', '${COMPANY}', 'Lease', null, null, null, null, 'parallel', false, null, 1, null);
      insert into template_documents (company_id, template_id, version, file_name, storage_key, size, sha256, pages, created_at) values
        ('${COMPANY}', '${NDA}', 1, 'nda.pdf', 'k1', 1, 'a', '[]', '2026-01-01T00:00:00Z'),
        ('${COMPANY}', '${NDA}', 2, 'nda.pdf', 'k1', 1, 'a', '[]', '2026-02-01T00:00:00Z'),
        ('${COMPANY}', '${LEASE}', 1, 'lease.pdf', 'k2', 1, 'b', '[]', '2026-03-01T00:00:00Z');
      insert into audit_events (company_id, kind, actor_type, data) values
        ('${COMPANY}', 'template.imported', 'admin', '{"template_id":"${NDA}","name":"NDA"}'),
        ('${COMPANY}', 'template.version_saved', 'user', '{"template_id":"${NDA}","name":"NDA v2","version":2}');
    `);

    await migrate(db, { migrationsFolder });

    const rows = (
      await pg.query<Record<string, unknown>>(
        `select template_id, version, name, email_subject, email_message, expiry_days, reminders, signing_order, share_signing_links, language,
          saved_at, saved_by from template_versions order by template_id, version`,
      )
    ).rows;
    const nda = { email_subject: 'Sign it', email_message: 'Thanks', expiry_days: 30, reminders: { first_after_days: 2, every_days: 3 } };
    expect(rows).toEqual([
      {
        template_id: NDA,
        version: 1,
        name: 'NDA',
        ...nda,
        signing_order: 'sequential',
        share_signing_links: true,
        language: 'fr',
        saved_at: new Date('2026-01-01T00:00:00Z'),
        saved_by: null,
      },
      {
        template_id: NDA,
        version: 2,
        name: 'NDA v2',
        ...nda,
        signing_order: 'sequential',
        share_signing_links: true,
        language: 'fr',
        saved_at: new Date('2026-02-01T00:00:00Z'),
        saved_by: USER,
      },
      {
        template_id: LEASE,
        version: 1,
        name: 'Lease',
        email_subject: null,
        email_message: null,
        expiry_days: null,
        reminders: null,
        signing_order: 'parallel',
        share_signing_links: false,
        language: null,
        saved_at: new Date('2026-03-01T00:00:00Z'),
        saved_by: null,
      },
    ]);
    // The templates keep their latest settings, as every send reads them.
    expect((await pg.query('select name, language, version from templates order by id')).rows).toEqual([
      { name: 'NDA v2', language: 'fr', version: 2 },
      { name: 'Lease', language: null, version: 1 },
    ]);
    // A version is saved once: a second row for it is refused.
    await expect(
      pg.exec(`insert into template_versions (company_id, template_id, version, name, signing_order, share_signing_links)
        values ('${COMPANY}', '${LEASE}', 1, 'Again', 'parallel', false)`),
    ).rejects.toThrow(/template_versions_pk/);
    await pg.close();
  });
});
