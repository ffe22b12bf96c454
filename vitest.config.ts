import { defineConfig } from 'vitest/config';

// The fast suites: every test file on the embedded stack (an in-memory PGlite per file). Suites
// that need a running Redis or PostgreSQL live in test/integration and run in the integration run;
// the real-browser suite (test/browser) has its own run, `npm run test:browser`.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'test/workerd/**', 'test/integration/**', 'test/browser/**'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
