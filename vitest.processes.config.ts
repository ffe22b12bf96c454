import { defineConfig } from 'vitest/config';
import { processSuites } from './test/process-suites.js';

// `npm run test:processes`: the suites that start the service (or the admin CLI) as a process of
// its own, as a user does; see test/process-suites.ts.
export default defineConfig({
  test: {
    include: processSuites,
    maxWorkers: 2,
    setupFiles: ['test/support/patient-wait-for.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
