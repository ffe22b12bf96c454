/**
 * The document bench's figures from its raw records: each step's peak per isolate, each isolate's
 * growth per MiB of document, the aims judged, and the table printed. No I/O but the printing.
 */
import { peakIn, type Sample } from './documents-memory.js';
import type { StepName, StepResult } from './documents-flow.js';

/** Reported in MB of 2^20 bytes, as DevTools shows a heap and as the Workers limit (128 MB) is meant. */
export const MB = 1024 * 1024;
export const AIM_MB = 96;
export const AIM_UP_TO_MIB = 25;
export const STRETCH_MIB = 50;

export type Checks = { pdfsig: string; qpdf: string; original_prefix: string };
export type StepFigures = { step: StepName; ok: boolean; ms: number | null; reason?: string; detail?: string; peak_mb: Record<string, number | null> };
export type RunFigures = {
  stack: string;
  size_mib: number;
  bytes: number;
  idle_mb: Record<string, number>;
  steps: StepFigures[];
  checks?: Checks;
  error?: string;
};

const mb = (bytes: number) => Math.round((bytes / MB) * 10) / 10;

/** Each step's time and each isolate's peak in it, from the samples read meanwhile. */
export function stepFigures(steps: StepResult[], samples: Map<string, Sample[]>, isolates: string[]): StepFigures[] {
  return steps.map((s) => {
    const reached = Number.isFinite(s.from);
    const peak_mb = Object.fromEntries(isolates.map((name) => [name, reached ? (peakIn(samples.get(name) ?? [], s.from, s.to)?.total ?? null) : null]));
    return {
      step: s.step,
      ok: s.ok,
      ms: reached ? Math.round(s.to - s.from) : null,
      ...(s.reason ? { reason: s.reason } : {}),
      ...(s.detail ? { detail: s.detail } : {}),
      peak_mb: Object.fromEntries(Object.entries(peak_mb).map(([name, bytes]) => [name, bytes === null ? null : mb(bytes)])),
    };
  });
}

/** The last reading before `at` of each isolate: what it held at rest. */
export function idleFigures(samples: Map<string, Sample[]>, at: number, isolates: string[]): Record<string, number> {
  return Object.fromEntries(
    [...samples].flatMap(([name, list]) => {
      if (!isolates.includes(name)) return [];
      const before = list.filter((s) => s.at <= at).at(-1);
      return before ? [[name, mb(before.heap + before.buffers)]] : [];
    }),
  );
}

/** Two runs of one size, each reading other isolates, as one: a step failed if it failed in either. */
export function mergePasses(a: RunFigures, b: RunFigures): RunFigures {
  const steps = a.steps.length && b.steps.length ? a.steps.map((s, i) => mergeStep(s, b.steps[i]!)) : a.steps.length ? a.steps : b.steps;
  const error = a.error ?? b.error;
  const checks = a.checks ?? b.checks;
  return { ...a, idle_mb: { ...a.idle_mb, ...b.idle_mb }, steps, ...(error ? { error } : {}), ...(checks ? { checks } : {}) };
}

function mergeStep(a: StepFigures, b: StepFigures): StepFigures {
  const reason = a.ok ? b.reason : a.reason;
  const detail = a.detail ?? b.detail;
  return {
    step: a.step,
    ok: a.ok && b.ok,
    ms: a.ms ?? b.ms,
    peak_mb: { ...a.peak_mb, ...b.peak_mb },
    ...(reason ? { reason } : {}),
    ...(detail ? { detail } : {}),
  };
}

/** An isolate's highest peak over a run's steps. */
export const runPeak = (run: RunFigures, isolate: string): number | null => {
  const peaks = run.steps.flatMap((s) => (s.peak_mb[isolate] === null || s.peak_mb[isolate] === undefined ? [] : [s.peak_mb[isolate]!]));
  return peaks.length ? Math.max(...peaks) : null;
};

/** Growth per MiB of document: the least-squares slope of the run's peak against its size, over the sizes that went through. */
export function growthPerMiB(runs: RunFigures[], isolate: string): number | null {
  const points = runs.flatMap((r) => {
    const peak = runPeak(r, isolate);
    return peak === null || r.steps.some((s) => !s.ok) ? [] : [[r.bytes / MB, peak] as const];
  });
  if (points.length < 2) return null;
  const mx = points.reduce((n, [x]) => n + x, 0) / points.length;
  const my = points.reduce((n, [, y]) => n + y, 0) / points.length;
  const sxx = points.reduce((n, [x]) => n + (x - mx) ** 2, 0);
  if (sxx === 0) return null;
  return Math.round((points.reduce((n, [x, y]) => n + (x - mx) * (y - my), 0) / sxx) * 100) / 100;
}

export type Aim = { stack: string; size_mib: number; aim: string; holds: boolean; measured: string; stretch: boolean };

/** Every run up to AIM_UP_TO_MIB: each step goes through and each isolate stays within AIM_MB; 50 MiB judged as the stretch. */
export function judge(runs: RunFigures[]): Aim[] {
  return runs
    .filter((r) => r.size_mib <= STRETCH_MIB)
    .map((r) => {
      const isolates = [...new Set(r.steps.flatMap((s) => Object.keys(s.peak_mb)))];
      const over = isolates.flatMap((name) => {
        const peak = runPeak(r, name);
        return peak !== null && peak > AIM_MB ? [`${name} ${peak} MB`] : [];
      });
      const failed = r.steps.filter((s) => !s.ok && s.reason !== 'not reached');
      const peaks = isolates.map((name) => `${name} ${runPeak(r, name) ?? '?'}`).join(', ');
      const measured =
        r.error ?? (failed.length ? `${failed[0]!.step} failed: ${failed[0]!.reason}` : over.length ? `over: ${over.join(', ')}` : `peaks ${peaks} MB`);
      return {
        stack: r.stack,
        size_mib: r.size_mib,
        aim: `every step, each isolate ≤ ${AIM_MB} MB`,
        holds: !r.error && !failed.length && !over.length,
        measured,
        stretch: r.size_mib > AIM_UP_TO_MIB,
      };
    });
}

/** The table: stack × size × step, each isolate's peak and the step's time. */
export function printTable(runs: RunFigures[], intervalMs: number): void {
  console.log(`\nPeak of each isolate per step (JS heap + array buffers, MB of 2^20 bytes, read every ${intervalMs} ms), and the step's time`);
  for (const run of runs) {
    const isolates = [...new Set(run.steps.flatMap((s) => Object.keys(s.peak_mb)))];
    console.log(`\n${run.stack}, ${run.size_mib} MiB (${run.bytes} B)${run.error ? `: ${run.error}` : ''}`);
    if (!run.steps.length) continue;
    console.log(`  ${'step'.padEnd(10)}${isolates.map((n) => n.padStart(18)).join('')}${'ms'.padStart(9)}  `);
    console.log(`  ${'at rest'.padEnd(10)}${isolates.map((n) => String(run.idle_mb[n] ?? '?').padStart(18)).join('')}`);
    for (const s of run.steps) {
      const peaks = isolates.map((n) => String(s.peak_mb[n] ?? '–').padStart(18)).join('');
      const note = s.ok ? (s.detail ?? '') : `FAILED: ${s.reason}`;
      console.log(`  ${s.step.padEnd(10)}${peaks}${String(s.ms ?? '–').padStart(9)}  ${note}`);
    }
    if (run.checks)
      console.log(`  finished PDF: pdfsig ${run.checks.pdfsig}; qpdf --check ${run.checks.qpdf}; original a prefix: ${run.checks.original_prefix}`);
  }
}

/** Each stack's isolates and their growth per MiB. */
export function growthTable(runs: RunFigures[]): { stack: string; isolate: string; mb_per_mib: number | null }[] {
  return [...new Set(runs.map((r) => r.stack))].flatMap((stack) => {
    const mine = runs.filter((r) => r.stack === stack);
    const isolates = [...new Set(mine.flatMap((r) => r.steps.flatMap((s) => Object.keys(s.peak_mb))))];
    return isolates.map((isolate) => ({ stack, isolate, mb_per_mib: growthPerMiB(mine, isolate) }));
  });
}

export function printGrowthAndAims(runs: RunFigures[], aims: Aim[]): void {
  console.log('\nGrowth of each isolate’s peak per MiB of document (slope over the sizes that went through)');
  for (const g of growthTable(runs)) console.log(`  ${g.stack}, ${g.isolate}: ${g.mb_per_mib ?? 'n/a (fewer than two sizes went through)'} MB per MiB`);
  console.log('\nAims');
  for (const a of aims)
    console.log(`  ${a.holds ? 'holds        ' : 'DOES NOT HOLD'}  ${a.stretch ? '(stretch) ' : ''}${a.stack}, ${a.size_mib} MiB, ${a.aim}: ${a.measured}`);
}
