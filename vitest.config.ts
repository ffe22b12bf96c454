import { defineConfig } from 'vitest/config';

// The fast suites: every test file on the embedded stack (an in-memory PGlite per file).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'test/workerd/**'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
