import { defineConfig } from 'vitest/config';

/**
 * The browser run: the signing ceremony in a real Chromium (driven by playwright-core) against the
 * embedded server started as `npm start` starts it. Slow by nature (a server process, a browser,
 * pdf.js, the queue making the finished PDF), so timeouts are long, and files run one after another
 * so that browsers and servers do not compete for the machine and skew each other's waits.
 */
export default defineConfig({
  test: {
    include: ['test/browser/**/*.browser.test.ts'],
    fileParallelism: false,
    setupFiles: ['test/support/patient-wait-for.ts'],
    testTimeout: 90_000,
    hookTimeout: 120_000,
  },
});
