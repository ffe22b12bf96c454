/**
 * `npm run lint:openapi`: the document `GET /v1/openapi.json` serves, built from the app in this
 * process (no server), written to a scratch file and checked by Redocly against redocly.yaml
 * (its recommended rules). Exits with Redocly's status, so a finding fails CI.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { servedDocument } from './client-schema.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const scratch = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
try {
  const document = join(scratch, 'openapi.json');
  await writeFile(document, await servedDocument());
  const redocly = join(root, 'node_modules', '.bin', 'redocly');
  const lint = spawnSync(redocly, ['lint', document, '--format', 'codeframe', '--config', join(root, 'redocly.yaml')], {
    stdio: 'inherit',
    cwd: root,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  process.exitCode = lint.status ?? 1;
} finally {
  await rm(scratch, { recursive: true, force: true });
}
