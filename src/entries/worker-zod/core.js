/** zod's core for the Worker's bundle (see zod.js): English as its only locale, and without what left-out.js names. */
export * from 'zod/v4/core';
export * as locales from './locales.js';
export { compile, compileFn, withParser, INVALID, ZodCompileAsyncError, ZodCompileUnsupportedError } from './left-out.js';
