import { defineConfig } from 'vitest/config';
import { processSuites } from './test/process-suites.js';

// The fast suites, on the embedded stack. Two files at a time (PGlite is CPU-bound, and this is
// made for a 2-core machine), in workers that keep their modules and one in-memory PGlite from
// file to file (loaded from one migrated dump, test/support/pglite-template-setup.ts), as the
// integration run shares one PostgreSQL; the files that mock modules run isolated.
// Elsewhere: test/integration (needs PostgreSQL and Redis) in `npm run test:integration`, the
// suites that start the service as a process in `npm run test:processes`, the browser suite in
// `npm run test:browser`.
const mocking = ['test/signing/signing-page.test.ts', 'test/unit/webhook-target.test.ts'];
const common = {
  globalSetup: ['test/support/pglite-template-setup.ts'],
  setupFiles: ['test/support/patient-wait-for.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          ...common,
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'test/workerd/**', 'test/integration/**', 'test/browser/**', ...processSuites, ...mocking],
          isolate: false,
          env: { TEST_SHARED_PGLITE: 'true' },
        },
      },
      { extends: true, test: { ...common, name: 'isolated', include: mocking } },
    ],
  },
});
