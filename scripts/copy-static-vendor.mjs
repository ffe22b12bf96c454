/**
 * `postinstall`: copies from node_modules what is served or read as static files rather than
 * bundled. The copies are not committed; every install remakes them from the versions
 * package-lock.json pins. Plain JavaScript, so it runs before anything else of the project can.
 *
 * - pdf.js's browser build into public/static/vendor/pdfjs/, where the signing page loads it
 *   (`npm start` serves public/static/, and `wrangler deploy` uploads public/ as the API Worker's
 *   static assets).
 * - Redoc's standalone bundle (and its licence notice) into public/static/vendor/redoc/, which the
 *   API reference at /docs loads from the service itself (as shipped; its one image from a CDN is refused by the page's policy).
 * - The fonts of the finished PDF (weight 400 normal, .woff, the files src/pdf/fonts/font-files.mjs
 *   lists) and their manifest.json into pdf-fonts/, the PDF Worker's static assets
 *   (wrangler.pdf.toml), which it reads through its FONTS binding. Node reads node_modules itself.
 */
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fontManifest, fontPath } from '../src/pdf/fonts/font-files.mjs';
// The signing page's own web fonts (Japanese, Simplified Chinese): copied on import, see that file.
import './copy-page-fonts.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
// The package's `main` is build/pdf.mjs, so the build folder is found wherever npm put the package.
const build = dirname(require.resolve('pdfjs-dist'));
const target = join(root, 'public', 'static', 'vendor', 'pdfjs');

mkdirSync(target, { recursive: true });
for (const file of ['pdf.min.mjs', 'pdf.worker.min.mjs']) copyFileSync(join(build, file), join(target, file));
console.log(`pdf.js copied to ${target}`);

// The package's `main` is bundles/redoc.lib.js, beside the standalone bundle.
const redocBundles = dirname(require.resolve('redoc'));
const redocTarget = join(root, 'public', 'static', 'vendor', 'redoc');
mkdirSync(redocTarget, { recursive: true });
copyFileSync(join(redocBundles, 'redoc.standalone.js.LICENSE.txt'), join(redocTarget, 'redoc.standalone.js.LICENSE.txt'));
// Copied as shipped. Its side menu's footer asks Redocly's CDN for a logo, which the page's
// content policy refuses: the browser makes no request to another origin.
copyFileSync(join(redocBundles, 'redoc.standalone.js'), join(redocTarget, 'redoc.standalone.js'));
console.log(`Redoc copied to ${redocTarget}`);

const fonts = join(root, 'pdf-fonts');
const manifest = fontManifest(root);
const wanted = new Set([...manifest.files.map((entry) => entry.file), 'manifest.json']);
mkdirSync(fonts, { recursive: true });
// Files of an older install that the manifest no longer names would be uploaded for nothing.
for (const file of readdirSync(fonts)) if (!wanted.has(file)) rmSync(join(fonts, file));
for (const entry of manifest.files) copyFileSync(fontPath(root, entry), join(fonts, entry.file));
writeFileSync(join(fonts, 'manifest.json'), JSON.stringify(manifest));
console.log(`${manifest.files.length} font files copied to ${fonts}`);
