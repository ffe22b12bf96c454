/**
 * `postinstall`: copies pdf.js's browser build from node_modules into public/static/vendor/pdfjs/,
 * where the signing page loads it (`npm start` serves public/static/, and `wrangler deploy` uploads
 * public/ as the Worker's static assets). The copies are not committed; every install remakes
 * them from the version package-lock.json pins. Plain JavaScript, so it runs before anything else
 * of the project can.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
// The package's `main` is build/pdf.mjs, so the build folder is found wherever npm put the package.
const build = dirname(require.resolve('pdfjs-dist'));
const target = join(root, 'public', 'static', 'vendor', 'pdfjs');

mkdirSync(target, { recursive: true });
for (const file of ['pdf.min.mjs', 'pdf.worker.min.mjs']) copyFileSync(join(build, file), join(target, file));
console.log(`pdf.js copied to ${target}`);
