/** The namespace `z` of the Worker's zod (see zod.js): zod's exports with `z`, `core` and `locales` replaced. */
export * from 'zod/v4';
export { z } from './zod.js';
export * as core from './core.js';
export * as locales from './locales.js';
