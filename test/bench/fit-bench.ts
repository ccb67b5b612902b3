/**
 * Fitting speed (called by test/bench/bench.ts, `npm run bench`): input keys per second per core for
 * reduce and for speed --refit ×1.5 and ×0.5 on baked input (wavefile_v2.vmd baked to every frame,
 * target ≥ 100,000: "a 4 MB dance reduces or re-times in a few seconds"), for a dense capture
 * (Drink.vmd) and for speed --refit ×1.5 on the hand-made dance. The fitter is
 * single-threaded, so "per core" is keys over the process's CPU time (user + system), which a shared
 * machine does not inflate the way it inflates wall time; both are printed, medians of three runs.
 * Also the memory a reduce of the baked dance holds at track boundaries beyond what was alive before
 * (with `--expose-gc`, as `npm run bench` runs it), beside the file's size and the track order the fit indexes it by.
 * Reports numbers; asserts nothing (test/shared/fit/fit-memory.test.ts asserts the bound).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readVmd, type VmdDocument } from '../../shared/vmd';
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

export function benchFit(corpus: string): void {
  const wave = load(path.join(corpus, 'mmd-viewer-js/vmd/wavefile_v2.vmd'));
  const drink = load(path.join(corpus, 'mc-mmd-rust/default_anim/Drink.vmd'));
  console.log('\nFitting (shared/fit), medians of 3 (target ≥ 100k input keys/s per core on baked input):');
  if (wave) {
    const b = bake(wave);
    if (b.ok) {
      const baked = b.doc;
      const keys = baked.bone.count + baked.morph.count;
      let after = 0;
      const t = timed(() => {
        const r = reduce(baked, {});
        if (r.ok) after = r.doc.bone.count + r.doc.morph.count;
      });
      console.log(line('reduce baked wavefile_v2 0.01/0.1°', keys, t, after));
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
          if (r.ok) after = r.doc.bone.count + r.doc.morph.count;
        });
        console.log(line(`speed --refit ×${factor} baked wavefile_v2`, keys, ts, after));
      }
    }
    const keys = wave.bone.count + wave.morph.count;
    let after = 0;
    const t = timed(() => {
      const r = speedRefit(wave, { factor: 1.5 });
      if (r.ok) after = r.doc.bone.count + r.doc.morph.count;
    });
    console.log(line('speed --refit ×1.5 wavefile_v2', keys, t, after));
  }
  if (drink) {
    let after = 0;
    const t = timed(() => {
      const r = reduce(drink, { position: 0.05, rotationDeg: 0.5 });
      if (r.ok) after = r.doc.bone.count;
    });
    console.log(line('reduce Drink.vmd 0.05/0.5°', drink.bone.count, t, after));
  }
  if (!wave && !drink) console.log('  (corpus files not found)');
}
