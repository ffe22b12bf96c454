/** The namespace `z` of the Worker's zod (see zod.js): zod's exports with `z`, `core`, `locales` and what left-out.js names replaced. */
export * from 'zod/v4';
export { z } from './zod.js';
export * as core from './core.js';
export * as locales from './locales.js';
export { compile, withParser, fromJSONSchema, INVALID, ZodCompileAsyncError, ZodCompileUnsupportedError } from './left-out.js';
