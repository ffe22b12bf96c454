import type { OutboxMessage } from '../outbox/outbox.js';
import type { Services } from '../services.js';
import type { KeyCheck } from './authenticate.js';
import type { RequestRecord } from './request-log.js';

/**
 * The Hono environment shared by every handler: services for all, the key check a guarded route
 * owes (src/http/authenticate.ts), and what the request's log line gathers (src/http/request-log.ts).
 */
export type AppEnv = {
  Variables: {
    services: Services;
    /** Set by `guard` once the bearer token is verified; the handler makes the check with `keyChecked`. */
    access: KeyCheck;
    request: RequestRecord;
    /** Side effects the request's verbs committed: relayed to the queue after the answer (relay-after-answer.ts). */
    outbox: OutboxMessage[];
  };
};
