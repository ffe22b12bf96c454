import { lookup } from 'node:dns/promises';
import type { HostResolver } from '../../domain/webhooks/webhook-target.js';

/**
 * A lookup that hangs must not hold a delivery (and its queue slot) for the resolver's own
 * timeouts, which can add up to tens of seconds; a name that cannot answer in this time is refused.
 */
const defaultTimeoutMs = 3_000;

/**
 * Host names resolved the way Node's HTTP client resolves them when it connects: `lookup` uses the
 * operating system's resolver (getaddrinfo), so /etc/hosts and search domains count too, which is
 * exactly what the guard must see. `all` returns every address, since the client may connect to
 * any of them; `verbatim` keeps the resolver's order instead of moving IPv4 answers first.
 */
export function createNodeHostResolver(timeoutMs = defaultTimeoutMs): HostResolver {
  return {
    async resolve(hostname) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`DNS lookup of ${hostname} took longer than ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        const answers = await Promise.race([lookup(hostname, { all: true, verbatim: true }), timeout]);
        return answers.map((answer) => answer.address);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

export const nodeHostResolver: HostResolver = createNodeHostResolver();
