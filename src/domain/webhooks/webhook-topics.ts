/** The queue topic of one delivery attempt of an event to one subscription. */
export const webhookTopics = { deliver: 'webhook.deliver' } as const;
