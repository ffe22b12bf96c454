/**
 * The typed client as an integrator installs it (docs/api-guide.md, "TypeScript client"): packed
 * with `npm run client:pack`, installed from the tarball into a project of their own outside this
 * repository, with its dependencies from the registry (npm's cache first: the repository's own
 * install already holds them), and imported from a plain ES module against `npm start`.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, projectRoot, type ServerRun, startServer, userEnvironment } from '../embedded/server-process.js';

const run = promisify(execFile);
const DEMO_KEY = 'esk_test_acme_full_5Qm3x9Lr2Vt8Wp4Nz7Hc';

let server: ServerRun | undefined;
let scratch: string;
let baseUrl: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'esign-client-tarball-'));
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  server = await startServer({ PORT: String(port), DATA_DIR: join(scratch, 'data') });
});
afterAll(async () => {
  await server?.stop();
  await rm(scratch, { recursive: true, force: true });
});

describe('the client tarball', () => {
  it('packs with its compiled code, installs outside the repository with its dependencies, and lists the demo templates', async () => {
    const env = { ...userEnvironment(), npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
    const packed = join(scratch, 'packed');
    await mkdir(packed);
    await run('npm', ['run', '-s', 'client:pack', '--', '--pack-destination', packed], { cwd: projectRoot, env });
    const [tarball, ...others] = await readdir(packed);
    expect(others).toEqual([]);
    expect(tarball).toBe('esign-client-1.0.0.tgz');
    const { stdout: listing } = await run('tar', ['-tzf', join(packed, tarball!)]);
    expect(listing.split('\n')).toEqual(expect.arrayContaining(['package/dist/index.js', 'package/dist/index.d.ts', 'package/package.json']));

    // A project of the integrator's: nothing of this repository's node_modules above it.
    const project = join(scratch, 'project');
    await mkdir(project);
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'integrator', private: true, type: 'module' }));
    await run('npm', ['install', join(packed, tarball!), '--prefer-offline'], { cwd: project, env });
    await writeFile(
      join(project, 'list.mjs'),
      [
        "import { ESignClient } from '@esign/client';",
        'const client = new ESignClient({ baseUrl: process.env.BASE_URL, apiKey: process.env.API_KEY });',
        'const templates = await client.listTemplates({ per_page: 10 });',
        'console.log(templates.data.map((template) => template.name).sort().join(", "));',
      ].join('\n'),
    );
    const { stdout } = await run('node', ['list.mjs'], { cwd: project, env: { ...env, BASE_URL: baseUrl, API_KEY: DEMO_KEY } });
    expect(stdout.trim()).toBe('Mutual NDA, Offer Letter');
  }, 240_000);
});
