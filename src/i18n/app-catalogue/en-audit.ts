/** The application's audit log page in English (part of en.ts, the reference catalogue). */
export const enAudit = {} as const;
