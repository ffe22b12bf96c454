/** The application's webhooks pages in English (part of en.ts, the reference catalogue). */
export const enWebhooks = {} as const;
