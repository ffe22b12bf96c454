import { defineConfig } from 'vitest/config';

// The fast suites: every test file on the embedded stack (an in-memory PGlite per file). Suites
// that need a running Redis or PostgreSQL live in test/integration and run in the integration run.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'test/workerd/**', 'test/integration/**'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
