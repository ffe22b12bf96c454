import { defineConfig } from 'vitest/config';

/**
 * The same suites against a real PostgreSQL (TEST_DATABASE_URL, by default the machine's local
 * server): a fresh database is made and migrated once, then every test file runs on it.
 */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'test/workerd/**'],
    globalSetup: ['test/support/postgres-global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
