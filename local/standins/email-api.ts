import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import { DevMailbox } from '../../src/adapters/embedded/dev-mailbox.js';
import { devMailboxRoutes } from '../../src/dev-pages/mailbox-page.js';
import type { Standin } from './standin.js';

const DAY_MS = 24 * 3600 * 1000;

export type EmailApiStandinOptions = {
  /** The stand-in's clock, in milliseconds (tests move it past the 24 h a key is kept). */
  now?: () => number;
  /** How many idempotency keys are kept at most; the oldest are forgotten first. */
  maxKeys?: number;
  /** How long accepting one e-mail takes, so that tests can overlap requests or time one out. */
  latencyMs?: number;
};

type Answer = { status: 200; body: { id: string } };
/** A key's request: the hash of its body, and its answer once it has one (none while in flight). */
type KeyRecord = { bodyHash: string; at: number; answer?: Answer };

/**
 * A stand-in for the e-mail API the Worker sends to (Resend's format: `POST /emails` with
 * `{ from, to, subject, text, html }`). Nothing leaves the machine: the e-mails land in a dev
 * mailbox, shown at `/dev/mailbox` and `/dev/mailbox.json`.
 *
 * It honours `Idempotency-Key` as the provider does, for 24 hours: the same key with the same body
 * gets the first answer again and no second e-mail; with another body, 409
 * `invalid_idempotent_request`; while the first request with that key is still being handled, 409
 * `concurrent_idempotent_requests`. Only an accepted e-mail keeps its key: after a refusal, the
 * same key may be tried again.
 */
export function createEmailApiStandin(apiKey: string, options: EmailApiStandinOptions = {}): Standin & { mailbox: DevMailbox } {
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? 10_000;
  const mailbox = new DevMailbox();
  // Maps keep insertion order, and a key is inserted again when answered: oldest answers first.
  const keys = new Map<string, KeyRecord>();

  const forgetOld = () => {
    for (const [key, record] of keys) {
      if (record.at + DAY_MS > now() && keys.size <= maxKeys) break;
      keys.delete(key);
    }
  };

  const app = new Hono();
  app.post('/emails', async (c) => {
    if (c.req.header('authorization') !== `Bearer ${apiKey}`) return refuse(401, 'invalid_api_key', 'API key is invalid');
    const text = await c.req.text();
    const body = parseJson(text) as { from?: unknown; to?: unknown; subject?: unknown; text?: unknown; html?: unknown; tags?: unknown } | null;
    const to = Array.isArray(body?.to) ? body.to : [body?.to];
    if (typeof to[0] !== 'string' || typeof body?.subject !== 'string') return refuse(422, 'validation_error', 'to and subject are required');

    const deliver = async (): Promise<Answer> => {
      if (options.latencyMs) await new Promise((resolve) => setTimeout(resolve, options.latencyMs));
      const id = crypto.randomUUID();
      for (const [index, address] of (to as string[]).entries()) {
        // "Name <address>" or a bare address, as providers take them.
        const match = /^(.*?)\s*<([^>]+)>$/.exec(address);
        const fromName = typeof body.from === 'string' ? phraseOf(body.from) : undefined;
        await mailbox.send({
          ...(fromName ? { from: { name: fromName } } : {}),
          to: { name: match?.[1] ?? '', email: match?.[2] ?? address },
          subject: body.subject as string,
          text: typeof body.text === 'string' ? body.text : '',
          ...(typeof body.html === 'string' ? { html: body.html } : {}),
          ...(Array.isArray(body.tags) ? { tags: tagsOf(body.tags) } : {}),
          // The keys the caller sent are honoured above; each accepted e-mail is the mailbox's own.
          idempotencyKey: `${id}.${index}`,
        });
      }
      return { status: 200, body: { id } };
    };

    const key = c.req.header('idempotency-key');
    if (key === undefined) {
      const answer = await deliver();
      return c.json(answer.body, answer.status);
    }
    if (key.length < 1 || key.length > 256) return refuse(400, 'invalid_idempotency_key', 'The key must be between 1-256 chars.');
    forgetOld();
    const bodyHash = createHash('sha256').update(text).digest('hex');
    const seen = keys.get(key);
    if (seen && !seen.answer) {
      return refuse(409, 'concurrent_idempotent_requests', 'Same idempotency key used while original request is still in progress.');
    }
    if (seen && seen.bodyHash !== bodyHash) {
      return refuse(409, 'invalid_idempotent_request', 'Same idempotency key used with a different request payload.');
    }
    if (seen?.answer) return c.json(seen.answer.body, seen.answer.status);

    keys.set(key, { bodyHash, at: now() });
    try {
      const answer = await deliver();
      keys.delete(key);
      keys.set(key, { bodyHash, at: now(), answer });
      forgetOld();
      return c.json(answer.body, answer.status);
    } catch (err) {
      keys.delete(key);
      throw err;
    }
  });
  app.route('/dev', devMailboxRoutes(mailbox));
  return { fetch: (request) => app.fetch(request), close: async () => {}, mailbox };
}

/** An error as the provider words them: `{ statusCode, name, message }`. */
function refuse(status: 400 | 401 | 409 | 422, name: string, message: string): Response {
  return Response.json({ statusCode: status, name, message }, { status });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The display name of `Name <address>` (unquoted), or nothing for a bare address. */
function phraseOf(address: string): string | undefined {
  const phrase = /^(.*?)\s*<[^>]+>$/.exec(address)?.[1];
  if (!phrase) return undefined;
  const quoted = /^"(.*)"$/.exec(phrase)?.[1];
  return quoted === undefined ? phrase : quoted.replace(/\\(.)/g, '$1');
}

/** Resend's `tags` (`[{ name, value }]`), as the dev mailbox keeps them. */
function tagsOf(tags: unknown[]): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const tag of tags) {
    const { name, value } = (tag ?? {}) as { name?: unknown; value?: unknown };
    if (typeof name === 'string' && typeof value === 'string') kept[name] = value;
  }
  return kept;
}
