/**
 * `npm run client:generate`: writes clients/typescript/openapi.json and src/schema.ts from the app,
 * then compiles the client into clients/typescript/dist (committed, so installing needs no build).
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { clientDir, compileClient, writeGenerated } from './client-schema.js';

await writeGenerated(clientDir);
await rm(join(clientDir, 'dist'), { recursive: true, force: true });
compileClient(join(clientDir, 'dist'));
console.log('Wrote clients/typescript/openapi.json, src/schema.ts and dist/.');
