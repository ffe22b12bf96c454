/**
 * Upstash Redis's REST protocol, spoken directly, for the little of Redis the service uses: its
 * Lua scripts and a GET. @upstash/redis and @upstash/ratelimit together are 128 KiB of the Worker's
 * bundle, every Redis command among them, and workerd compiles all of it at every cold start; the
 * client below is the part of their protocol these calls need. test/integration/upstash-redis-client.test.ts
 * runs it over the stand-in and a real Redis, and the rate limits beside @upstash/ratelimit's.
 *
 * - Commands are JSON arrays of strings. The commands asked for in one turn of the event loop go
 *   together as one `POST /pipeline` (a send's admission beside a GET's rate limit): one round trip.
 * - Each command's answer is `{ result }` or `{ error }`; strings come back as they are (no
 *   `Upstash-Encoding`), nil as null.
 * - A script is run by its SHA-1 (`EVALSHA`); a server that has not seen it yet answers NOSCRIPT,
 *   and it is sent whole (`EVAL`) that once.
 */
import { toHex } from '../../lib/crypto.js';

export class UpstashError extends Error {
  override name = 'UpstashError';
}

type Pending = { command: string[]; resolve: (value: unknown) => void; reject: (error: unknown) => void };

export class UpstashRedisClient {
  private queued: Pending[] = [];

  constructor(
    private readonly url: string,
    private readonly token: string,
  ) {}

  /** Runs one command; commands asked for in the same turn share a request. */
  command<T>(command: string[]): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.queued.length === 0) queueMicrotask(() => void this.flush());
      this.queued.push({ command, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  /** A Lua script, run by its SHA-1 once the server knows it. */
  script<T>(source: string): RedisScript<T> {
    return new RedisScript<T>(this, source);
  }

  private async flush(): Promise<void> {
    const batch = this.queued;
    this.queued = [];
    try {
      const response = await fetch(`${this.url.replace(/\/$/, '')}/pipeline`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(batch.map((pending) => pending.command)),
      });
      const answer: unknown = await response.json().catch(() => undefined);
      if (!response.ok || !Array.isArray(answer) || answer.length !== batch.length) {
        const reason = (answer as { error?: unknown } | undefined)?.error;
        throw new UpstashError(`Upstash answered ${response.status}${typeof reason === 'string' ? `: ${reason}` : ''}`);
      }
      batch.forEach((pending, i) => {
        const entry = answer[i] as { result?: unknown; error?: unknown } | null;
        if (entry && typeof entry.error === 'string') pending.reject(new UpstashError(entry.error));
        else pending.resolve(entry?.result ?? null);
      });
    } catch (error) {
      for (const pending of batch) pending.reject(error);
    }
  }
}

export class RedisScript<T> {
  private sha?: Promise<string>;

  constructor(
    private readonly client: UpstashRedisClient,
    private readonly source: string,
  ) {}

  async exec(keys: string[], args: string[]): Promise<T> {
    this.sha ??= crypto.subtle.digest('SHA-1', new TextEncoder().encode(this.source)).then((digest) => toHex(new Uint8Array(digest)));
    const rest = [String(keys.length), ...keys, ...args];
    try {
      return await this.client.command<T>(['EVALSHA', await this.sha, ...rest]);
    } catch (error) {
      if (!(error instanceof UpstashError && error.message.includes('NOSCRIPT'))) throw error;
      return this.client.command<T>(['EVAL', this.source, ...rest]);
    }
  }
}
