/**
 * `npm run deploy:check`: checks what a deploy would run with, and deploys nothing. The committed
 * `[vars]` of wrangler.toml, wrangler.pdf.toml and wrangler.app.toml, and the secrets from this
 * environment (or `--env-file FILE`, a file of NAME=value lines kept out of the repository): the
 * same values given to `wrangler secret put` (the seal's to the PDF Worker, the rest to the API
 * Worker and to the application Worker), and the R2 bucket the three Workers keep documents in.
 * Exits 1 if any check fails. See docs/deploy.md.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { describeDatabaseFailure } from '../src/adapters/postgres/database-failure.js';
import { migrationsFolder } from '../src/data/migrations.js';
import {
  type CheckResult,
  checkApplicationConfiguration,
  checkConfiguration,
  checkMigrations,
  checkPdfConfiguration,
  checkQStash,
  checkRedis,
  journalMigrations,
  readAppliedMigrations,
  readWranglerVars,
} from './deploy-check/checks.js';
import { checkBucketBindings, readBucketBindings } from './deploy-check/bucket-bindings.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** drizzle's record of what it applied at DATABASE_URL; undefined when it was never migrated. */
async function appliedMigrations(url: string): Promise<number[] | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    return await readAppliedMigrations(async (sql) => (await client.query<{ created_at: string }>(sql)).rows);
  } catch (err) {
    throw new Error(describeDatabaseFailure(err, url), { cause: err });
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { 'env-file': { type: 'string' }, wrangler: { type: 'string' }, 'pdf-wrangler': { type: 'string' }, 'app-wrangler': { type: 'string' } },
  });
  if (values['env-file']) {
    if (!existsSync(values['env-file'])) throw new Error(`No file ${values['env-file']}`);
    process.loadEnvFile(values['env-file']);
  }
  const apiWrangler = values.wrangler ?? `${root}wrangler.toml`;
  const pdfWrangler = values['pdf-wrangler'] ?? `${root}wrangler.pdf.toml`;
  const appWrangler = values['app-wrangler'] ?? `${root}wrangler.app.toml`;
  const vars = await readWranglerVars(apiWrangler);
  const results: CheckResult[] = [];
  const configuration = checkConfiguration(vars, process.env);
  results.push(configuration);
  results.push(checkPdfConfiguration(await readWranglerVars(pdfWrangler), process.env));
  results.push(checkApplicationConfiguration(await readWranglerVars(appWrangler), vars, process.env));
  results.push(
    checkBucketBindings([
      { name: 'The API Worker', file: apiWrangler, buckets: readBucketBindings(apiWrangler) },
      { name: 'The PDF Worker', file: pdfWrangler, buckets: readBucketBindings(pdfWrangler) },
      { name: 'The application Worker', file: appWrangler, buckets: readBucketBindings(appWrangler) },
    ]),
  );
  const env = { ...process.env, ...vars };

  if (env.DATABASE_URL && /^postgres(ql)?:\/\//.test(env.DATABASE_URL)) {
    results.push(await checkMigrations(await journalMigrations(migrationsFolder), () => appliedMigrations(env.DATABASE_URL!)));
  } else results.push({ name: 'migrations', ok: false, detail: 'not checked: DATABASE_URL is missing or not a postgres:// URL' });

  if (env.QSTASH_TOKEN) results.push(await checkQStash(env.QSTASH_URL ?? 'https://qstash.upstash.io', env.QSTASH_TOKEN));
  else results.push({ name: 'QStash', ok: false, detail: 'not checked: QSTASH_TOKEN is missing' });

  if (env.UPSTASH_REDIS_REST_URL && env.UPSTASH_REDIS_REST_TOKEN) results.push(await checkRedis(env.UPSTASH_REDIS_REST_URL, env.UPSTASH_REDIS_REST_TOKEN));

  for (const result of results) {
    const [first, ...rest] = result.detail.split('\n');
    console.log(`${result.ok ? 'ok  ' : 'FAIL'} ${result.name}: ${first}`);
    for (const line of rest) console.log(`     ${line}`);
  }
  const failed = results.filter((result) => !result.ok).length;
  console.log(failed === 0 ? '\nReady to deploy: npm run deploy' : `\n${failed} check(s) failed; nothing was deployed.`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exitCode = 1;
  },
);
