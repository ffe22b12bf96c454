import { defineConfig } from 'vitest/config';

/**
 * `npm run test:readme`: the README's shell examples, run in order against a fresh embedded server
 * (test/readme). One file, its blocks in README order: nothing runs in parallel.
 */
export default defineConfig({
  test: {
    include: ['test/readme/**/*.readme-test.ts'],
    fileParallelism: false,
    sequence: { concurrent: false },
    setupFiles: ['test/support/patient-wait-for.ts'],
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
