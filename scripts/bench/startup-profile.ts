/**
 * Reading the start-up profiles of `npm run size` (DevTools CPU profiles that `wrangler check
 * startup` writes): the start-up's CPU time, and where it goes, by package and by function of ours.
 */
import type { SourceMap, SourceMapping } from 'node:module';
import { basename, dirname, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
export type Profile = {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
};

export function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const round = (n: number) => Number(n.toFixed(1));

/** The package a bundled source file came from, or this repository. */
export function packageOf(path: string): string {
  const name = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1];
  // drizzle-orm's source maps name `../src/*.ts`, which it does not ship: its frames map to node_modules/src/.
  return name === undefined ? '(this repo)' : name === 'src' ? 'drizzle-orm' : name;
}

/**
 * Calls `fn` with each sample's node and the time until the next sample, as DevTools does. (The
 * first delta runs from the start of profiling to the first sample, while the isolate still waits.)
 */
function eachSample(profile: Profile, fn: (nodeId: number, micros: number) => void) {
  let at = profile.startTime;
  const times = profile.timeDeltas.map((delta) => (at += delta));
  for (const [i, id] of profile.samples.entries()) fn(id, (times[i + 1] ?? profile.endTime) - (times[i] ?? profile.endTime));
}

/**
 * Start-up CPU time: every sample but "(idle)" and "(program)". GC counts: the global scope's own
 * allocations cause it. "(program)" is workerd's native work that no JavaScript owns (dispatching the
 * profiling request, inspector traffic), the same for any Worker, usually 0–1 ms: reported apart.
 * On a busy machine a descheduled thread makes one sample span 10–60 ms; `bySamples` (the samples
 * counted at the usual interval) is steadier, but short where the runtime itself delays sampling.
 */
export function startupTimes(profile: Profile) {
  const names = new Map(profile.nodes.map((n) => [n.id, n.callFrame.functionName]));
  const ms = { cpu: 0, gc: 0, program: 0, bySamples: 0 };
  const spans: number[] = [];
  let busy = 0;
  eachSample(profile, (id, micros) => {
    const [name, span] = [names.get(id), micros / 1000];
    spans.push(span);
    if (name === '(program)') ms.program += span;
    if (name === '(garbage collector)') ms.gc += span;
    if (name === '(idle)' || name === '(program)') return;
    ms.cpu += span;
    busy++;
  });
  ms.bySamples = busy * median(spans);
  return ms;
}

/** Where the start-up time goes, averaged over the profiles: self time per package, and per function of ours including callees. */
export function hotspots(profiles: Profile[], bundle: string, map: SourceMap, count: number) {
  const inBundle = (frame: CallFrame) => frame.url.endsWith(`/${basename(bundle)}`);
  const byPackage = new Map<string, number>();
  const byOwnFunction = new Map<string, number>();
  const add = (m: Map<string, number>, key: string, micros: number) => m.set(key, (m.get(key) ?? 0) + micros / 1000 / profiles.length);
  for (const profile of profiles) {
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    const parents = new Map(profile.nodes.flatMap((n) => (n.children ?? []).map((c) => [c, n.id] as const)));
    const origin = (frame: CallFrame) => {
      if (!inBundle(frame) || frame.lineNumber < 0) return undefined;
      const entry = map.findEntry(frame.lineNumber, frame.columnNumber) as Partial<SourceMapping>;
      return entry.originalSource === undefined ? undefined : { source: entry.originalSource, line: (entry.originalLine ?? 0) + 1 };
    };
    eachSample(profile, (id, micros) => {
      const leaf = nodes.get(id)!.callFrame;
      if (leaf.functionName === '(idle)' || leaf.functionName === '(program)') return;
      const at = origin(leaf);
      // The bundle's top level (every ESM module's body, hoisted into one scope) has no finer position;
      // outside the bundle are workerd's own JavaScript (its node: modules) and native functions.
      const runtime = leaf.url.startsWith('node-internal:')
        ? '(workerd: node: modules)'
        : leaf.functionName.startsWith('(')
          ? leaf.functionName
          : `(native) ${leaf.functionName || 'anonymous'}`;
      add(byPackage, at ? packageOf(at.source) : inBundle(leaf) ? '(module bodies, hoisted)' : runtime, micros);
      // The innermost function of ours on the stack (the bundle's names are minified: file and line only).
      for (let n: number | undefined = id; n !== undefined; n = parents.get(n)) {
        const own = origin(nodes.get(n)!.callFrame);
        if (own && packageOf(own.source) === '(this repo)')
          return add(byOwnFunction, `${relative(root, resolve(dirname(bundle), own.source))}:${own.line}`, micros);
      }
      add(byOwnFunction, '(not under a function of ours: module bodies)', micros);
    });
  }
  const top = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, ms]) => ({ name, ms: round(ms) }));
  return { byPackage: top(byPackage), byOwnFunction: top(byOwnFunction) };
}
