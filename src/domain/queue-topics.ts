/**
 * Every topic the service hands to its queue, in one place: producers write the outbox rows and
 * publish with these names, and src/queue/consumers.ts maps each to its consumer. A topic name is
 * part of a stored row and of a QStash callback URL (`/internal/queue/{topic}`), so a name once
 * used stays: messages already queued under it must still find their consumer.
 */
export const queueTopics = {
  /** To a signer whose turn it is: the signing e-mail, or a reminder. */
  signingEmail: 'email.signing-request',
  /** A webhook event to fan out to the subscriptions that want it. */
  webhookDispatch: 'webhook.dispatch',
  /** One delivery attempt of an event to one subscription. */
  webhookDeliver: 'webhook.deliver',
  /** The next reminder round of an envelope. */
  remind: 'envelope.remind',
  /** An envelope's expiry. */
  expire: 'envelope.expire',
  /** Queued by earlier versions only (a quota unit whose refund the store refused); still consumed for what they left. */
  quotaRelease: 'quota.release',
  /** After a signature: e-mail the next signers in sequential order. */
  advance: 'envelope.advance',
  /** After completion: make the finished PDF. */
  finish: 'document.finish',
  /** To the sender: everyone has signed. */
  completedEmail: 'email.envelope-completed',
  /** To the sender: a signer declined. */
  declinedEmail: 'email.envelope-declined',
  /** To every recipient: the finished PDF is ready. */
  documentReadyEmail: 'email.document-ready',
} as const;

export type QueueTopic = (typeof queueTopics)[keyof typeof queueTopics];
