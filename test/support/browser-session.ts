/**
 * The browser suites' shared start: Debian's Chromium (or CHROMIUM_PATH), driven by playwright-core,
 * beside the embedded server started as a user starts it.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { expect, it } from 'vitest';
import { type ServerRun, spawnServer, startServer, waitForListening } from '../embedded/server-process.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why the browser suites skip, or null when Chromium is there. */
export const chromiumMissing = existsSync(CHROMIUM) ? null : `Chromium is not installed at ${CHROMIUM} (install Debian's chromium, or set CHROMIUM_PATH)`;

/**
 * Without Chromium, one skipped test that says why, in place of a suite: registered only then, so
 * that a normal run shows no skipped test.
 */
export function explainSkipWithoutChromium(suite: string): void {
  if (chromiumMissing === null) return;
  it(`${suite} in a real browser`, (context) => {
    console.warn(`Skipping ${suite} in a real browser: ${chromiumMissing}`);
    context.skip(chromiumMissing ?? undefined);
  });
}

/** Headless, and nothing that reaches for the network on its own (this machine's network is closed). */
const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export type ServerAndBrowser = { server: ServerRun & { output: string }; browser: Browser };

/**
 * Starts the embedded server on `port` over `dataDir` and Chromium at once: they do not depend on
 * each other. Whichever started is handed to `keep` before a failure of the other is thrown, so
 * that the suite's afterAll ends it.
 */
export async function startServerAndChromium(
  port: number,
  dataDir: string,
  keep: (started: Partial<ServerAndBrowser>) => void,
  /** The command that starts the server, when not `npm start`'s (`npm run dev`). */
  command?: string[],
): Promise<ServerAndBrowser> {
  const [started, launched] = await Promise.allSettled([
    command ? startCommand(command, { PORT: String(port), DATA_DIR: dataDir }) : startServer({ PORT: String(port), DATA_DIR: dataDir }),
    chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }),
  ]);
  keep({
    ...(started.status === 'fulfilled' ? { server: started.value } : {}),
    ...(launched.status === 'fulfilled' ? { browser: launched.value } : {}),
  });
  for (const result of [started, launched]) if (result.status === 'rejected') throw result.reason;
  return { server: (started as PromiseFulfilledResult<ServerAndBrowser['server']>).value, browser: (launched as PromiseFulfilledResult<Browser>).value };
}

/** A server started by `command` (`npm run dev`), once it prints its listening line. */
async function startCommand(command: string[], env: Record<string, string>): Promise<ServerRun & { output: string }> {
  const run = spawnServer(env, command);
  try {
    return { ...run, output: await waitForListening(run) };
  } catch (err) {
    // SIGTERM first, so that `npm run dev` stops its wrangler group too (see spawnServer's stop).
    await run.stop();
    throw err;
  }
}

/** The bearer token an API key is exchanged for at POST /v1/auth/token, as an integrator gets one. */
export async function accessToken(base: string, apiKey: string | undefined): Promise<string> {
  expect(apiKey, 'the API key to exchange').toBeDefined();
  const exchanged = await fetch(`${base}/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: apiKey }),
  });
  const body = (await exchanged.json()) as { access_token: string };
  expect(exchanged.status, JSON.stringify(body)).toBe(200);
  return body.access_token;
}
