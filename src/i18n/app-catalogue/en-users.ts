/** The application's users pages in English (part of en.ts, the reference catalogue). */
export const enUsers = {} as const;
