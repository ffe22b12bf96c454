import { expireEnvelope } from '../domain/envelopes/expire-envelope.js';
import { remindEnvelope } from '../domain/envelopes/remind-envelope.js';
import { sendSigningEmail } from '../domain/envelopes/signing-email.js';
import { releaseQuota } from '../domain/quota/release-quota.js';
import { advanceTurn } from '../domain/signing/advance-turn.js';
import { sendCompletedEmail, sendDeclinedEmail, sendDocumentReadyEmails } from '../domain/signing/ceremony-emails.js';
import { finishEnvelope } from '../domain/signing/finish-envelope.js';
import { type QueueTopic, queueTopics as topics } from '../domain/queue-topics.js';
import { deliverWebhookEvent, dispatchWebhookEvent } from '../domain/webhooks/dispatch-event.js';
import { type VerbContext, verbContext } from '../domain/verb-context.js';
import { relayOutbox } from '../outbox/outbox.js';
import type { QueueMessage } from '../ports/queue.js';
import type { Services } from '../services.js';
import { arrival } from './timer-hops.js';

/** What the service does with a queued message of one topic, once it is due: a verb of the service itself. */
export type QueueConsumer = (ctx: VerbContext<{ kind: 'system' }>, body: Record<string, unknown>) => Promise<void>;

/** Every topic of the registry, and its consumer: a topic without one does not compile. */
export const queueConsumers: { readonly [Topic in QueueTopic]: QueueConsumer } = {
  [topics.signingEmail]: sendSigningEmail,
  [topics.remind]: remindEnvelope,
  [topics.expire]: expireEnvelope,
  [topics.webhookDispatch]: dispatchWebhookEvent,
  [topics.webhookDeliver]: deliverWebhookEvent,
  [topics.quotaRelease]: releaseQuota,
  [topics.advance]: advanceTurn,
  [topics.finish]: finishEnvelope,
  [topics.completedEmail]: sendCompletedEmail,
  [topics.declinedEmail]: sendDeclinedEmail,
  [topics.documentReadyEmail]: sendDocumentReadyEmails,
};

export class UnknownTopicError extends Error {}

/**
 * Runs one consumer as a job of the service, then relays what it committed. Awaited, not left for
 * after: the message is acknowledged only once this returns, so its follow-ups are handed over
 * first. A consumer that failed after a commit still has its rows relayed; a relay that fails is
 * left to the sweeper (relayOutbox never throws).
 */
export async function runConsumer(services: Services, consumer: QueueConsumer, body: Record<string, unknown>): Promise<void> {
  const ctx = verbContext(services, { kind: 'system' } as const);
  try {
    await consumer(ctx, body);
  } finally {
    await relayOutbox(services, ctx.outbox);
  }
}

/** Runs the consumer of a message's topic; an error makes the queue deliver it again later. */
export async function dispatchMessage(
  services: Services,
  message: QueueMessage,
  consumers: Readonly<Record<string, QueueConsumer | undefined>> = queueConsumers,
): Promise<void> {
  const consumer = consumers[message.topic];
  if (!consumer) throw new UnknownTopicError(`No consumer for topic ${message.topic}`);
  const next = arrival(message, services.clock);
  // A long timer's hop that came before its time is armed again; its consumer waits for the last.
  if ('rearm' in next) return services.queue.publish([next.rearm]);
  await runConsumer(services, consumer, next.deliver.body);
}
