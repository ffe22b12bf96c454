import { PGlite } from '@electric-sql/pglite';
import { createNeonHttpStandin } from './neon-http.js';
import { type QStashMessage, type QStashStandinOptions, createQStashStandin } from './qstash.js';
import { createStandinPool, pgliteExecutor, pgPoolExecutor, type SqlExecutor } from './sql-executors.js';
import { type ServedStandin, serveStandin } from './standin.js';
import { createTimestampAuthorityStandin } from './timestamp-authority.js';
import { createUpstashRedisRestStandin } from './upstash-redis-rest.js';

/**
 * Starts the local stand-ins for Neon's SQL-over-HTTP, Upstash Redis REST and QStash on 127.0.0.1,
 * so `wrangler dev` can run the production adapters against local services. Never deployed.
 */
export interface StandinsOptions {
  /** A real PostgreSQL for the Neon stand-in; without it the stand-in runs over PGlite. */
  postgresUrl?: string;
  /** Where PGlite keeps its data when there is no `postgresUrl`; in memory when absent. */
  pgliteDataDir?: string;
  /** An open PGlite to serve instead (the caller migrates and seeds it, and closes it). */
  pglite?: PGlite;
  /** A real Redis for the Upstash REST stand-in; without it that stand-in is not started. */
  redisUrl?: string;
  redisToken?: string;
  qstashToken?: string;
  signingKeys?: { current: string; next: string };
  /** 0 or absent = any free port. */
  ports?: { neon?: number; redis?: number; qstash?: number };
  qstash?: Pick<QStashStandinOptions, 'retryTimeScale' | 'delayTimeScale' | 'defaultRetries' | 'deliveryTimeoutMs'>;
  /** Also start an RFC 3161 time-stamping authority (TSA_URL), so seals are PAdES B-T. */
  timestampAuthority?: boolean;
}

export interface RunningStandins {
  neon: {
    /** Base URL; the driver's endpoint is `sqlEndpoint`. */
    url: string;
    /** For `neonConfig.fetchEndpoint = () => sqlEndpoint`. */
    sqlEndpoint: string;
    backend: 'postgres' | 'pglite';
  };
  /** Absent when no `redisUrl` was given. UPSTASH_REDIS_REST_URL / _TOKEN. */
  redis?: { url: string; token: string };
  /** QSTASH_URL, QSTASH_TOKEN, QSTASH_CURRENT_SIGNING_KEY / QSTASH_NEXT_SIGNING_KEY. */
  qstash: {
    url: string;
    token: string;
    signingKeys: { current: string; next: string };
    messages(): QStashMessage[];
    deadLetters(): QStashMessage[];
  };
  /** TSA_URL, and the authority's certificate for checking its time-stamps; absent unless asked for. */
  timestampAuthority?: { url: string; certificatePem: string };
  /** Stops the servers, QStash's timers, and the database and Redis connections. */
  close(): Promise<void>;
}

export const defaultStandinSecrets = {
  redisToken: 'local-upstash-redis-token',
  qstashToken: 'local-qstash-token',
  signingKeys: { current: 'sig_local_current_signing_key', next: 'sig_local_next_signing_key' },
};

export async function startStandins(options: StandinsOptions = {}): Promise<RunningStandins> {
  const started: ServedStandin[] = [];
  const closeAll = async () => {
    // In reverse, so nothing is left calling a service that is already gone.
    for (const served of started.splice(0).reverse()) await served.close();
  };
  try {
    let executor: SqlExecutor;
    if (options.postgresUrl) {
      executor = pgPoolExecutor(createStandinPool(options.postgresUrl), { endPoolOnClose: true });
    } else if (options.pglite) {
      executor = pgliteExecutor(options.pglite, { closeDbOnClose: false });
    } else {
      const db = options.pgliteDataDir ? new PGlite(options.pgliteDataDir) : new PGlite();
      await db.waitReady;
      executor = pgliteExecutor(db, { closeDbOnClose: true });
    }
    const neon = await serveStandin(createNeonHttpStandin(executor), options.ports?.neon);
    started.push(neon);

    let redis: RunningStandins['redis'];
    if (options.redisUrl) {
      const token = options.redisToken ?? defaultStandinSecrets.redisToken;
      const served = await serveStandin(createUpstashRedisRestStandin({ redisUrl: options.redisUrl, token }), options.ports?.redis);
      started.push(served);
      redis = { url: served.url, token };
    }

    const token = options.qstashToken ?? defaultStandinSecrets.qstashToken;
    const signingKeys = options.signingKeys ?? defaultStandinSecrets.signingKeys;
    const qstashStandin = createQStashStandin({ ...options.qstash, token, signingKeys });
    const qstash = await serveStandin(qstashStandin, options.ports?.qstash);
    started.push(qstash);

    let timestampAuthority: RunningStandins['timestampAuthority'];
    if (options.timestampAuthority) {
      const tsa = await createTimestampAuthorityStandin();
      const served = await serveStandin(tsa);
      started.push(served);
      timestampAuthority = { url: served.url, certificatePem: tsa.certificatePem };
    }

    return {
      neon: { url: neon.url, sqlEndpoint: `${neon.url}/sql`, backend: options.postgresUrl ? 'postgres' : 'pglite' },
      redis,
      qstash: {
        url: qstash.url,
        token,
        signingKeys,
        messages: () => qstashStandin.messages(),
        deadLetters: () => qstashStandin.deadLetters(),
      },
      timestampAuthority,
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
