/**
 * Physics in Node: simulated frames per second of Gene_light.pmx (the goal: ≥ 20× real time, 600 frames/s at
 * MMD's 30 fps) at rest and under a motion, and the time of a physics bake with reduction of a dance
 * (low-poly Miku × wavefile_v2, every frame of it). Medians; reports numbers, asserts nothing.
 */
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { readModel } from '../../shared/pmx';
import { readVmd } from '../../shared/vmd';
import { loadBullet, physicsBake, Simulation } from '../../shared/physics';
import { nodeBulletLoader } from '../../electron/physics/bullet-node';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export async function benchPhysics(corpus: string): Promise<void> {
  const gene = path.join(corpus, 'gene/Gene_light.pmx');
  const miku = path.join(corpus, 'mmd-viewer-js/model/low_miku/miku.pmd');
  const dance = path.join(corpus, 'mmd-viewer-js/vmd/wavefile_v2.vmd');
  if (![gene, miku, dance].every(existsSync)) {
    console.log('physics: corpus models not found, skipped');
    return;
  }
  const bullet = await loadBullet(nodeBulletLoader);
  const g = readModel(new Uint8Array(readFileSync(gene)));
  const m = readModel(new Uint8Array(readFileSync(miku)));
  const d = readVmd(new Uint8Array(readFileSync(dance)));
  const laugh = readVmd(new Uint8Array(readFileSync(path.join(corpus, 'gene/motion/02_laugh.vmd'))));
  if (!g.ok || !m.ok || !d.ok || !laugh.ok) return;
  console.log('\nPhysics (Bullet via babylon-mmd bindings, one thread)');
  for (const [label, model, motion] of [['Gene_light at rest', g.value, null], ['Gene_light × 02_laugh', g.value, laugh.value], ['low-poly Miku × wavefile_v2', m.value, d.value]] as const) {
    const fps: number[] = [], cpuFps: number[] = [];
    for (let run = 0; run < 5; run++) {
      const sim = new Simulation(bullet, model, motion);
      sim.seek(0, 0);
      const N = 300;
      const t0 = performance.now(), c0 = process.cpuUsage();
      for (let f = 0; f < N; f++) sim.advance();
      const c = process.cpuUsage(c0);
      fps.push(N / ((performance.now() - t0) / 1000));
      cpuFps.push(N / ((c.user + c.system) / 1e6));
      sim.dispose();
    }
    const f = median(fps), fc = median(cpuFps);
    // CPU time as well as wall time: on a shared machine the wall clock also counts other people's work.
    console.log(`  ${label.padEnd(30)} ${f.toFixed(0).padStart(6)} frames/s wall = ${(f / 30).toFixed(1)}× real time; ${fc.toFixed(0)} frames per CPU-second = ${(fc / 30).toFixed(1)}× (median of 5 × 300 frames)`);
  }
  const t0 = performance.now();
  const r = physicsBake(bullet, m.value, d.value);
  const ms = performance.now() - t0;
  if (r.ok) {
    const rep = r.value.report;
    console.log(`  bake + reduce low-poly Miku × wavefile_v2 (${rep.to + 1} frames = ${((rep.to + 1) / 30).toFixed(0)} s, ${rep.bones.length} bones): ${(ms / 1000).toFixed(1)} s; keys ${rep.rawKeys} raw → ${rep.keptKeys} kept (${((100 * rep.keptKeys) / rep.rawKeys).toFixed(1)}%)`);
  }
}
