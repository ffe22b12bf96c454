/**
 * Failure-injection tests make the service log errors on purpose. `expectErrorLogs()`, called once
 * in a file, watches console.error in each of its tests; a test declares what it makes the service
 * log with `expectLogged(/…/)`. Those lines stay out of the run's output, and each must have been
 * logged by the end of the test (the log is part of the behaviour). Anything else is printed as
 * usual, so an unexpected error still shows.
 */
import { afterEach, beforeEach, expect, type MockInstance, vi } from 'vitest';

export function expectErrorLogs() {
  const expected: RegExp[] = [];
  const kept: string[] = [];
  let spy: MockInstance<typeof console.error> | undefined;
  const print = console.error.bind(console);
  beforeEach(() => {
    expected.length = 0;
    kept.length = 0;
    spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      const line = args.map((arg) => (arg instanceof Error ? `${arg.name}: ${arg.message}` : String(arg))).join(' ');
      if (expected.some((pattern) => pattern.test(line))) kept.push(line);
      else print(...args);
    });
  });
  afterEach(async () => {
    try {
      for (const pattern of expected)
        await vi.waitFor(
          () =>
            expect(
              kept.some((line) => pattern.test(line)),
              `logged: ${pattern}`,
            ).toBe(true),
          { timeout: 2000 },
        );
    } finally {
      spy?.mockRestore();
    }
  });
  return { expectLogged: (...patterns: RegExp[]) => void expected.push(...patterns) };
}
