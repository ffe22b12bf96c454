import { defineConfig } from 'vitest/config';
import { processSuites } from './test/process-suites.js';

// The fast suites: every test file on the embedded stack, each on an in-memory PGlite loaded from
// one migrated dump (test/support/pglite-template-setup.ts), two files at a time. Suites that need
// a running Redis or PostgreSQL live in test/integration and run in the integration run; those that
// start the service as a process run in `npm run test:processes`; the real-browser suite
// (test/browser) has its own run, `npm run test:browser`.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'test/workerd/**', 'test/integration/**', 'test/browser/**', ...processSuites],
    globalSetup: ['test/support/pglite-template-setup.ts'],
    // PGlite is CPU-bound: on a 2-core machine two files at a time is the sweet spot.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
