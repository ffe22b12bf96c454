/**
 * What the Worker's zod leaves out besides the locales (see zod.js): zod's schema compiler
 * (`z.compile`, 31 KiB minified) and its JSON Schema import (`z.fromJSONSchema`, 12 KiB). The
 * service uses neither; each name is still there, and throws if anything ever calls it.
 */
const leftOut = (name) =>
  function () {
    throw new Error(`zod's ${name} is left out of the API Worker's bundle (src/entries/worker-zod/left-out.js)`);
  };

export const compile = leftOut('compile');
export const compileFn = leftOut('compileFn');
export const withParser = leftOut('withParser');
export const fromJSONSchema = leftOut('fromJSONSchema');
export const INVALID = Symbol.for('zod.compile.invalid');
export class ZodCompileAsyncError extends Error {}
export class ZodCompileUnsupportedError extends Error {}
