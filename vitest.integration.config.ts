import { defineConfig } from 'vitest/config';

/**
 * The same suites against a real PostgreSQL (the server of TEST_POSTGRES_URL, by default the
 * machine's local one): a fresh database is made and migrated once, then every test file runs on it.
 */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The server-process suites always run the embedded stack; the fast run covers them, and the
    // browser suite (which starts such a process too) has its own run.
    exclude: ['test/e2e/**', 'test/workerd/**', 'test/embedded/**', 'test/unit/**', 'test/browser/**'],
    globalSetup: ['test/support/postgres-global-setup.ts'],
    setupFiles: ['test/support/patient-wait-for.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
