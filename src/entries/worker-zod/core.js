/** zod's core for the Worker's bundle (see zod.js): everything but the locales beyond English. */
export * from 'zod/v4/core';
export * as locales from './locales.js';
