/**
 * Part of `postinstall` (imported by copy-static-vendor.mjs): the web fonts of the signing page in
 * Japanese and Simplified Chinese, for devices without a font of those scripts, and Noto Sans, the
 * finished PDF's font, in which the page shows the values of earlier signers. Each is a
 * stylesheet of @font-face rules by unicode range (weight 400, .woff2 only) and the files it names,
 * in public/static/vendor/fonts/, from the @fontsource packages package-lock.json pins. A browser
 * downloads only the ranges a page's text uses, and only when no font before it in the page's
 * font-family list has the characters.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const target = join(root, 'public', 'static', 'vendor', 'fonts');

/** The stylesheet's name (what layout.ts links) and its @fontsource package. */
const families = [
  // The finished PDF's own font, in which the page shows what earlier signers filled in.
  ['noto-sans', '@fontsource/noto-sans'],
  ['noto-sans-jp', '@fontsource/noto-sans-jp'],
  ['noto-sans-sc', '@fontsource/noto-sans-sc'],
];

rmSync(target, { recursive: true, force: true });
for (const [name, pkg] of families) {
  const source = dirname(require.resolve(`${pkg}/package.json`));
  const css = readFileSync(join(source, '400.css'), 'utf8');
  mkdirSync(join(target, name), { recursive: true });
  const files = new Set();
  // Only the .woff2 source of each rule: every browser that runs the page's script reads it.
  const rewritten = css.replace(/src: url\(\.\/files\/([^)]+\.woff2)\) format\('woff2'\)[^;]*;/g, (_rule, file) => {
    files.add(file);
    return `src: url(./${name}/${file}) format('woff2');`;
  });
  for (const file of files) copyFileSync(join(source, 'files', file), join(target, name, file));
  writeFileSync(join(target, `${name}.css`), rewritten);
  console.log(`${files.size} font files of ${pkg} copied to ${join(target, name)}`);
}
