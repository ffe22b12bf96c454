/** The one locale the Worker's zod keeps (see zod.js): English, zod's default. */
export { default as en } from 'zod/v4/locales/en.js';
