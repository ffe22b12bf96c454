/**
 * `npm run client:check`: regenerates the client's files into a scratch folder and fails when the
 * committed ones differ (the API changed, or src/ was edited without rebuilding dist/), so the
 * client never drifts from the API it is typed against.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientDir, compileClient, compiledFiles, generatedFiles, readGenerated, writeGenerated } from './client-schema.js';

const scratch = await mkdtemp(join(tmpdir(), 'esign-client-check-'));
try {
  await mkdir(join(scratch, 'src'));
  await writeGenerated(scratch);
  const drifted: string[] = [];
  for (const file of generatedFiles) {
    const committed = await readGenerated(clientDir, file);
    if (committed !== (await readGenerated(scratch, file))) drifted.push(`clients/typescript/${file}${committed === undefined ? ' (missing)' : ''}`);
  }
  // dist/ is compiled from the committed sources, which the comparison above has just vouched for.
  compileClient(join(scratch, 'dist'));
  const committedDist = await compiledFiles(join(clientDir, 'dist')).catch(() => []);
  const freshDist = await compiledFiles(join(scratch, 'dist'));
  for (const file of new Set([...committedDist, ...freshDist])) {
    if ((await readGenerated(join(clientDir, 'dist'), file)) !== (await readGenerated(join(scratch, 'dist'), file)))
      drifted.push(`clients/typescript/dist/${file}`);
  }
  if (drifted.length > 0) {
    console.error(`The TypeScript client is out of date with the API: ${drifted.join(', ')} differ from what \`npm run client:generate\` makes.`);
    console.error('Run `npm run client:generate` and commit the result.');
    process.exitCode = 1;
  } else {
    console.log('The TypeScript client matches the API.');
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}
