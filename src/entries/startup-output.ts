/**
 * What the Node entries (`npm start`, `npm run dev`) share: taking the port, settling what is left of
 * a request body when the answer comes before it was read, and what they print.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { type HttpBindings, serve, type ServerType } from '@hono/node-server';
import { exchangeApiKey } from '../domain/auth/exchange-api-key.js';
import { DomainError, type Issue } from '../errors.js';
import type { SeededKey } from '../seed/load-seed.js';
import type { Services } from '../services.js';

export const demoSeedPath = new URL('../../seed/demo.json', import.meta.url);

export function listen(port: number, fetch: (request: Request, env: unknown) => Promise<Response>): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: (request, env) => answerWithBodySettled(request, env as HttpBindings, fetch), hostname: '127.0.0.1', port }, () =>
      resolve(server),
    );
    server.once('error', (err: NodeJS.ErrnoException) => {
      const reason = err.code === 'EADDRINUSE' ? `127.0.0.1:${port} is already in use; set PORT to a free port` : err.message;
      reject(new Error(`Cannot listen on PORT ${port}: ${reason}`));
    });
  });
}

/** What of an unread request body is read and thrown away so that its connection can serve another request. */
export const UNREAD_BODY_DRAIN_BYTES = 1024 * 1024;
/** How long an answer waits for the rest of an unread body before it is sent with `Connection: close`. */
export const UNREAD_BODY_DRAIN_MS = 2000;
/** How long a connection answered with `Connection: close` waits for the client to close its side. */
export const UNREAD_BODY_LINGER_MS = 5000;

/**
 * Many answers come before the request body has been read: 413 from the size limit, 401, 403, 404,
 * 405, a 422 on the content type. On a kept-alive HTTP/1.1 connection the rest of that body is still
 * on its way, in front of the client's next request, so it has to be read off the connection before
 * the answer may promise that the connection stays open.
 *
 * The Node adapter means to do this after the answer, but its attempt stalls: the request body was
 * handed to the app as a web stream, which pauses the Node request whenever its own queue is full,
 * and nobody reads that queue once the app has answered. The adapter then destroys the socket
 * 500 ms later, after an answer that said `keep-alive`, and the client's next request on it fails.
 * So the rest of the body is settled here, before the answer goes out (see settleUnreadBody).
 */
async function answerWithBodySettled(request: Request, env: HttpBindings, fetch: (request: Request, env: unknown) => Promise<Response>) {
  const response = await fetch(request, env);
  if (!env.incoming || (await settleUnreadBody(env.incoming))) return response;
  const headers = new Headers(response.headers);
  headers.set('Connection', 'close');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * Called once the answer to `incoming` is known and before it is sent: reads what is left of the
 * request body and discards it, up to UNREAD_BODY_DRAIN_BYTES (what /v1 accepts) and
 * UNREAD_BODY_DRAIN_MS. Resolves true when the body ended within that bound, and the connection can
 * serve the client's next request. Resolves false when it did not (a 27 MiB upload refused with 401,
 * a body over the limit, a client that stalls): the answer must then carry `Connection: close`, so
 * that the client knows before it reuses the connection and opens a new one, instead of finding
 * this one closed under its next request. What still arrives is read and dropped until the socket
 * closes, and the socket is closed in stages, so that the client is not reset before it has read
 * the answer.
 */
export async function settleUnreadBody(incoming: IncomingMessage): Promise<boolean> {
  if (incoming.readableEnded) return true;
  // A declared length over the bound is not waited for: it cannot end within it.
  const tooLong = Number(incoming.headers['content-length']) > UNREAD_BODY_DRAIN_BYTES;
  const drained = discardRest(incoming, UNREAD_BODY_DRAIN_BYTES, UNREAD_BODY_DRAIN_MS);
  if (!tooLong && (await drained)) return true;
  closeInStages(incoming.socket);
  return false;
}

/**
 * Reads what is left of `incoming` and drops it. Resolves true once the body has ended, false as
 * soon as more than `limit` bytes came or `ms` passed without its end, or the request failed; the
 * reading goes on either way, until the body ends or the socket closes.
 */
function discardRest(incoming: IncomingMessage, limit: number, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    let received = 0;
    let settled = false;
    const settle = (ended: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      incoming.off('end', onEnd).off('error', onFail).off('close', onFail);
      resolve(ended);
    };
    const onEnd = () => settle(true);
    const onFail = () => settle(incoming.readableEnded);
    const timer = setTimeout(() => settle(false), ms);
    incoming.on('end', onEnd).on('error', onFail).on('close', onFail);
    // Whatever was reading the body (the web stream the app was given, a pipe) listens for 'data'
    // too, and pauses the request whenever its own queue is full; nobody reads that queue now, so
    // its listener goes, as when Node itself throws away a body nobody read.
    incoming.unpipe();
    incoming.removeAllListeners('data');
    incoming.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) settle(false);
    });
    incoming.resume();
  });
}

/**
 * After an answer with `Connection: close`, Node closes the socket with its destroySoon(), which
 * destroys it as soon as our side has ended. A client still sending its body then gets a reset
 * instead of the answer waiting for it to read (`write EPIPE` or `ECONNRESET` where a 413 or 401
 * should be). So for this socket the close comes in stages: our side ends after the answer (the
 * client reads the answer, then the end), what the client still sends is read and dropped, and the
 * socket goes when the client closes its side, or after UNREAD_BODY_LINGER_MS.
 */
function closeInStages(socket: Socket) {
  socket.destroySoon = function destroySoon(this: Socket) {
    if (this.writable) this.end();
    const timer = setTimeout(() => this.destroy(), UNREAD_BODY_LINGER_MS);
    this.once('close', () => clearTimeout(timer));
  };
}

/**
 * A key that works, the admin token, and curl lines that work as printed. The key shown is one
 * that can read templates (the widest first) and still exchanges: a seeded key rotated or revoked
 * since is passed over for the next.
 */
export async function welcome(services: Services, keys: SeededKey[], baseUrl: string, webhookInboxUrl?: string): Promise<string> {
  const lines = [
    '',
    `Admin token:  ${services.config.adminToken}`,
    `Dev mailbox:  ${baseUrl}/dev/mailbox`,
    // Beside the mailbox: the verification codes sent by text message.
    `Dev SMS:      ${baseUrl}/dev/sms`,
    `OpenAPI:      ${baseUrl}/v1/openapi.json`,
  ];
  // Only the embedded server has the webhook inbox; `npm run dev` (the Worker) passes none.
  if (webhookInboxUrl) lines.splice(3, 0, `Webhook inbox: ${webhookInboxUrl}`);
  const candidates = keys.filter((key) => key.scopes.includes('templates:read')).sort((a, b) => b.scopes.length - a.scopes.length);
  for (const key of candidates) {
    const token = await exchangeApiKey({ services, now: services.clock.now() }, { apiKey: key.key }).catch(() => undefined);
    if (!token) continue;
    lines.push(
      `API key:      ${key.key}  (${key.companyName}, owner ${key.owner})`,
      `Company id:   ${key.companyId}  (${key.companyName}, for the admin API)`,
      `Application:  ${baseUrl}/app  (sign in as ${key.owner}: the link arrives in the dev mailbox)`,
      '',
      'Exchange the key for a one-hour access token:',
      `  curl -s -X POST ${baseUrl}/v1/auth/token -H 'content-type: application/json' -d '{"api_key":"${key.key}"}'`,
      '',
      'List templates with a token made for you now (valid one hour):',
      `  curl -s ${baseUrl}/v1/templates -H 'authorization: Bearer ${token.access_token}'`,
    );
    return lines.join('\n');
  }
  lines.push(
    keys.length > 0
      ? 'No seeded key that reads templates works any more (rotated or revoked); create one with the admin API.'
      : 'The seed has no API keys; create one with the admin API.',
  );
  return lines.join('\n');
}

/** A failure as a person can act on it: the message, and each problem of a validation failure. */
export function describeFailure(err: unknown): string {
  if (err instanceof DomainError) {
    const issues = Array.isArray(err.details.issues) ? (err.details.issues as Issue[]) : [];
    return [err.message, ...issues.map((issue) => `  ${issue.path || '(top level)'}: ${issue.message}`)].join('\n');
  }
  return err instanceof Error ? err.message : String(err);
}
