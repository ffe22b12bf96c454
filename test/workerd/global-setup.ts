/**
 * Runs in Node before the workerd suite: starts the Neon and QStash stand-ins (over PGlite, or over
 * the PostgreSQL of TEST_POSTGRES_URL in a database of its own), applies the migrations through the
 * Neon HTTP protocol, and seeds one company the Worker can be asked about. The Worker then reaches
 * the stand-ins on 127.0.0.1 through its real production adapters (vitest.workerd.config.ts passes
 * their addresses as bindings).
 */
import { neon, neonConfig } from '@neondatabase/serverless';
import { drizzle } from 'drizzle-orm/neon-http';
import { migrate } from 'drizzle-orm/neon-http/migrator';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startStandins } from '../../local/standins/start.js';
import { embeddedServices } from '../../src/adapters/embedded/embedded-services.js';
import { openNeonHttpDatabase } from '../../src/adapters/production/neon-http-database.js';
import { migrationsFolder } from '../../src/data/migrations.js';
import { createApiKey } from '../../src/domain/auth/manage-api-keys.js';
import { scopes } from '../../src/domain/auth/scopes.js';
import { createCompany } from '../../src/domain/companies/create-company.js';
import { importTemplate, storeTemplateDocument } from '../../src/domain/templates/import-template.js';
import { putUser } from '../../src/domain/users/put-user.js';
import { companyContext, verbContext } from '../../src/domain/verb-context.js';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { ndaDefinition } from '../support/factories.js';
import { WORKERD_DATABASE_URL, type WorkerdStack } from './workerd-stack.js';

export default async function setup(project: TestProject) {
  const postgres = process.env.TEST_POSTGRES_URL ? await createDatabase(process.env.TEST_POSTGRES_URL) : undefined;
  const standins = await startStandins({ postgresUrl: postgres?.url, timestampAuthority: true }).catch(async (error: unknown) => {
    await postgres?.drop();
    throw error;
  });
  const bundleDir = await mkdtemp(join(tmpdir(), 'workerd-pdf-worker-'));
  const teardown = async () => {
    await standins.close();
    await postgres?.drop();
    await rm(bundleDir, { recursive: true, force: true });
  };
  try {
    // The driver's endpoint is a global setting (the Worker sets its own from NEON_FETCH_ENDPOINT).
    neonConfig.fetchEndpoint = () => standins.neon.sqlEndpoint;
    await migrate(drizzle(neon(WORKERD_DATABASE_URL)), { migrationsFolder });
    const seeded = await seed(standins.neon.sqlEndpoint);
    const pdfWorkerScript = await bundlePdfWorker(bundleDir);
    project.provide('workerdStack', {
      sqlEndpoint: standins.neon.sqlEndpoint,
      backend: standins.neon.backend,
      qstash: {
        url: standins.qstash.url,
        token: standins.qstash.token,
        currentSigningKey: standins.qstash.signingKeys.current,
        nextSigningKey: standins.qstash.signingKeys.next,
      },
      timestampAuthority: standins.timestampAuthority!,
      pdfWorkerScript,
      seeded,
    });
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}

async function seed(sqlEndpoint: string): Promise<WorkerdStack['seeded']> {
  // The same adapter the Worker uses, here on Node, so the rows are written as the Worker writes them.
  const database = openNeonHttpDatabase(WORKERD_DATABASE_URL, { fetchEndpoint: sqlEndpoint });
  const services = embeddedServices({
    database,
    config: { tokenSecret: new TextEncoder().encode('unused-in-seeding-0123456789abcdef'), baseUrl: 'https://esign.example.test', keyEnvironment: 'live' },
  });
  try {
    const operator = { kind: 'operator' } as const;
    const company = await createCompany(verbContext(services, operator), {
      name: `Workerd ${crypto.randomUUID().slice(0, 8)}`,
      api_signature_requests_per_period: 10,
    });
    const ctx = companyContext(services, operator, company.id);
    const owner = `owner-${crypto.randomUUID().slice(0, 8)}@example.test`;
    await putUser(ctx, { email: owner, input: { name: 'Olivia Owner', role: 'owner', active: true, esign_seat: true } });
    const key = await createApiKey(ctx, { owner, scopes: [...scopes] });
    const definition = ndaDefinition();
    const stored = await storeTemplateDocument(ctx, { fileName: 'nda.pdf', bytes: await generateDocument(definition.name, 2, nodeFontSource()) });
    const template = await importTemplate(ctx, { definition, document: { fileName: 'nda.pdf', stored } });
    return { companyId: company.id, apiKey: key.key, apiKeyId: key.id, templateId: template.id, templateName: definition.name };
  } finally {
    await services.inProcessQueue.close();
  }
}

/**
 * The PDF Worker, bundled as a deploy bundles it: the pool builds the Worker of wrangler.toml
 * itself, but a Worker it binds to must come ready to run.
 */
async function bundlePdfWorker(dir: string): Promise<string> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', FORCE_COLOR: '0' };
  await promisify(execFile)(join(root, 'node_modules', '.bin', 'wrangler'), ['deploy', '--dry-run', '--config', 'wrangler.pdf.toml', '--outdir', dir], {
    cwd: root,
    env,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((err: { stdout?: string; stderr?: string }) => {
    throw new Error(`Bundling the PDF Worker failed:\n${err.stdout ?? ''}${err.stderr ?? ''}`);
  });
  return join(dir, 'pdf-worker.js');
}

/** A database of this run's own on the server of `serverUrl`, dropped again at the end. */
async function createDatabase(serverUrl: string) {
  const name = `esign_workerd_${process.pid}_${Date.now()}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}
