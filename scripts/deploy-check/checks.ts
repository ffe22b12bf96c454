/**
 * What `npm run deploy:check` checks before a deploy, without deploying: the configuration each
 * Worker would start with (the Workers' own checks, plus what only a deployment needs), the
 * migration state of the database, and that QStash (and Upstash Redis) answer with the credentials
 * given. Each check says what is wrong and what to do; none prints a secret.
 */
import { readFile } from 'node:fs/promises';
import { checkPdfWorkerConfig } from '../../src/entries/pdf-worker-config.js';
import { checkWorkerConfig, type WorkerConfig } from '../../src/entries/worker-config.js';

export type CheckResult = { name: string; ok: boolean; detail: string };

/** Variables that only `npm run dev` sets: in a deployment they would weaken it or send its SQL elsewhere. */
const DEVELOPMENT_ONLY = ['NEON_FETCH_ENDPOINT', 'ALLOW_IN_PROCESS_LIMITS', 'ALLOW_PRIVATE_WEBHOOK_TARGETS'] as const;

/**
 * The `[vars]` of wrangler.toml: `NAME = "value"` lines of that table, which is all this project
 * writes there (plain strings, one a line).
 */
export function wranglerVars(toml: string): Record<string, string> {
  const vars: Record<string, string> = {};
  let inVars = false;
  for (const raw of toml.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) inVars = line === '[vars]';
    else if (inVars) {
      const match = /^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*"((?:[^"\\]|\\.)*)"\s*(#.*)?$/.exec(line);
      if (match) vars[match[1]!] = JSON.parse(`"${match[2]}"`) as string;
    }
  }
  return vars;
}

export async function readWranglerVars(path: string): Promise<Record<string, string>> {
  return wranglerVars(await readFile(path, 'utf8'));
}

/**
 * The Worker's configuration from the committed `[vars]` and the secrets given here. Unlike `npm
 * run dev`, a deployment must have BASE_URL in `[vars]` (every push deploys what is committed),
 * reach itself over https, and set none of the development-only switches.
 */
export function checkConfiguration(vars: Record<string, string>, secrets: Record<string, string | undefined>): CheckResult & { config?: WorkerConfig } {
  const env: Record<string, string> = { ...vars };
  for (const [name, value] of Object.entries(secrets)) if (value !== undefined && value !== '' && !(name in vars)) env[name] = value;
  const { config, problems } = checkWorkerConfig(env);
  if (!vars.BASE_URL) problems.push('BASE_URL must be set under [vars] in wrangler.toml (committed, so that every deploy has it)');
  else if (!/^https:\/\//.test(vars.BASE_URL)) problems.push('BASE_URL must be an https:// address: signing links and QStash callbacks use it');
  else if (/^https:\/\/(localhost|127\.|\[::1\])/.test(vars.BASE_URL)) problems.push('BASE_URL must be the public address of the Worker, not a local one');
  for (const name of DEVELOPMENT_ONLY) if (name in env) problems.push(`${name} is for npm run dev only: remove it from the deployment`);
  if (problems.length > 0) return { name: 'configuration', ok: false, detail: problems.join('\n') };
  return { name: 'configuration', ok: true, detail: `every variable present and well-formed (BASE_URL ${config.BASE_URL})`, config };
}

/**
 * The application Worker's configuration (wrangler.app.toml's `[vars]` and the same secrets as the
 * API Worker's, set on it too): the API Worker's checks, and the same BASE_URL, on which the links
 * of its mail are built.
 */
export function checkApplicationConfiguration(
  vars: Record<string, string>,
  apiVars: Record<string, string>,
  secrets: Record<string, string | undefined>,
): CheckResult {
  const checked = checkConfiguration(vars, secrets);
  const problems = checked.ok ? [] : checked.detail.split('\n').map((line) => line.replace('in wrangler.toml', 'in wrangler.app.toml'));
  if (vars.BASE_URL && apiVars.BASE_URL && vars.BASE_URL !== apiVars.BASE_URL)
    problems.push("BASE_URL must be the same in wrangler.app.toml as in wrangler.toml: the application's links point at the API Worker");
  if (problems.length > 0) return { name: 'application Worker configuration', ok: false, detail: problems.join('\n') };
  return { name: 'application Worker configuration', ok: true, detail: `every variable present and well-formed (BASE_URL ${vars.BASE_URL})` };
}

/** The PDF Worker's configuration (wrangler.pdf.toml's `[vars]` and its secrets): the seal, and the authority if any. */
export function checkPdfConfiguration(vars: Record<string, string>, secrets: Record<string, string | undefined>): CheckResult {
  const env: Record<string, string> = { ...vars };
  for (const name of ['SEAL_KEY_PEM', 'SEAL_CERT_PEM', 'TSA_URL']) {
    const value = secrets[name];
    if (value !== undefined && value !== '' && !(name in vars)) env[name] = value;
  }
  const { config, problems } = checkPdfWorkerConfig(env);
  if (problems.length > 0) return { name: 'PDF Worker configuration', ok: false, detail: problems.join('\n') };
  const timestamp = config.TSA_URL ? `time-stamped at ${new URL(config.TSA_URL).host} (B-T)` : 'no time-stamping authority (B-B)';
  return { name: 'PDF Worker configuration', ok: true, detail: `the seal's key and certificate present and well-formed; ${timestamp}` };
}

export type Migration = { tag: string; when: number };

/** The migrations of this checkout, from drizzle-kit's journal. */
export async function journalMigrations(folder: string): Promise<Migration[]> {
  const journal = JSON.parse(await readFile(`${folder}/meta/_journal.json`, 'utf8')) as { entries: { tag: string; when: number }[] };
  return journal.entries.map(({ tag, when }) => ({ tag, when }));
}

/**
 * Compares what the database has applied (drizzle's `__drizzle_migrations`: one row per migration,
 * `created_at` its journal time) with this checkout's journal.
 */
export function compareMigrations(journal: Migration[], appliedTimes: number[]): CheckResult {
  const applied = new Set(appliedTimes);
  const missing = journal.filter((migration) => !applied.has(migration.when));
  const known = new Set(journal.map((migration) => migration.when));
  const unknown = appliedTimes.filter((time) => !known.has(time));
  if (unknown.length > 0) {
    return {
      name: 'migrations',
      ok: false,
      detail: `the database has ${unknown.length} migration(s) this checkout does not know: it was migrated from newer code. Deploy that code, or check out the branch the database belongs to`,
    };
  }
  if (missing.length > 0) {
    return {
      name: 'migrations',
      ok: false,
      detail: `${missing.length} of ${journal.length} migration(s) not applied (${missing.map((m) => m.tag).join(', ')}): run DATABASE_URL='<direct connection string>' npm run migrate`,
    };
  }
  return { name: 'migrations', ok: true, detail: `all ${journal.length} migrations applied` };
}

/** The times of the applied migrations, or undefined when drizzle's table is not there (never migrated). */
export type AppliedMigrations = () => Promise<number[] | undefined>;

/** Reads drizzle's record through `query`; a missing table or schema (42P01, 3F000) means never migrated. */
export async function readAppliedMigrations(query: (sql: string) => Promise<{ created_at: unknown }[]>): Promise<number[] | undefined> {
  try {
    const rows = await query('select created_at from drizzle.__drizzle_migrations');
    return rows.map((row) => Number(row.created_at));
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === '42P01' || code === '3F000') return undefined;
    throw err;
  }
}

export async function checkMigrations(journal: Migration[], applied: AppliedMigrations): Promise<CheckResult> {
  let times: number[] | undefined;
  try {
    times = await applied();
  } catch (err) {
    return { name: 'migrations', ok: false, detail: `cannot read the database: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (times === undefined) {
    return { name: 'migrations', ok: false, detail: `the database was never migrated: run DATABASE_URL='<direct connection string>' npm run migrate` };
  }
  return compareMigrations(journal, times);
}

const causeOf = (err: unknown) => {
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  return cause instanceof Error ? cause.message : String(cause);
};

/**
 * QStash answers its API with this token: its dead-letter queue is read (`GET /v2/dlq`), which
 * also tells how many messages already ran out of retries.
 */
export async function checkQStash(url: string, token: string, timeoutMs = 10_000): Promise<CheckResult> {
  const dlq = `${url.replace(/\/$/, '')}/v2/dlq`;
  let answer: Response;
  try {
    answer = await fetch(dlq, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    return { name: 'QStash', ok: false, detail: `unreachable at ${url}: ${causeOf(err)}` };
  }
  if (answer.status === 401 || answer.status === 403) {
    return { name: 'QStash', ok: false, detail: `${url} refused QSTASH_TOKEN (${answer.status}): copy the token again from the Upstash console` };
  }
  if (!answer.ok) return { name: 'QStash', ok: false, detail: `${url} answered ${answer.status} to GET /v2/dlq` };
  const body = (await answer.json().catch(() => ({}))) as { messages?: unknown[] };
  const dead = body.messages?.length ?? 0;
  return { name: 'QStash', ok: true, detail: `reachable, token accepted; ${dead} message(s) in the dead-letter queue` };
}

/** Upstash Redis answers `PING` over REST with these credentials. */
export async function checkRedis(url: string, token: string, timeoutMs = 10_000): Promise<CheckResult> {
  try {
    const answer = await fetch(`${url.replace(/\/$/, '')}/ping`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(timeoutMs) });
    if (answer.status === 401 || answer.status === 403)
      return { name: 'Upstash Redis', ok: false, detail: `${url} refused UPSTASH_REDIS_REST_TOKEN (${answer.status})` };
    const body = (await answer.json().catch(() => ({}))) as { result?: unknown };
    return body.result === 'PONG'
      ? { name: 'Upstash Redis', ok: true, detail: 'reachable, token accepted' }
      : { name: 'Upstash Redis', ok: false, detail: `${url} answered ${answer.status} to PING` };
  } catch (err) {
    return { name: 'Upstash Redis', ok: false, detail: `unreachable at ${url}: ${causeOf(err)}` };
  }
}
