/**
 * The project's commands (scripts/: the benchmarks, the soak, the admin CLI, npm run dev…) are built
 * on the service and local/, never on its tests: a test may import a script, not the other way, so
 * that a suite can change without a command breaking, and the benchmarks measure the code as shipped.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The project files a source imports, static or dynamic, by their path from the project's root. */
function importedFiles(file: string, text: string): string[] {
  const specifiers = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm)].map((match) => match[1]!);
  return specifiers.map((specifier) => relative(root, resolve(dirname(join(root, file)), specifier)));
}

const scriptFiles = () =>
  readdirSync(join(root, 'scripts'), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|mts|mjs|js)$/.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));

describe('scripts/', () => {
  it('imports nothing from test/', () => {
    const intoTests = scriptFiles().flatMap((file) =>
      importedFiles(file, readFileSync(join(root, file), 'utf8'))
        .filter((target) => target === 'test' || target.startsWith('test/'))
        .map((target) => `${file} → ${target}`),
    );
    expect(intoTests).toEqual([]);
  });

  it('finds an import of test code, static or dynamic', () => {
    const file = 'scripts/bench/example.ts';
    expect(importedFiles(file, "import { startServer } from '../../test/embedded/server-process.js';")).toEqual(['test/embedded/server-process.js']);
    expect(importedFiles(file, "const png = await import('../../test/support/png.js');")).toEqual(['test/support/png.js']);
    expect(importedFiles(file, "import { x } from '../../src/lib/crypto.js';")).toEqual(['src/lib/crypto.js']);
  });
});
