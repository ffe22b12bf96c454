/**
 * `vi.waitFor` gives up after one second unless told otherwise. On a busy machine an outbox relay,
 * a queue's retry or a server's answer can take longer without anything being wrong, and the tests
 * wait for the event, not for a clock: every suite loads this file first, so a wait that names no
 * timeout gets 30 seconds (each test's own timeout still bounds it). A call that names one keeps it.
 */
import { vi } from 'vitest';

const patient = Symbol.for('esign.patientWaitFor');
type WaitFor = typeof vi.waitFor & { [patient]?: true };

// Suites that share a worker load this file once per test file: wrap the original only once.
if (!(vi.waitFor as WaitFor)[patient]) {
  const original = vi.waitFor;
  const waitFor: WaitFor = ((callback, options) =>
    original(callback, typeof options === 'number' ? { timeout: options } : { timeout: 30_000, ...options })) as WaitFor;
  waitFor[patient] = true;
  vi.waitFor = waitFor;
}
