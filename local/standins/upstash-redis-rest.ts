import { type Context, Hono } from 'hono';
import { ScriptShas } from './redis-scripts.js';
import { RespConnection, RespError, type RespValue } from './resp-connection.js';
import type { Standin } from './standin.js';

/**
 * A stand-in for Upstash's Redis REST API over a real Redis, as @upstash/redis calls it:
 * `POST /` (one command), `POST /pipeline` (in order, not atomic), `POST /multi-exec` (MULTI…EXEC),
 * plus Upstash's path form (`GET /get/key`, `POST /set/key` with the value as body) for curl.
 * Local only; never deployed.
 */
export interface UpstashRedisRestOptions {
  /** e.g. `redis://127.0.0.1:6379` or `redis://:password@host:6379/2`. */
  redisUrl: string;
  /** The bearer token clients must send (Upstash's UPSTASH_REDIS_REST_TOKEN). */
  token: string;
}

// They would change the state of the one connection every client shares, or never answer.
const refused = new Set([
  'AUTH',
  'HELLO',
  'SELECT',
  'MULTI',
  'EXEC',
  'DISCARD',
  'WATCH',
  'UNWATCH',
  'QUIT',
  'RESET',
  'CLIENT',
  'MONITOR',
  'SUBSCRIBE',
  'PSUBSCRIBE',
  'SSUBSCRIBE',
  'UNSUBSCRIBE',
  'PUNSUBSCRIBE',
  'SUNSUBSCRIBE',
  'SYNC',
  'PSYNC',
]);

/** A command ready to send, with how to present its reply, or why it is not sent at all. */
type Prepared = { args: string[]; reply: (value: RespValue) => RespValue } | { refusal: string };

const asIs = (value: RespValue) => value;

export function createUpstashRedisRestStandin(options: UpstashRedisRestOptions): Standin {
  const connection = new RespConnection(new URL(options.redisUrl));
  const scripts = new ScriptShas();
  const app = new Hono();

  function prepare(raw: unknown): Prepared {
    if (!Array.isArray(raw) || raw.length === 0) return { refusal: 'ERR a command must be a non-empty array' };
    const args = raw.map((arg) => (typeof arg === 'string' ? arg : typeof arg === 'object' && arg !== null ? JSON.stringify(arg) : String(arg)));
    const name = args[0]!.toUpperCase();
    if (refused.has(name)) return { refusal: `ERR Command is not available in the REST stand-in: '${args[0]}'` };
    if ((name === 'EVAL' || name === 'EVAL_RO') && args[1] !== undefined) {
      args[1] = scripts.prepare(args[1]).script;
    } else if ((name === 'EVALSHA' || name === 'EVALSHA_RO') && args[1] !== undefined) {
      args[1] = scripts.toServer(args[1]);
    } else if (name === 'SCRIPT' && args[1]?.toUpperCase() === 'LOAD' && args[2] !== undefined) {
      const { script, originalSha } = scripts.prepare(args[2]);
      args[2] = script;
      // Clients expect the SHA-1 of what they sent, not of the rewritten script.
      return { args, reply: (value) => (value instanceof RespError ? value : Buffer.from(originalSha)) };
    } else if (name === 'SCRIPT' && args[1]?.toUpperCase() === 'EXISTS') {
      args.splice(2, Infinity, ...args.slice(2).map((sha) => scripts.toServer(sha)));
    }
    return { args, reply: asIs };
  }

  app.use('*', async (c, next) => {
    const bearer = c.req.header('Authorization')?.match(/^Bearer\s+(.+)$/i)?.[1];
    if ((bearer ?? c.req.query('_token')) !== options.token) {
      return c.json({ error: 'Unauthorized: invalid or missing auth token' }, 401);
    }
    await next();
  });

  const single = async (c: Context, command: unknown) => {
    const prepared = prepare(command);
    if ('refusal' in prepared) return c.json({ error: prepared.refusal }, 400);
    const [reply] = await connection.send([prepared.args]);
    const value = prepared.reply(reply!);
    if (value instanceof RespError) return c.json({ error: value.message }, 400);
    return c.json({ result: toJson(value, wantsBase64(c)) });
  };

  app.post('/pipeline', async (c) => {
    const commands = await readCommands(c);
    if (!commands) return c.json({ error: 'ERR the body must be an array of commands' }, 400);
    const prepared = commands.map(prepare);
    const sendable = prepared.filter((p) => 'args' in p);
    const replies = await connection.send(sendable.map((p) => p.args));
    let next = 0;
    return c.json(prepared.map((p) => ('refusal' in p ? { error: p.refusal } : entry(p.reply(replies[next++]!), wantsBase64(c)))));
  });

  app.post('/multi-exec', async (c) => {
    const commands = await readCommands(c);
    if (!commands) return c.json({ error: 'ERR the body must be an array of commands' }, 400);
    const prepared = commands.map(prepare);
    const refusal = prepared.find((p) => 'refusal' in p);
    if (refusal) return c.json({ error: refusal.refusal }, 400);
    const sendable = prepared as Extract<Prepared, { args: string[] }>[];
    const replies = await connection.send([['MULTI'], ...sendable.map((p) => p.args), ['EXEC']]);
    const exec = replies[replies.length - 1]!;
    // EXECABORT (a command refused while queueing) means nothing ran: the whole request fails.
    if (exec instanceof RespError) return c.json({ error: exec.message }, 400);
    if (!Array.isArray(exec)) return c.json({ error: 'ERR transaction discarded' }, 400);
    return c.json(exec.map((value, i) => entry(sendable[i]!.reply(value), wantsBase64(c))));
  });

  app.post('/', async (c) => single(c, await c.req.json().catch(() => undefined)));

  // Upstash's path form: each path segment is an argument; a POST body is the last one.
  app.on(['GET', 'POST'], '/*', async (c) => {
    const args = c.req.path.split('/').filter(Boolean).map(decodeURIComponent);
    const body = c.req.method === 'POST' ? await c.req.text() : '';
    return single(c, body ? [...args, body] : args);
  });

  app.onError((error, c) => c.json({ error: `ERR stand-in: ${error.message}` }, 500));
  return { fetch: (request) => app.fetch(request), close: () => connection.close() };
}

async function readCommands(c: Context): Promise<unknown[] | undefined> {
  const body: unknown = await c.req.json().catch(() => undefined);
  return Array.isArray(body) ? body : undefined;
}

function wantsBase64(c: Context): boolean {
  return c.req.header('Upstash-Encoding')?.toLowerCase() === 'base64';
}

function entry(value: RespValue, base64: boolean) {
  return value instanceof RespError ? { error: value.message } : { result: toJson(value, base64) };
}

/**
 * Upstash's reply shape: integers as numbers, nil as null, arrays kept nested, and with
 * `Upstash-Encoding: base64` every string base64-encoded except a top-level `OK`.
 */
function toJson(value: RespValue, base64: boolean, top = true): unknown {
  if (value === null || typeof value === 'number') return value;
  if (value instanceof RespError) return value.message;
  if (Array.isArray(value)) return value.map((item) => toJson(item, base64, false));
  if (!base64) return value.toString('utf8');
  const text = value.toString('utf8');
  return top && text === 'OK' ? 'OK' : value.toString('base64');
}
