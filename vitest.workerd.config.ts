import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';
import { TEST_SEAL_CERT_PEM, TEST_SEAL_KEY_PEM } from './test/support/seal-fixture.js';
import { WORKERD_DATABASE_URL } from './test/workerd/workerd-stack.js';

/**
 * The suite that runs inside workerd (`npm run test:workerd`): the test files and the Worker of
 * wrangler.toml (its `main`, compatibility date and flags, and [vars]) share one workerd isolate.
 * The bindings below stand in for the secrets that `wrangler secret put` sets in production; the
 * Neon and QStash ones point at the stand-ins that test/workerd/global-setup.ts starts in Node.
 */
const pdfToml = readFileSync(new URL('./wrangler.pdf.toml', import.meta.url), 'utf8');
const pdfWorkerCompatibility = {
  compatibilityDate: /^compatibility_date\s*=\s*"([^"]+)"/m.exec(pdfToml)![1]!,
  compatibilityFlags: JSON.parse(/^compatibility_flags\s*=\s*(\[[^\]]*\])/m.exec(pdfToml)![1]!) as string[],
};

const PDF_FONTS = fileURLToPath(new URL('./pdf-fonts', import.meta.url));
async function servePdfFont(request: Request): Promise<Response> {
  const name = new URL(request.url).pathname.slice(1);
  if (!/^[\w.-]+$/.test(name)) return new Response('Not found', { status: 404 });
  return readFile(join(PDF_FONTS, name)).then(
    (bytes) => new Response(bytes),
    () => new Response('Not found', { status: 404 }),
  );
}

/**
 * The company application's Worker (wrangler.app.toml), which wrangler.toml's `APP` binding names,
 * stood in for: it answers with what reached it, so that test/workerd/app-forwarding.test.ts sees
 * that the API Worker forwards `/app` requests unchanged (the application itself is tested on Node
 * and, whole, under `npm run dev`).
 */
async function applicationStandin(request: Request): Promise<Response> {
  const received = { method: request.method, url: request.url, headers: Object.fromEntries(request.headers), body: await request.text() };
  return new Response(JSON.stringify(received), { status: 200, headers: { 'content-type': 'application/json', 'x-answered-by': 'esign-app' } });
}

export default defineConfig({
  plugins: [
    cloudflareTest(({ inject }) => {
      const stack = inject('workerdStack');
      return {
        wrangler: { configPath: './wrangler.toml' },
        // Nothing here is remote; never ask Cloudflare for a proxy session.
        remoteBindings: false,
        miniflare: {
          bindings: {
            DATABASE_URL: WORKERD_DATABASE_URL,
            NEON_FETCH_ENDPOINT: stack.sqlEndpoint,
            // No Redis stand-in here: rate limits and quota in the isolate's memory.
            ALLOW_IN_PROCESS_LIMITS: 'true',
            QSTASH_URL: stack.qstash.url,
            QSTASH_TOKEN: stack.qstash.token,
            QSTASH_CURRENT_SIGNING_KEY: stack.qstash.currentSigningKey,
            QSTASH_NEXT_SIGNING_KEY: stack.qstash.nextSigningKey,
            TOKEN_SECRET: 'workerd-suite-token-secret-0123456789abcdef',
            BASE_URL: 'https://esign.example.test',
            EMAIL_API_KEY: 're_workerd_suite_key',
            EMAIL_FROM: 'E-Signing <sign@esign.example.test>',
            WEBHOOK_SECRET_KEYS: 'test1:BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=',
          },
          // The PDF Worker of wrangler.pdf.toml, which wrangler.toml's `PDF` service binding names,
          // with its secrets: the seal, time-stamped at the local authority.
          workers: [
            {
              name: 'esign-pdf',
              modules: true,
              scriptPath: stack.pdfWorkerScript,
              modulesRoot: dirname(stack.pdfWorkerScript),
              ...pdfWorkerCompatibility,
              bindings: { SEAL_KEY_PEM: TEST_SEAL_KEY_PEM, SEAL_CERT_PEM: TEST_SEAL_CERT_PEM, TSA_URL: stack.timestampAuthority.url },
              // Its fonts (pdf-fonts/, filled by `postinstall`) through its FONTS binding. Not as [assets]:
              // one runtime serves one assets folder, the test Worker's public/ (see local/standins/pdf-fonts.ts).
              serviceBindings: { FONTS: servePdfFont },
              // The bucket of wrangler.toml's DOCUMENTS binding, the test Worker's own: one bucket for both, as deployed.
              r2Buckets: { DOCUMENTS: 'esign-documents' },
            },
          ],
          // The same font files for the suites that make a finished PDF inside the test isolate itself;
          // the application's Worker, stood in for.
          serviceBindings: { FONTS: servePdfFont, APP: applicationStandin },
        },
      };
    }),
  ],
  test: {
    include: ['test/workerd/**/*.test.ts'],
    globalSetup: ['test/workerd/global-setup.ts'],
    setupFiles: ['test/support/patient-wait-for.ts', 'test/workerd/in-workerd.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // The Worker logs one JSON line per request (LOG_REQUESTS is on, as deployed); the suite's
    // output leaves them out, and test/workerd/worker-app.test.ts reads them.
    onConsoleLog: (log) => !log.startsWith('{"request_id":'),
  },
});
