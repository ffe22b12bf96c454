/**
 * The document bench's arithmetic (scripts/bench/documents-*.ts): a step's peak read from the
 * samples around it, each isolate's growth per MiB, the aims, and a generated PDF of the size asked.
 */
import { describe, expect, it } from 'vitest';
import type { StepResult } from '../../scripts/bench/documents-flow.js';
import { peakIn, type Sample } from '../../scripts/bench/documents-memory.js';
import { documentOfSize, MiB, pagePlan } from '../../scripts/bench/documents-pdf.js';
import { growthPerMiB, judge, mergePasses, type RunFigures, stepFigures } from '../../scripts/bench/documents-report.js';

const sample = (at: number, heapMb: number, buffersMb = 0): Sample => ({ at, heap: heapMb * MiB, buffers: buffersMb * MiB });

describe('peakIn', () => {
  const samples = [sample(0, 10), sample(10, 50, 30), sample(20, 12), sample(30, 90), sample(40, 11)];
  it('takes the highest heap plus buffers inside the window, and the first reading after it', () => {
    expect(peakIn(samples, 5, 25)?.total).toBe(90 * MiB); // the reading at 30 was asked while the step ran
    expect(peakIn(samples, 5, 15)).toMatchObject({ total: 80 * MiB, heap: 50 * MiB, buffers: 30 * MiB, readings: 2 });
  });
  it('has nothing to say of a window after the last reading', () => {
    expect(peakIn(samples, 41, 50)).toBeUndefined();
  });
});

const step = (name: StepResult['step'], from: number, to: number, ok = true): StepResult => ({
  step: name,
  from,
  to,
  ok,
  ...(ok ? {} : { reason: 'answered 500' }),
});
const run = (size: number, peak: number, ok = true): RunFigures => ({
  stack: 'npm run dev',
  size_mib: size,
  bytes: size * MiB,
  idle_mb: {},
  steps: [{ step: 'import', ok, ms: 1, peak_mb: { api: peak, pdf: 5 }, ...(ok ? {} : { reason: 'answered 500' }) }],
});

describe('the figures', () => {
  it('reports each isolate per step in MB, and nothing for a step not reached', () => {
    const samples = new Map([['api', [sample(0, 20, 5), sample(10, 40)]]]);
    const figures = stepFigures([step('import', 0, 5), { step: 'send', from: Number.NaN, to: Number.NaN, ok: false, reason: 'not reached' }], samples, ['api']);
    expect(figures[0]).toMatchObject({ step: 'import', ok: true, ms: 5, peak_mb: { api: 40 } });
    expect(figures[1]).toMatchObject({ step: 'send', ok: false, ms: null, peak_mb: { api: null } });
  });
  it('gives the growth per MiB as the slope over the sizes that went through', () => {
    expect(growthPerMiB([run(1, 12), run(10, 30), run(25, 60)], 'api')).toBeCloseTo(2, 1);
    expect(growthPerMiB([run(1, 12), run(10, 300, false)], 'api')).toBeNull();
  });
  it('merges the runs that each read other isolates, a step failed if it failed in either', () => {
    const api = { ...run(10, 120), steps: [{ step: 'import' as const, ok: true, ms: 700, peak_mb: { api: 120 } }] };
    const pdf = { ...run(10, 0), steps: [{ step: 'import' as const, ok: false, ms: 650, reason: 'answered 503', peak_mb: { pdf: 90 } }] };
    expect(mergePasses(api, pdf).steps).toEqual([{ step: 'import', ok: false, ms: 700, reason: 'answered 503', peak_mb: { api: 120, pdf: 90 } }]);
  });
  it('holds the aim up to 25 MiB, judges 50 MiB as the stretch, and fails a run over 96 MB or with a failed step', () => {
    const aims = judge([run(1, 40), run(10, 97), run(25, 50, false), run(50, 200)]);
    expect(aims.map((a) => [a.size_mib, a.holds, a.stretch])).toEqual([
      [1, true, false],
      [10, false, false],
      [25, false, false],
      [50, false, true],
    ]);
    expect(aims[1]!.measured).toContain('api 97 MB');
    expect(aims[2]!.measured).toContain('import failed: answered 500');
  });
});

describe('a document of a given size', () => {
  it('plans a page per MiB and images that fill the rest', () => {
    expect(pagePlan(10 * MiB, 20_000).pages).toBe(10);
    expect(pagePlan(10 * MiB, 20_000).imageHeight * 512 * 3 * 10).toBeLessThan(10 * MiB);
  });
  it('comes within a few KiB under the size asked, a PDF of real pages', async () => {
    const pdf = await documentOfSize('Sized', 2 * MiB);
    expect(pdf.length).toBeLessThanOrEqual(2 * MiB);
    expect(pdf.length).toBeGreaterThan(2 * MiB - 8 * 1024);
    expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe('%PDF-');
    const { PDFDocument } = await import('pdf-lib');
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(2);
  });
});
