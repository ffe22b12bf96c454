/** The application's settings and usage pages in English (part of en.ts, the reference catalogue). */
export const enSettings = {} as const;
