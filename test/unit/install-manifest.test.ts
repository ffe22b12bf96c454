/**
 * `npm install` and `npm ci` run quietly on every Node.js version the README supports: no locked
 * package asks for a newer Node.js (npm's EBADENGINE warning), and every locked package with an
 * install script is either allowed to run it or denied in package.json's `allowScripts` (npm 11
 * warns about, and skips, the scripts of any other). The clean install itself is checked by CI
 * (.ci/run reads the log of its `npm ci`); this reads the lock file, so it fails before a push.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../embedded/server-process.js';

type Locked = { version?: string; engines?: { node?: string } | string[]; hasInstallScript?: boolean; optional?: boolean };
const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { engines: { node: string }; allowScripts?: Record<string, boolean> };
const lock = JSON.parse(readFileSync(join(projectRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, Locked> };

/** The oldest release of each major line the README names (Node.js 20.19 or later on 20, 22.13 or later on 22, and 24). */
const SUPPORTED = ['20.19.0', '22.13.0', '24.0.0'];

const parts = (version: string) => version.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : Number.NaN));
function compare(a: number[], b: number[]): number {
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}

/**
 * Whether `version` meets an engines range as packages write them: alternatives joined by `||`,
 * each a list of `>=`, `>`, `<=`, `<`, `^`, `~`, `=` comparators, `x` or `*`. Anything else throws,
 * so that a form this does not know is looked at rather than passed.
 */
function satisfies(version: string, range: string): boolean {
  const have = parts(version);
  return range.split('||').some((alternative) =>
    alternative
      .trim()
      .replace(/([<>=^~]+)\s+/g, '$1')
      .split(/\s+/)
      .every((comparator) => {
        if (comparator === '' || comparator === '*' || comparator === 'x') return true;
        const match = /^(>=|<=|>|<|\^|~|=)?v?(\d+(?:\.(?:\d+|x|\*))?(?:\.(?:\d+|x|\*))?)$/.exec(comparator);
        if (!match) throw new Error(`An engines range this check does not read: ${range}`);
        const [, operator = '=', written = ''] = match;
        const wanted = parts(written.replace(/\.[x*]/g, ''));
        const given = written.split('.').filter((part) => /^\d+$/.test(part)).length;
        const order = compare(have, wanted);
        if (operator === '>=') return order >= 0;
        if (operator === '>') return order > 0;
        if (operator === '<=') return order <= 0;
        if (operator === '<') return order < 0;
        if (operator === '^') return order >= 0 && have[0] === wanted[0] && (wanted[0] !== 0 || have[1] === wanted[1]);
        // `~1.2.3` and a partly written version (`20`, `20.x`) fix what they write.
        const fixed = operator === '~' ? Math.min(given, 2) : given;
        return order >= 0 && have.slice(0, fixed).every((part, i) => part === wanted[i]);
      }),
  );
}

describe('the install manifest', () => {
  it('reads engines ranges as npm does, at their bounds', () => {
    expect(satisfies('22.12.0', '>=22.12.0')).toBe(true);
    expect(satisfies('22.11.9', '>=22.12.0')).toBe(false);
    expect(satisfies('20.19.0', '^20.19.0 || >=22.12.0')).toBe(true);
    expect(satisfies('22.11.0', '^20.19.0 || >=22.12.0')).toBe(false);
    expect(satisfies('20.19.0', '>= 18 < 21')).toBe(true);
    expect(satisfies('21.0.0', '>= 18 < 21')).toBe(false);
    expect(satisfies('24.0.0', '20 || 22 || 24.x')).toBe(true);
    expect(() => satisfies('20.19.0', 'node-latest')).toThrow(/does not read/);
  });

  it('has no locked package that needs a newer Node.js than the supported ones', () => {
    const tooNew = Object.entries(lock.packages).flatMap(([path, locked]) => {
      const range = Array.isArray(locked.engines) ? undefined : locked.engines?.node;
      if (!range) return [];
      const refused = SUPPORTED.filter((version) => !satisfies(version, range));
      return refused.length > 0 ? [`${path || 'the project'} ${locked.version ?? ''} wants node ${range}, refusing ${refused.join(', ')}`] : [];
    });
    expect(tooNew).toEqual([]);
    expect(satisfies(SUPPORTED[0]!, manifest.engines.node)).toBe(true);
  });

  it('names every locked package with an install script in allowScripts, allowed or denied', () => {
    const allow = manifest.allowScripts ?? {};
    const unreviewed = Object.entries(lock.packages)
      .filter(([path, locked]) => path !== '' && locked.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length))
      .filter((name) => typeof allow[name] !== 'boolean');
    expect([...new Set(unreviewed)]).toEqual([]);
    // The binaries the tools run need their scripts: esbuild (tsx, vite, wrangler) and workerd.
    expect(allow).toMatchObject({ esbuild: true, workerd: true });
  });
});
