import type { Principal } from '../domain/auth/principal.js';
import type { OutboxMessage } from '../outbox/outbox.js';
import type { Services } from '../services.js';
import type { RequestRecord } from './request-log.js';

/**
 * The Hono environment shared by every handler: services for all, a principal once authenticated,
 * and what the request's log line gathers (src/http/request-log.ts).
 */
export type AppEnv = {
  Variables: {
    services: Services;
    principal: Principal;
    request: RequestRecord;
    /** Side effects the request's verbs committed: relayed to the queue after the answer (relay-after-answer.ts). */
    outbox: OutboxMessage[];
  };
};
