/**
 * `npm run dev`: the service on the real edge runtime (workerd, through `wrangler dev`) with the
 * production adapters, pointed at local services through the stand-ins in local/standins:
 * Neon's SQL-over-HTTP over DATABASE_URL's PostgreSQL (else PGlite in DATA_DIR), Upstash's Redis
 * REST over REDIS_URL's Redis (else in-process limits), QStash, and an e-mail API whose mail lands
 * in a dev mailbox. The production code runs unchanged; only its configuration points here.
 *
 * One file although long: it is the one process that owns the stand-ins, wrangler's process group
 * and the front proxy, and stopping it must stop all of them, whatever ends it.
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { Agent, createServer, type IncomingHttpHeaders, type IncomingMessage, request as forward, type Server } from 'node:http';
import { freePort } from '../local/free-port.js';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { Hono } from 'hono';
import type { R2Bucket } from '@cloudflare/workers-types/index.js';
import { getPlatformProxy, unstable_readConfig } from 'wrangler';
import { z } from 'zod';
import { createEmailApiStandin } from '../local/standins/email-api.js';
import { createSmsApiStandin } from '../local/standins/sms-api.js';
import { createPdfFontsStandin } from '../local/standins/pdf-fonts.js';
import { type Standin, serveStandin } from '../local/standins/standin.js';
import { startStandins } from '../local/standins/start.js';
import { type EmbeddedServices, embeddedServices } from '../src/adapters/embedded/embedded-services.js';
import { devPages } from '../src/dev-pages/dev-pages.js';
import { openPgliteDatabase } from '../src/adapters/embedded/pglite-database.js';
import { openNodePostgresDatabase } from '../src/adapters/postgres/node-postgres-database.js';
import { R2DocumentStore } from '../src/adapters/production/r2-document-store.js';
import { loadOrCreateLocalSeal, loadOrCreateLocalSecrets } from '../src/entries/local-secrets.js';
import { readNodeConfig } from '../src/entries/node-config.js';
import { demoSeedPath, describeFailure, settleUnreadBody, welcome } from '../src/entries/startup-output.js';
import { derivedSecretKey } from '../src/domain/webhooks/secret-box.js';
import { loadSeedFile } from '../src/seed/load-seed.js';

const DevEnv = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^redis:\/\//, 'REDIS_URL must be a redis:// URL')
    .optional(),
  QSTASH_RETRY_SCALE: z.coerce.number().positive().max(1, 'QSTASH_RETRY_SCALE must be a number from 0 to 1').optional(),
});

const root = fileURLToPath(new URL('..', import.meta.url));
const EMAIL_API_KEY = 'local-email-api-key';
/** The Twilio stand-in's account: any SID of the right shape and any token do. */
const TWILIO = { accountSid: `AC${'0'.repeat(32)}`, authToken: 'local-twilio-auth-token', from: '+15005550006' };

/**
 * wrangler dev's process group (wrangler and workerd). It runs detached, so that it is signalled
 * as a whole; it is therefore stopped here whenever this process ends, however it ends (a signal,
 * a failure at start, an uncaught error), and never outlives it.
 */
let wranglerGroup: number | undefined;
function stopWrangler() {
  if (wranglerGroup === undefined) return;
  try {
    process.kill(-wranglerGroup, 'SIGTERM');
  } catch {
    // ESRCH: the group has already gone.
  }
  wranglerGroup = undefined;
}
process.on('exit', stopWrangler);
// Node skips 'exit' listeners when an uncaught error ends the process; end it here instead.
process.on('uncaughtException', (err) => {
  console.error(err);
  process.exit(1);
});

/** The Worker's readiness: `ready` resolves once it answers, and rejects if the service stops first. */
function startingRuntime() {
  let open!: () => void;
  let fail!: () => void;
  const ready = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = () => reject(new Error('npm run dev is stopping'));
  });
  ready.catch(() => undefined);
  return { ready, open, fail };
}

async function main() {
  const config = readNodeConfig(process.env);
  const dev = DevEnv.safeParse(process.env);
  if (!dev.success) throw new Error(`Invalid environment: ${dev.error.issues.map((issue) => issue.message).join('; ')}`);
  const { DATABASE_URL, REDIS_URL, QSTASH_RETRY_SCALE } = dev.data;
  // The public port is taken first, so that a port in use fails at once; wrangler dev gets another.
  // The e-mail API stand-in's mailbox is served on it too, at /dev/mailbox as under `npm start`.
  // Requests that reach it before the Worker answers wait for it (runtime.ready) instead of failing.
  const workerPort = await freePort();
  const emailApi = await serveStandin(createEmailApiStandin(EMAIL_API_KEY));
  // Twilio's stand-in: the codes of sms_code roles land in its box, at /dev/sms on the public port.
  const smsApi = await serveStandin(createSmsApiStandin(TWILIO));
  // The other development pages (the webhook inbox, the embedding example) are served once the
  // database is open (below); until then their port answers 503.
  const devPagesStandin = laterDevPages();
  const devPages = await serveStandin(devPagesStandin);
  const runtime = startingRuntime();
  const ports: FrontPorts = { worker: workerPort, mailbox: portOf(emailApi.url), sms: portOf(smsApi.url), devPages: portOf(devPages.url) };
  const front = await serveFront(config.PORT, ports, runtime.ready).catch(async (err: unknown) => {
    await Promise.allSettled([emailApi.close(), smsApi.close(), devPages.close()]);
    throw err;
  });
  const secrets = await loadOrCreateLocalSecrets(config.DATA_DIR);
  const tokenSecret = config.TOKEN_SECRET ?? secrets.token_secret;
  const adminToken = config.ADMIN_TOKEN ?? secrets.admin_token;
  // The Worker requires a sealing identity; locally it is the self-signed one kept in DATA_DIR.
  const seal = await loadOrCreateLocalSeal(config.DATA_DIR);

  // Migrate and seed first, over the same database the Neon stand-in will serve.
  const pglite = DATABASE_URL ? undefined : new PGlite(join(config.DATA_DIR, 'pgdata'));
  const database = DATABASE_URL ? await openNodePostgresDatabase(DATABASE_URL) : await openPgliteDatabase(pglite);
  // The seed's documents go where the Workers will read them: the local R2 bucket that wrangler dev
  // keeps with the rest of its state (--persist-to below), reached through wrangler's own proxy of
  // it. wrangler dev keeps that state in the folder's v3/; the proxy takes the path as it is.
  const persistTo = join(config.DATA_DIR, 'wrangler');
  const platform = await getPlatformProxy<{ DOCUMENTS: R2Bucket }>({ configPath: join(root, 'wrangler.toml'), persist: { path: join(persistTo, 'v3') } });
  const seeding = embeddedServices({
    database,
    config: { tokenSecret: new TextEncoder().encode(tokenSecret), adminToken, baseUrl: config.BASE_URL, keyEnvironment: 'test' },
    documents: new R2DocumentStore(platform.env.DOCUMENTS),
  });
  const keys = await loadSeedFile(seeding, config.SEED_FILE ?? fileURLToPath(demoSeedPath)).finally(() => platform.dispose());
  // The Worker runs the queue here (QStash); messages an `npm start` left in the same folder wait for it.
  await seeding.inProcessQueue.close();
  // The webhook inbox reads the subscriptions' secrets from this same database, with the key the
  // Worker is given below (derived from the same token secret), to verify what the Worker posts.
  devPagesStandin.serve(seeding);

  // Retries of the local QStash can be hurried (0.05 turns its 12 s first retry into 0.6 s), to
  // watch a failing webhook receiver recover without waiting minutes.
  // Without a TSA_URL of its own, the Worker time-stamps its seals at a local authority (PAdES B-T).
  const standins = await startStandins({
    postgresUrl: DATABASE_URL,
    pglite,
    redisUrl: REDIS_URL,
    qstash: { retryTimeScale: QSTASH_RETRY_SCALE ?? 1 },
    timestampAuthority: !config.TSA_URL,
  });

  const vars: Record<string, string> = {
    // The driver insists on a complete URL; the stand-in serves whichever database it was given.
    DATABASE_URL: 'postgres://dev:dev@neon.localhost/esign',
    NEON_FETCH_ENDPOINT: standins.neon.sqlEndpoint,
    ...(standins.redis ? { UPSTASH_REDIS_REST_URL: standins.redis.url, UPSTASH_REDIS_REST_TOKEN: standins.redis.token } : { ALLOW_IN_PROCESS_LIMITS: 'true' }),
    QSTASH_URL: standins.qstash.url,
    QSTASH_TOKEN: standins.qstash.token,
    QSTASH_CURRENT_SIGNING_KEY: standins.qstash.signingKeys.current,
    QSTASH_NEXT_SIGNING_KEY: standins.qstash.signingKeys.next,
    TOKEN_SECRET: tokenSecret,
    ADMIN_TOKEN: adminToken,
    BASE_URL: config.BASE_URL,
    EMAIL_API_URL: `${emailApi.url}/emails`,
    EMAIL_API_KEY,
    EMAIL_FROM: 'E-Signing (dev) <sign@localhost>',
    TWILIO_ACCOUNT_SID: TWILIO.accountSid,
    TWILIO_AUTH_TOKEN: TWILIO.authToken,
    TWILIO_FROM: TWILIO.from,
    TWILIO_API_URL: smsApi.url,
    // The key `npm start` derives from the same token secret: subscriptions made by either open in both.
    WEBHOOK_SECRET_KEYS: await derivedKeySetting(tokenSecret),
    ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
    // Redis sits behind the stand-in in this one Node process, which a loaded machine slows: the
    // deployed 1 s would turn sends into 503s here. A Redis that stalls still answers 503 in 5 s.
    REDIS_TIMEOUT_MS: '5000',
  };
  // The variables go in a file inside DATA_DIR rather than on the command line, where any user of
  // the machine could read them.
  await mkdir(config.DATA_DIR, { recursive: true });
  const envFile = join(config.DATA_DIR, 'wrangler-dev.env');
  await writeFile(
    envFile,
    Object.entries(vars)
      .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
      .join('\n'),
    { mode: 0o600 },
  );
  // The PDF Worker's secrets: the local seal, time-stamped at the local authority (or TSA_URL's).
  // Its fonts: in place of its [assets], which a second Worker of one wrangler dev session cannot have.
  const pdfFonts = await serveStandin(
    createPdfFontsStandin(join(root, JSON.parse(/^directory\s*=\s*(.+)$/m.exec(await readFile(join(root, 'wrangler.pdf.toml'), 'utf8'))![1]!) as string)),
  );
  const pdfConfig = await pdfWorkerDevConfig(config.DATA_DIR, {
    FONTS_URL: `${pdfFonts.url}/`,
    SEAL_KEY_PEM: seal.keyPem,
    SEAL_CERT_PEM: seal.certPem,
    TSA_URL: config.TSA_URL ?? standins.timestampAuthority!.url,
  });
  // The application's Worker (`/app`, which the API Worker forwards to it): the API Worker's variables.
  const appConfig = await appWorkerDevConfig(config.DATA_DIR, vars);

  const wrangler = spawn(
    join(root, 'node_modules', '.bin', 'wrangler'),
    [
      'dev',
      // The three Workers in one session: the API Worker, the PDF Worker its `PDF` binding calls,
      // and the application's Worker its `APP` binding forwards `/app` to.
      '--config',
      'wrangler.toml',
      '--config',
      pdfConfig,
      '--config',
      appConfig,
      '--ip',
      '127.0.0.1',
      '--port',
      String(workerPort),
      '--env-file',
      envFile,
      '--persist-to',
      persistTo,
      '--show-interactive-dev-session=false',
      // wrangler dev runs Cron Triggers only when asked, through /__scheduled (see below).
      '--test-scheduled',
    ],
    {
      cwd: root,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', FORCE_COLOR: '0' },
    },
  );
  wranglerGroup = wrangler.pid;
  const output: string[] = [];
  let ready = false;
  for (const stream of [wrangler.stdout, wrangler.stderr]) {
    stream.setEncoding('utf8');
    stream.on('data', (raw: string) => {
      const chunk = withoutSigningTokens(raw);
      return ready ? process.stdout.write(chunk) : output.push(chunk);
    });
  }

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    stopWrangler();
    runtime.fail();
    front.close();
    await Promise.allSettled([standins.close(), emailApi.close(), smsApi.close(), devPages.close(), pdfFonts.close(), database.close()]);
    process.exit(code);
  };
  // A closed terminal (SIGHUP) stops the service as Ctrl-C does.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(0));
  wrangler.on('exit', (code) => {
    if (!ready) console.error(`wrangler dev stopped before the service was up:\n${output.join('')}`);
    void stop(code ?? 1);
  });

  await waitUntilServing(`http://127.0.0.1:${workerPort}/v1/openapi.json`, () => stopping);
  ready = true;
  runtime.open();
  // The deployed Worker's Cron Trigger (the outbox sweeper) runs every minute; here, as often as
  // the embedded server's, so that what a request left behind is relayed just as it would be.
  const cron = setInterval(() => void fetch(`http://127.0.0.1:${config.PORT}/__scheduled?cron=*+*+*+*+*`).catch(() => undefined), 15_000);
  cron.unref();
  console.log(await welcome(seeding, keys, config.BASE_URL, `${config.BASE_URL.replace(/\/+$/, '')}/dev/webhooks`));
  console.log(
    `\nE-signing API listening on ${config.BASE_URL} (workerd; database: ${standins.neon.backend}; limits: ${standins.redis ? 'Redis' : 'in-process'})`,
  );
}

/**
 * wrangler.pdf.toml as this session runs it, with the PDF Worker's secrets among its vars: wrangler
 * dev's --env-file reaches only the first Worker of a session. Written inside DATA_DIR, readable by
 * this user alone, as the env file is.
 */
async function pdfWorkerDevConfig(dir: string, secrets: Record<string, string>): Promise<string> {
  const toml = await readFile(join(root, 'wrangler.pdf.toml'), 'utf8');
  const setting = (name: string) => new RegExp(`^${name}\\s*=\\s*(.+)$`, 'm').exec(toml)?.[1];
  const config = {
    name: JSON.parse(setting('name')!) as string,
    main: join(root, JSON.parse(setting('main')!) as string),
    compatibility_date: JSON.parse(setting('compatibility_date')!) as string,
    compatibility_flags: JSON.parse(setting('compatibility_flags')!) as string[],
    // The documents' bucket, as wrangler reads it: the API Worker's, one local bucket for both.
    r2_buckets: unstable_readConfig({ config: join(root, 'wrangler.pdf.toml') }, { hideWarnings: true }).r2_buckets,
    vars: secrets,
  };
  const path = join(dir, 'wrangler-pdf.dev.json');
  await writeFile(path, JSON.stringify(config, null, 2), { mode: 0o600 });
  return path;
}

/**
 * wrangler.app.toml as this session runs it, with the API Worker's variables and secrets among its
 * vars (--env-file reaches only the first Worker of a session), in a file inside DATA_DIR readable
 * by this user alone. Its bindings (the PDF Worker, the documents' bucket) are wrangler.app.toml's.
 */
async function appWorkerDevConfig(dir: string, vars: Record<string, string>): Promise<string> {
  const file = join(root, 'wrangler.app.toml');
  const read = unstable_readConfig({ config: file }, { hideWarnings: true });
  const config = {
    name: read.name,
    main: read.main,
    compatibility_date: read.compatibility_date,
    compatibility_flags: read.compatibility_flags,
    r2_buckets: read.r2_buckets,
    services: read.services,
    vars: { ...read.vars, ...vars },
  };
  const path = join(dir, 'wrangler-app.dev.json');
  await writeFile(path, JSON.stringify(config, null, 2), { mode: 0o600 });
  return path;
}

type FrontPorts = { worker: number; mailbox: number; sms: number; devPages: number };

const portOf = (url: string) => Number(new URL(url).port);

/**
 * Where the public port sends a request. The Worker has no development pages, as deployed: the
 * mail it sent is shown by the e-mail API stand-in, the text messages by Twilio's, and the rest
 * of `/dev` (the webhook inbox the Worker posts to, the embedding example) by the pages that
 * `npm start` mounts, served here beside the Worker.
 */
function frontTarget(url: string, ports: FrontPorts): number {
  const path = url.split('?')[0]!;
  if (path === '/dev/mailbox' || path === '/dev/mailbox.json') return ports.mailbox;
  if (path === '/dev/sms' || path === '/dev/sms.json') return ports.sms;
  return path === '/dev' || path.startsWith('/dev/') ? ports.devPages : ports.worker;
}

/** The development pages under `/dev`, over `services` once given; before that, 503. */
function laterDevPages(): Standin & { serve(services: EmbeddedServices): void } {
  let app: Hono | undefined;
  return {
    serve: (services) => {
      app = new Hono().route('/dev', devPages(services) as unknown as Hono);
    },
    fetch: (request) => (app ? app.fetch(request) : new Response('npm run dev is starting.\n', { status: 503, headers: { 'content-type': 'text/plain' } })),
    close: async () => undefined,
  };
}

/** Bodies up to this size reach wrangler dev whole: more than any route accepts (27 MiB on /admin). */
const WHOLE_BODY_BYTES = 28 * 1024 * 1024;

/**
 * The public port: a small Node proxy in front of wrangler dev (and of the dev mailbox, at
 * /dev/mailbox), which serves the Worker on a port of
 * its own. It is there for a body the Worker begins to read and leaves unfinished: a chunked body
 * over a size limit, which the limit counts as it reads and refuses at 1 MiB with 413. workerd then
 * drops its connection after an answer that promised to keep it, and wrangler dev's own proxy,
 * which forwards each request to workerd over connections it reuses, fails the next request it
 * forwards, from whichever client: that request is never answered, or wrangler reports an error and
 * stops. A body the Worker reads to its end or never touches is no trouble.
 *
 * So each request body is read here first and goes on with its length: a chunked body becomes one
 * of known length, which the size limits check before reading anything. A body over
 * WHOLE_BODY_BYTES goes on cut just past that size: every route refuses it by its declared length
 * or does not read it, so its answer is the one the whole body would get. The client's connection is
 * Node's, and what is left of a body when the answer comes is settled as on `npm start`
 * (settleUnreadBody): read and dropped up to a bound, or the answer says `Connection: close`.
 * In production Cloudflare's edge holds the client's connection, and hands the Worker a chunked
 * body as a stream of unknown length.
 */
function serveFront(port: number, ports: FrontPorts, workerReady: Promise<void>): Promise<Server> {
  const workerPort = ports.worker;
  const upstream = new Agent({ keepAlive: true });
  const server = createServer(async (incoming, outgoing) => {
    const target = frontTarget(incoming.url ?? '', ports);
    const framed = incoming.headers['transfer-encoding'] !== undefined || incoming.headers['content-length'] !== undefined;
    const body = framed ? await readUpTo(incoming, WHOLE_BODY_BYTES) : Buffer.alloc(0);
    if (!body) return; // the client went away
    // The port is taken before wrangler dev has built the Worker (seconds): a request that comes
    // meanwhile, from a script that waits for the port, is held until the Worker answers.
    if (
      target === workerPort &&
      !(await workerReady.then(
        () => true,
        () => false,
      ))
    ) {
      if (!outgoing.destroyed) outgoing.writeHead(503, { 'content-type': 'text/plain', connection: 'close' }).end('npm run dev is stopping.\n');
      return;
    }
    const sent = endToEnd(incoming.headers);
    // The Worker takes the caller's address from CF-Connecting-IP, which Cloudflare's edge sets and
    // no client can; here the socket's address replaces whatever a client sent, so a made-up one
    // cannot reset the per-address token-exchange limit.
    sent['cf-connecting-ip'] = incoming.socket.remoteAddress ?? 'unknown';
    if (framed) {
      delete sent['transfer-encoding'];
      sent['content-length'] = String(body.length);
    }
    let answered = false;
    const send = (again: boolean) => {
      const call = forward({ host: '127.0.0.1', port: target, method: incoming.method, path: incoming.url, headers: sent, agent: upstream });
      call.on('response', async (answer) => {
        answered = true;
        const headers = endToEnd(answer.headers);
        if (!(await settleUnreadBody(incoming))) headers.connection = 'close';
        outgoing.writeHead(answer.statusCode ?? 502, answer.statusMessage, headers);
        answer.pipe(outgoing);
      });
      call.on('error', async (err: NodeJS.ErrnoException) => {
        if (answered || outgoing.destroyed) return outgoing.destroy();
        // A kept-alive connection that the runtime closed as this request went out on it: the
        // request never reached it, so it goes again, once, on a new connection (the body is
        // already read). Node documents this race of every keep-alive client.
        if (again && call.reusedSocket && err.code === 'ECONNRESET') return send(false);
        answered = true;
        console.error(`npm run dev: wrangler dev did not answer ${incoming.method} ${withoutSigningTokens(incoming.url ?? '')}: ${err.code ?? err.message}`);
        const headers = { 'content-type': 'text/plain', ...((await settleUnreadBody(incoming)) ? {} : { connection: 'close' }) };
        outgoing.writeHead(502, headers).end(`wrangler dev did not answer (${err.code ?? err.message}); see its output above.\n`);
      });
      // A client that goes away before its answer takes its call to wrangler dev with it.
      outgoing.on('close', () => {
        if (!outgoing.writableFinished) call.destroy();
      });
      call.end(body);
    };
    send(true);
  });
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const reason = err.code === 'EADDRINUSE' ? `127.0.0.1:${port} is already in use; set PORT to a free port` : err.message;
      reject(new Error(`Cannot listen on PORT ${port}: ${reason}`));
    });
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/**
 * Reads `incoming` until it ends or more than `limit` bytes came (it is then paused, the rest
 * unread). Undefined if the client went away first.
 */
function readUpTo(incoming: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (body: Buffer | undefined) => {
      incoming.off('data', onData).off('end', onEnd).off('close', onClose);
      resolve(body);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > limit) {
        incoming.pause();
        finish(Buffer.concat(chunks));
      }
    };
    const onEnd = () => finish(Buffer.concat(chunks));
    const onClose = () => finish(incoming.readableEnded ? Buffer.concat(chunks) : undefined);
    incoming.on('data', onData).on('end', onEnd).on('close', onClose);
  });
}

/** Headers without those that describe one connection rather than the message (the length stays; trailers are not passed on). */
function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const copy = { ...headers };
  for (const name of ['connection', 'keep-alive', 'proxy-connection', 'upgrade', 'expect', 'te', 'trailer']) delete copy[name];
  return copy;
}

/** The embedded server's webhook secret key, written as the Worker reads WEBHOOK_SECRET_KEYS. */
async function derivedKeySetting(tokenSecret: string): Promise<string> {
  const key = await derivedSecretKey(tokenSecret);
  return `${key.id}:${Buffer.from(key.key).toString('base64')}`;
}

/**
 * wrangler dev logs the path of every request. A signing link's path is a credential (whoever has
 * it can sign), and so is a webhook's download link's `sig`: both are cut out of every line before
 * it reaches the terminal. The Worker's own request log names routes by pattern (`/sign/{token}`),
 * which is left as it is.
 */
export function withoutSigningTokens(text: string): string {
  return text.replace(/\/sign\/(?!\{token\}(?![^\s/?#"']))[^\s/?#"']+/g, '/sign/…').replace(/([?&]sig=)[^\s&#"']+/g, '$1…');
}

/** Polls until the Worker answers: wrangler's own "Ready" line comes before the first build ends. */
async function waitUntilServing(url: string, gaveUp: () => boolean, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !gaveUp()) {
    const answer = await fetch(url).catch(() => undefined);
    if (answer?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The Worker did not answer at ${url} within ${timeoutMs / 1000} s.`);
}

main().catch((err: unknown) => {
  console.error(describeFailure(err));
  process.exit(1);
});
