// The batch engine on temp folders of corpus copies plus bad files: outputs, failures, inputs
// untouched, no temp litter, skip/overwrite, progress throttling, cancellation and the job API.
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { readVmd, writeVmd } from '../../shared/vmd';
import { mirror, trim } from '../../shared/motion-ops';
import { runBatch as runBatchJob, findWorkerScript } from '../../electron/batch/engine';

/** A job that must start: its summary (a job refused before starting fails the test with its error). */
async function runBatch(...args: Parameters<typeof runBatchJob>) {
  const r = await runBatchJob(...args);
  if (!r.ok) throw new Error(`job refused: ${r.error.code} ${r.error.message}`);
  return r.value;
}
import { createBatchService } from '../../electron/services/batch-service';
import type { Events } from '../../shared/ipc/contract';
import { runCli } from '../../electron/cli/main';
import { failedFiles, type BatchProgress, type BatchSummary, type DoneFile } from '../../shared/batch/types';
import { addBadFiles, copyCorpus, CORPUS, findTemps, hashTree, listFiles, useTempDirs, WORKER } from './batch-helpers';

const mk = useTempDirs();


describe('runBatch', () => {
  it('finds the bundled worker from the TS sources', () => {
    expect(findWorkerScript()).toBe(WORKER);
  });

  it('mirror over corpus copies + corrupt/truncated/unreadable: good files written, bad reported, inputs unchanged, no temps', async () => {
    const root = mk('mirror');
    const input = path.join(root, 'in');
    const output = path.join(root, 'out');
    const good = copyCorpus(input, 40);
    const bad = addBadFiles(input);
    const before = hashTree(input);
    const progress: BatchProgress[] = [];
    const s = await runBatch({ op: 'mirror', inputDir: input, outputDir: output, options: {}, recursive: true, jobs: 2 }, { onProgress: (p) => progress.push(p) });
    expect(s.total).toBe(good.length + 3);
    expect(s.ok).toBe(good.length);
    expect(s.failed).toBe(3);
    expect(s.cancelled).toBe(false);
    const failedInputs = failedFiles(s.results).map((r) => r.input).sort();
    expect(failedInputs).toEqual([bad.corrupt, bad.truncated, bad.unreadable].sort());
    const codes = Object.fromEntries(failedFiles(s.results).map((r) => [path.basename(r.input), r.error!.code]));
    expect(codes['corrupt.vmd']).toBe('E_VMD_MAGIC');
    expect(['E_VMD_COUNT', 'E_VMD_TRUNCATED']).toContain(codes['truncated.vmd']);
    expect(['E_IO_DENIED', 'E_IO_NOT_FOUND']).toContain(codes['unreadable.vmd']);
    console.log(`unreadable case used: ${bad.unreadableKind} (${codes['unreadable.vmd']})`);
    // every good file: output mirrors the tree, differs from the input where some key changed (a motion
    // whose keys all map onto themselves, babylon-mmd's physics_toggle_test files, comes back as it was),
    // and mirrors back to it
    let differ = 0;
    for (const g of good) {
      const rel = path.relative(input, g);
      const outBytes = new Uint8Array(readFileSync(path.join(output, rel)));
      const inBytes = new Uint8Array(readFileSync(g));
      const done = s.results.find((r) => r.ok && r.input === g) as DoneFile;
      const changed = (done.value.report as { changed: number }).changed;
      expect(Buffer.compare(Buffer.from(outBytes), Buffer.from(inBytes)) !== 0, rel).toBe(changed > 0);
      if (changed) differ++;
      const d = readVmd(outBytes);
      if (!d.ok) throw new Error(d.error.message);
      const back = mirror(d.value);
      if (!back.ok) throw new Error('mirror');
      expect(Buffer.from(writeVmd(back.value.doc)).equals(Buffer.from(inBytes)), rel).toBe(true);
    }
    expect(differ).toBeGreaterThan(good.length / 2);
    expect(listFiles(output).length).toBe(good.length);
    expect(hashTree(input)).toEqual(before);
    expect(findTemps(output)).toEqual([]);
    expect(findTemps(input)).toEqual([]);
    // progress: starts at 0, ends at total, throttled to ≥ ~100 ms apart in between
    expect(progress[0].done).toBe(0);
    expect(progress[progress.length - 1].done).toBe(s.total);
    for (let i = 2; i < progress.length - 1; i++) expect(progress[i].elapsedMs - progress[i - 1].elapsedMs).toBeGreaterThanOrEqual(95);
    // report counts travel with each result
    const one = s.results.find((r) => r.ok) as DoneFile;
    expect(one.value.report).toMatchObject({ edit: 'mirror' });
    expect(typeof one.ms).toBe('number');
  });

  it('does not overwrite unless asked; dry run writes nothing', async () => {
    const root = mk('skip');
    const input = path.join(root, 'in');
    const output = path.join(root, 'out');
    copyCorpus(input, 6);
    const job = { op: 'speed' as const, inputDir: input, outputDir: output, options: { factor: 2 }, recursive: true, jobs: 2 };
    const first = await runBatch(job);
    expect(first.ok).toBe(6);
    // plant a sentinel in one output: a second run must keep it
    const victim = path.join(output, listFiles(output)[0]);
    writeFileSync(victim, 'sentinel');
    const second = await runBatch(job);
    expect(second.skipped).toBe(6);
    expect(second.ok).toBe(0);
    expect(readFileSync(victim, 'utf8')).toBe('sentinel');
    const third = await runBatch({ ...job, overwrite: true });
    expect(third.ok).toBe(6);
    expect(readVmd(new Uint8Array(readFileSync(victim))).ok).toBe(true);
    const dryOut = path.join(root, 'dry');
    const dry = await runBatch({ ...job, outputDir: dryOut, dryRun: true });
    expect(dry.skipped).toBe(6);
    expect(listFiles(dryOut)).toEqual([]);
    expect((dry.results[0] as DoneFile).value.report).toMatchObject({ dryRun: true });
  });

  it('in-process fallback (no worker bundle) gives the same bytes as the workers', async () => {
    const root = mk('inproc');
    const input = path.join(root, 'in');
    copyCorpus(input, 8);
    const opts = { op: 'trim' as const, inputDir: input, options: { from: 5, to: 40 }, recursive: true, jobs: 2 };
    const a = await runBatch({ ...opts, outputDir: path.join(root, 'w') });
    const b = await runBatch({ ...opts, outputDir: path.join(root, 'p') }, { workerPath: null });
    expect(a.ok).toBe(8);
    expect(b.ok).toBe(8);
    for (const f of listFiles(path.join(root, 'w'))) {
      expect(readFileSync(path.join(root, 'w', f)).equals(readFileSync(path.join(root, 'p', f))), f).toBe(true);
    }
    // and the trim output is what the edit gives on its own
    const f0 = listFiles(input)[0];
    const d = readVmd(new Uint8Array(readFileSync(path.join(input, f0))));
    if (!d.ok) throw new Error('read');
    const t = trim(d.value, { from: 5, to: 40 });
    if (!t.ok) throw new Error('trim');
    expect(Buffer.from(writeVmd(t.value.doc)).equals(readFileSync(path.join(root, 'w', f0)))).toBe(true);
  });

  it('convert and pose ops change the extension; VPDs are converted too', async () => {
    const root = mk('convert');
    const input = path.join(root, 'in');
    copyCorpus(input, 3, (f) => f.endsWith('walk.vmd') || f.endsWith('idle.vmd'));
    mkdirSync(path.join(input, 'poses'), { recursive: true });
    writeFileSync(path.join(input, 'poses', 'p.vpd'), readFileSync(path.join(CORPUS, 'threejs/vpds/01.vpd')));
    const s = await runBatch({ op: 'convert', inputDir: input, outputDir: path.join(root, 'out'), options: { frame: 10 }, recursive: true, jobs: 1 });
    expect(s.failed).toBe(0);
    const outs = listFiles(path.join(root, 'out'));
    expect(outs.filter((f) => f.endsWith('.vpd')).length).toBe(3);
    expect(outs).toContain(path.join('poses', 'p.vmd'));
  });

  it('inspect writes per file the same JSON as `vmd-studio inspect --json` (VMD and VPD)', async () => {
    const root = mk('inspect');
    const input = path.join(root, 'in');
    mkdirSync(input, { recursive: true });
    const vmd = path.join(input, 'walk.vmd'), vpd = path.join(input, 'p.vpd');
    writeFileSync(vmd, readFileSync(path.join(CORPUS, 'mc-mmd-rust/default_anim/walk.vmd')));
    writeFileSync(vpd, readFileSync(path.join(CORPUS, 'threejs/vpds/01.vpd')));
    const s = await runBatch({ op: 'inspect', inputDir: input, outputDir: path.join(root, 'out'), options: {}, recursive: false, jobs: 1 });
    expect(s.failed).toBe(0);
    for (const [file, out] of [[vmd, 'walk.json'], [vpd, 'p.json']]) {
      let printed = '';
      expect(await runCli(['inspect', '--json', file], { stdout: (t) => (printed += t), stderr: () => undefined, cwd: root, isTTY: false })).toBe(0);
      const { file: _f, ok: _ok, ...cli } = JSON.parse(printed);
      const written = JSON.parse(readFileSync(path.join(root, 'out', out), 'utf8'));
      expect(written).toEqual(cli);
      expect(written.counts.bone).toBeGreaterThan(0);
    }
  });

  it('bad jobs are rejected before any file is touched', async () => {
    const root = mk('badjob');
    expect(await runBatchJob({ op: 'trim', inputDir: root, outputDir: path.join(root, 'o'), options: {} })).toMatchObject({
      ok: false,
      error: { code: 'E_ARGUMENT', option: 'from', problem: 'required', message: '--from is required' },
    });
    expect(await runBatchJob({ op: 'mirror', inputDir: root, outputDir: root, options: {} })).toMatchObject({
      ok: false,
      error: { code: 'E_ARGUMENT', message: 'the output folder must differ from the input folder (inputs are never modified)' },
    });
    expect(await runBatchJob({ op: 'mirror', inputDir: path.join(root, 'missing'), outputDir: path.join(root, 'o'), options: {} })).toMatchObject({
      ok: false,
      error: { code: 'E_IO_NOT_FOUND', file: path.join(root, 'missing') },
    });
    expect(listFiles(root)).toEqual([]);
  });

  // How soon it stops is timed by `npm run bench` (test/bench/batch-bench.ts), not asserted here.
  it('cancelling stops the run early, keeps finished outputs whole and leaves no temp files', async () => {
    const root = mk('cancel');
    const input = path.join(root, 'in');
    const output = path.join(root, 'out');
    copyCorpus(input, 240, (f) => /Drink|wavefile_v2|26_mortifying/.test(f));
    const ac = new AbortController();
    let abortedAt = 0;
    const run = runBatch(
      { op: 'trim', inputDir: input, outputDir: output, options: { from: 20, to: 60 }, recursive: true, jobs: 2 },
      {
        signal: ac.signal,
        onProgress: (p) => {
          if (!abortedAt && p.done >= 4) {
            abortedAt = performance.now();
            ac.abort();
          }
        },
      },
    );
    const s = await run;
    const stopMs = performance.now() - abortedAt;
    expect(abortedAt).toBeGreaterThan(0);
    expect(s.cancelled).toBe(true);
    expect(s.results.length).toBeLessThan(240);
    const written = listFiles(output);
    expect(written.length).toBeGreaterThanOrEqual(4);
    expect(written.length).toBeLessThan(240);
    for (const f of written) expect(readVmd(new Uint8Array(readFileSync(path.join(output, f)))).ok, f).toBe(true);
    expect(findTemps(output)).toEqual([]);
    console.log(`cancel: stopped ${stopMs.toFixed(0)} ms after abort with ${written.length}/240 outputs written`);
  });
});

/** The batch service main wires to startBatch/cancelBatch, on the real engine; its events as the window gets them. */
function serviceOnEngine() {
  const events: { e: keyof Events; p: unknown }[] = [];
  const svc = createBatchService({ runBatch: runBatchJob, emit: (e, p) => events.push({ e, p }), progressIntervalMs: 0 });
  const done = () => events.find((x) => x.e === 'batchDone')?.p as BatchSummary | undefined;
  const progress = () => events.filter((x) => x.e === 'batchProgress').map((x) => x.p as BatchProgress);
  return { svc, done, progress };
}

describe('batch service (the job API for the app)', () => {
  it('start → id, progress events, result; cancel on an unknown or finished id is false', async () => {
    const root = mk('jobs');
    const input = path.join(root, 'in');
    copyCorpus(input, 5);
    const { svc, done, progress } = serviceOnEngine();
    const started = await svc.start({ op: 'shift', inputDir: input, outputDir: path.join(root, 'out'), options: { by: 3 }, recursive: true, jobs: 1 });
    if (!started.ok) throw new Error(started.error.message);
    const id = started.value.jobId;
    expect(typeof id).toBe('string');
    await svc.idle();
    const s = done()!;
    expect(s.jobId).toBe(id);
    expect(s.ok).toBe(5);
    expect(progress().length).toBeGreaterThan(0);
    expect(progress().every((e) => e.jobId === id)).toBe(true);
    expect(await svc.cancel(id)).toEqual({ ok: true, value: false });
    expect(await svc.cancel('nope')).toEqual({ ok: true, value: false });
  });

  it('cancel(id) stops a running job', async () => {
    const root = mk('jobcancel');
    const input = path.join(root, 'in');
    copyCorpus(input, 150, (f) => /wavefile_v2|Drink/.test(f));
    const { svc, done } = serviceOnEngine();
    const started = await svc.start({ op: 'mirror', inputDir: input, outputDir: path.join(root, 'out'), options: {}, recursive: true, jobs: 2 });
    if (!started.ok) throw new Error(started.error.message);
    await new Promise((r) => setTimeout(r, 300));
    expect(await svc.cancel(started.value.jobId)).toEqual({ ok: true, value: true });
    await svc.idle();
    expect(done()!.cancelled).toBe(true);
    expect(findTemps(path.join(root, 'out'))).toEqual([]);
  });
});
