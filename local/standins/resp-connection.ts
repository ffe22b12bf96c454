import { type Socket, connect } from 'node:net';
import { logError } from '../../src/lib/log-error.js';

/**
 * A minimal RESP2 client: one TCP connection to Redis, commands pipelined in order. Written here
 * rather than taken from a Redis library because the REST stand-in needs the raw replies: bulk
 * strings as bytes (for base64), integers as numbers, nil as null, and errors as values, including
 * the errors inside an EXEC reply.
 */
export type RespValue = Buffer | number | null | RespError | RespValue[];

export class RespError extends Error {}

interface Pending {
  resolve: (value: RespValue) => void;
  reject: (error: Error) => void;
}

const CRLF = Buffer.from('\r\n');

export function encodeCommand(args: readonly string[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`*${args.length}\r\n`)];
  for (const arg of args) {
    const bytes = Buffer.from(arg, 'utf8');
    parts.push(Buffer.from(`$${bytes.length}\r\n`), bytes, CRLF);
  }
  return Buffer.concat(parts);
}

/** Parses one reply at `offset`; undefined when the buffer does not hold all of it yet. */
export function parseReply(buffer: Buffer, offset = 0): { value: RespValue; next: number } | undefined {
  const lineEnd = buffer.indexOf(CRLF, offset);
  if (lineEnd < 0) return undefined;
  const type = String.fromCharCode(buffer[offset]!);
  const line = buffer.toString('utf8', offset + 1, lineEnd);
  const next = lineEnd + 2;
  switch (type) {
    case '+':
      return { value: Buffer.from(line, 'utf8'), next };
    case '-':
      return { value: new RespError(line), next };
    case ':':
      return { value: Number(line), next };
    case '$': {
      const length = Number(line);
      if (length < 0) return { value: null, next };
      if (buffer.length < next + length + 2) return undefined;
      return { value: buffer.subarray(next, next + length), next: next + length + 2 };
    }
    case '*': {
      const count = Number(line);
      if (count < 0) return { value: null, next };
      const items: RespValue[] = [];
      let at = next;
      for (let i = 0; i < count; i++) {
        const item = parseReply(buffer, at);
        if (!item) return undefined;
        items.push(item.value);
        at = item.next;
      }
      return { value: items, next: at };
    }
    default:
      throw new Error(`unexpected RESP type byte ${JSON.stringify(type)}`);
  }
}

export class RespConnection {
  private socket: Socket | undefined;
  private pending: Pending[] = [];
  private buffered: Buffer = Buffer.alloc(0);
  private closed = false;
  /** A lost Redis fails every pending command; it is logged once, and again after it came back. */
  private lossReported = false;

  constructor(private readonly url: URL) {}

  /**
   * Sends the commands in one write and resolves with their replies in order. One write means
   * the commands of one call reach Redis back to back, which MULTI…EXEC relies on.
   */
  send(commands: readonly (readonly string[])[]): Promise<RespValue[]> {
    if (this.closed) return Promise.reject(new Error('connection closed'));
    const socket = this.socket ?? this.open();
    const replies = commands.map(() => new Promise<RespValue>((resolve, reject) => this.pending.push({ resolve, reject })));
    socket.write(Buffer.concat(commands.map(encodeCommand)));
    return Promise.all(replies);
  }

  close(): Promise<void> {
    this.closed = true;
    const socket = this.socket;
    this.socket = undefined;
    if (!socket) return Promise.resolve();
    return new Promise((resolve) => {
      socket.once('close', () => resolve());
      socket.end();
    });
  }

  private open(): Socket {
    const socket = connect({ host: this.url.hostname || '127.0.0.1', port: Number(this.url.port || 6379) });
    socket.setNoDelay(true);
    this.socket = socket;
    this.buffered = Buffer.alloc(0);
    socket.on('data', (chunk) => this.receive(chunk));
    const fail = (error: Error) => {
      if (this.socket === socket) this.socket = undefined;
      for (const waiter of this.pending.splice(0)) waiter.reject(error);
    };
    socket.on('error', (error) => {
      if (!this.lossReported) logError('Redis stand-in: the connection to Redis failed; commands fail until it is back', error);
      this.lossReported = true;
      fail(error);
    });
    socket.on('connect', () => (this.lossReported = false));
    socket.on('close', () => fail(new Error('connection to Redis closed')));
    // AUTH and SELECT from the URL go first on every new connection; their replies are dropped.
    const setup: string[][] = [];
    const password = decodeURIComponent(this.url.password);
    if (password) setup.push(this.url.username ? ['AUTH', decodeURIComponent(this.url.username), password] : ['AUTH', password]);
    const database = this.url.pathname.replace(/^\//, '');
    if (database) setup.push(['SELECT', database]);
    for (const command of setup) {
      this.pending.push({ resolve: (reply) => reply instanceof RespError && socket.destroy(reply), reject: () => {} });
      socket.write(encodeCommand(command));
    }
    return socket;
  }

  private receive(chunk: Buffer) {
    this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
    let offset = 0;
    try {
      for (;;) {
        const parsed = parseReply(this.buffered, offset);
        if (!parsed) break;
        offset = parsed.next;
        this.pending.shift()?.resolve(parsed.value);
      }
    } catch (error) {
      // Out of step with the server: nothing later on this connection can be trusted.
      this.socket?.destroy(error as Error);
      return;
    }
    this.buffered = this.buffered.subarray(offset);
  }
}
