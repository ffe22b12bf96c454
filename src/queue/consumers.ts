import { expireEnvelope } from '../domain/envelopes/expire-envelope.js';
import { remindEnvelope } from '../domain/envelopes/remind-envelope.js';
import { sendSigningEmail } from '../domain/envelopes/signing-email.js';
import { releaseQuota } from '../domain/quota/release-quota.js';
import { advanceTurn } from '../domain/signing/advance-turn.js';
import { sendCompletedEmail, sendDeclinedEmail, sendDocumentReadyEmails } from '../domain/signing/ceremony-emails.js';
import { finishEnvelope } from '../domain/signing/finish-envelope.js';
import { type QueueTopic, queueTopics as topics } from '../domain/queue-topics.js';
import { deliverWebhookEvent, dispatchWebhookEvent } from '../domain/webhooks/dispatch-event.js';
import type { QueueMessage } from '../ports/queue.js';
import type { Services } from '../services.js';
import { arrival } from './timer-hops.js';

/** What the service does with a queued message of one topic, once it is due. */
export type QueueConsumer = (services: Services, body: Record<string, unknown>) => Promise<void>;

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
  await consumer(services, next.deliver.body);
}
