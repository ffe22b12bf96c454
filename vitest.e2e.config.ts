import { defineConfig } from 'vitest/config';

/**
 * The end-to-end suite: `npm run dev` (workerd with the production adapters) started as a user
 * would, over the machine's PostgreSQL and Redis, and the public API exercised over HTTP. Files
 * run one after another: they share the server and its per-IP token limit.
 */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.test.ts'],
    globalSetup: ['test/e2e/dev-server-setup.ts'],
    fileParallelism: false,
    setupFiles: ['test/support/patient-wait-for.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
