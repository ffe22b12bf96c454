/**
 * Requests over one kept-alive HTTP/1.1 connection, as a client with a connection pool makes them:
 * node's http.Agent with `keepAlive` and a single socket, so that a second request goes over the
 * connection the first one left open, if it left it open.
 */
import { Agent, request } from 'node:http';

export type Sent = {
  status: number;
  /** The answer's `Connection` header: `keep-alive` or `close`. */
  connection: string | undefined;
  /** Whether the request went over a connection an earlier request had opened. */
  reused: boolean;
  body: string;
};

export type Body = { bytes: Uint8Array; chunked?: boolean };

export function oneConnection() {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });

  /** Sends a request; a failure of the connection rejects, with what failed and whether it was reused. */
  function send(baseUrl: string, method: string, path: string, options: { headers?: Record<string, string>; body?: Body } = {}): Promise<Sent> {
    const { body } = options;
    const headers: Record<string, string> = { ...options.headers };
    if (body && !body.chunked) headers['content-length'] = String(body.bytes.length);
    return new Promise((resolve, reject) => {
      const call = request(new URL(path, baseUrl), { method, headers, agent, timeout: 15_000 }, (answer) => {
        let text = '';
        answer.setEncoding('utf8');
        answer.on('data', (chunk: string) => (text += chunk));
        answer.on('end', () => resolve({ status: answer.statusCode ?? 0, connection: answer.headers.connection, reused: call.reusedSocket, body: text }));
        answer.on('error', reject);
      });
      call.on('timeout', () => call.destroy(new Error(`${method} ${path}: no answer within 15 s`)));
      call.on('error', (err) => reject(new Error(`${method} ${path} on a ${call.reusedSocket ? 'reused' : 'new'} connection: ${err.message}`)));
      // Written in pieces, as a client streaming an upload does; chunked unless a length was given.
      if (body) for (let at = 0; at < body.bytes.length; at += 64 * 1024) call.write(body.bytes.subarray(at, at + 64 * 1024));
      call.end();
    });
  }

  return { send, close: () => agent.destroy() };
}

export const bytes = (size: number, fill = 0x61) => new Uint8Array(size).fill(fill);

/** A JSON body of about `size` bytes. */
export const jsonOf = (size: number) => new TextEncoder().encode(JSON.stringify({ name: 'x'.repeat(Math.max(0, size - 11)) }));

/** A real pause, for tests of the server's own timers (an idle socket must outlive them); never to wait for an effect. */
export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
