/**
 * Fitting speed (called by test/bench/bench.ts, `npm run bench`): input keys per second per core for
 * reduce and for speed --refit ×1.5 and ×0.5 on baked input (wavefile_v2.vmd baked to every frame,
 * target ≥ 100,000: "a 4 MB dance reduces or re-times in a few seconds"), for a dense capture
 * (Drink.vmd) and for speed --refit ×1.5 on the hand-made dance; the CLI's start-up alone, and reduce
 * of the baked dance and the hand-made dance's re-timing through the CLI, each a whole process. The fitter is
 * single-threaded, so "per core" is keys over the process's CPU time (user + system), which a shared
 * machine does not inflate the way it inflates wall time; both are printed, medians of three runs.
 * Also the memory a reduce of the baked dance holds at track boundaries beyond what was alive before
 * (with `--expose-gc`, as `npm run bench` runs it), beside the file's size and the track order the fit indexes it by.
 * Reports numbers; asserts nothing (test/shared/fit/fit-memory.test.ts asserts the bound).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readVmd, writeVmd, type VmdDocument } from '../../shared/vmd';
import { bake, reduce, speedRefit } from '../../shared/fit';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function load(file: string): VmdDocument | null {
  try {
    const b = readFileSync(file);
    const r = readVmd(new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
    return r.ok ? r.value : null;
  } catch {
    return null;
  }
}

function timed(fn: () => unknown, runs = 3): { wallMs: number; cpuMs: number } {
  const wall: number[] = [], cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    fn();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { wallMs: median(wall), cpuMs: median(cpu) };
}

function line(label: string, keys: number, t: { wallMs: number; cpuMs: number }, after: number): string {
  const perCore = (keys / t.cpuMs) * 1000;
  return `  ${label.padEnd(38)} ${String(keys).padStart(7)} → ${String(after).padStart(6)} keys  ${t.wallMs.toFixed(0).padStart(6)} ms wall  ${t.cpuMs.toFixed(0).padStart(6)} ms CPU  ${(perCore / 1000).toFixed(0).padStart(5)}k keys/s per core`;
}

/**
 * The command line as a user runs it (issue 31: "with the CLI's own start-up"): `vmd-studio reduce` on a
 * file, in a fresh Node process, three runs; wall time from here, CPU time (user + system, start-up,
 * reading, fitting, measuring the errors for its report and writing) as the process itself reports it
 * at exit. Null when the CLI is not built.
 */
function cliRuns(args: string[]): { wallMs: number; cpuMs: number } | null {
  const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../cli/cli.mjs');
  if (!existsSync(cli)) return null;
  const hook = "data:text/javascript,import{writeSync}from'node:fs';process.on('exit',()=>{const c=process.cpuUsage();writeSync(2,'\\nCPU_MS '+((c.user+c.system)/1000)+'\\n')})";
  const wall: number[] = [], cpu: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, ['--import', hook, cli, ...args], { encoding: 'utf8' });
    wall.push(performance.now() - t0);
    const m = /CPU_MS ([\d.]+)/.exec(r.stderr ?? '');
    if (r.status !== 0 || !m) return null;
    cpu.push(Number(m[1]));
  }
  return { wallMs: median(wall), cpuMs: median(cpu) };
}

export function benchFit(corpus: string): void {
  const wave = load(path.join(corpus, 'mmd-viewer-js/vmd/wavefile_v2.vmd'));
  const drink = load(path.join(corpus, 'mc-mmd-rust/default_anim/Drink.vmd'));
  console.log('\nFitting (shared/fit), medians of 3 (target ≥ 100k input keys/s per core on baked input):');
  // What every command line pays before it reads a file: a fresh process loading the CLI bundle.
  const up = cliRuns(['--version']);
  if (up) console.log(`  CLI start-up (vmd-studio --version, a fresh process): ${up.cpuMs.toFixed(0)} ms CPU, ${up.wallMs.toFixed(0)} ms wall`);
  if (wave) {
    const b = bake(wave);
    if (b.ok) {
      const baked = b.value.doc;
      const keys = baked.bone.count + baked.morph.count;
      let after = 0;
      const t = timed(() => {
        const r = reduce(baked, {});
        if (r.ok) after = r.value.doc.bone.count + r.value.doc.morph.count;
      });
      console.log(line('reduce baked wavefile_v2 0.01/0.1°', keys, t, after));
      // The same through the command line: a fresh process reading the baked file, writing the result.
      const dir = mkdtempSync(path.join(tmpdir(), 'vmds-bench-'));
      try {
        const input = path.join(dir, 'baked.vmd');
        writeFileSync(input, writeVmd(baked));
        const c = cliRuns(['reduce', input, '-o', path.join(dir, 'out.vmd'), '--overwrite', '--quiet']);
        if (c) console.log(line(`CLI reduce baked (${(readFileSync(input).length / 1e6).toFixed(0)} MB, start-up too)`, keys, c, after));
        else console.log('  CLI reduce: dist/cli/cli.mjs not built or failed (npm run build:node)');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      const gc = (globalThis as { gc?: () => void }).gc;
      if (gc) {
        const alive = () => {
          gc();
          gc();
          const m = process.memoryUsage();
          return m.heapUsed + m.arrayBuffers;
        };
        const base = alive();
        let peak = 0;
        reduce(baked, { progress: (done) => void (done % 8 === 1 && (peak = Math.max(peak, alive() - base))) });
        // The fit's track order (indexBoneTracks) per bone key: frame and record (u32 each); MorphTracks also the weight.
        const index = baked.bone.count * 8 + baked.morph.count * 12;
        const mb = (x: number) => `${(x / 1e6).toFixed(1)} MB`;
        console.log(`  memory, reduce baked wavefile_v2: alive at track boundaries at most ${mb(peak)} above the start, of which the track order ${mb(index)}; the file ${mb(baked.bone.bytes.length + baked.morph.bytes.length)}`);
      }
      for (const factor of [1.5, 0.5]) {
        const ts = timed(() => {
          const r = speedRefit(baked, { factor });
          if (r.ok) after = r.value.doc.bone.count + r.value.doc.morph.count;
        });
        console.log(line(`speed --refit ×${factor} baked wavefile_v2`, keys, ts, after));
      }
    }
    const keys = wave.bone.count + wave.morph.count;
    let after = 0;
    const t = timed(() => {
      const r = speedRefit(wave, { factor: 1.5 });
      if (r.ok) after = r.value.doc.bone.count + r.value.doc.morph.count;
    });
    console.log(line('speed --refit ×1.5 wavefile_v2', keys, t, after));
    // The hand-made dance re-timed from the command line (issue 31: "speed --refit ×1.5 on a hand-made dance").
    const dir = mkdtempSync(path.join(tmpdir(), 'vmds-bench-'));
    try {
      const c = cliRuns(['speed', path.join(corpus, 'mmd-viewer-js/vmd/wavefile_v2.vmd'), '--factor', '1.5', '--refit', '-o', path.join(dir, 'out.vmd'), '--overwrite', '--quiet']);
      if (c) console.log(line('CLI speed --refit ×1.5 wavefile_v2 (start-up too)', keys, c, after));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (drink) {
    let after = 0;
    const t = timed(() => {
      const r = reduce(drink, { position: 0.05, rotationDeg: 0.5 });
      if (r.ok) after = r.value.doc.bone.count;
    });
    console.log(line('reduce Drink.vmd 0.05/0.5°', drink.bone.count, t, after));
  }
  if (!wave && !drink) console.log('  (corpus files not found)');
}
