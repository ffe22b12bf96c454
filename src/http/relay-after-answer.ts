import { createMiddleware } from 'hono/factory';
import { relayOutbox } from '../outbox/outbox.js';
import { afterResponse } from './after-response.js';
import type { AppEnv } from './app-env.js';

/**
 * Gives the request an outbox for its verbs' side effects (`ctx.outbox` of every context made from
 * it) and, once the handler is done, relays what they committed after the answer is out: no verb
 * waits on the queue, and a handler that failed after a commit still relays what was committed
 * (a row never relayed would wait for the sweeper).
 */
export const relayAfterAnswer = createMiddleware<AppEnv>(async (c, next) => {
  const outbox: AppEnv['Variables']['outbox'] = [];
  c.set('outbox', outbox);
  try {
    await next();
  } finally {
    if (outbox.length > 0) {
      const services = c.get('services');
      afterResponse(c, () => relayOutbox(services, outbox));
    }
  }
});
