/**
 * The suites that start the service as its own process (`npm start`, the admin CLI): seconds each,
 * mostly waiting on a process to start. They run in `npm run test:processes`, a stage of CI of
 * their own, so that `npm test` stays quick; the rest of test/embedded runs in `npm test`.
 */
export const processSuites = [
  'test/embedded/server.test.ts',
  'test/embedded/kept-alive.test.ts',
  'test/embedded/secrets-in-the-open.test.ts',
  'test/admin/cli.test.ts',
  'test/client/client.test.ts',
  'test/client/client-tarball.test.ts',
];
