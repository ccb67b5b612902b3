/**
 * Retargeting speed (called by test/bench/bench.ts, `npm run bench`): wavefile_v2.vmd (a dance made for
 * a Miku, 2,810 frames) played three times in a row (merge, one frame apart: 4.7 minutes) from the
 * low-poly Miku onto Gene_light.pmx and back, medians of three runs, wall and CPU time, and the CPU time
 * per 4 minutes of dance. Goal: a 4-minute dance in under 5 s.
 * Reports numbers; asserts nothing.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readModel, type ModelData } from '../../shared/pmx';
import { buildTracks, readVmd, type VmdDocument } from '../../shared/vmd';
import { retarget } from '../../shared/retarget';
import { merge } from '../../shared/motion-ops';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function bytes(file: string): Uint8Array | null {
  try {
    const b = readFileSync(file);
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  } catch {
    return null;
  }
}

export function benchRetarget(corpus: string): void {
  const mb = bytes(path.join(corpus, 'mmd-viewer-js/model/low_miku/miku.pmd'));
  const gb = bytes(path.join(corpus, 'gene/Gene_light.pmx'));
  const wb = bytes(path.join(corpus, 'mmd-viewer-js/vmd/wavefile_v2.vmd'));
  if (!mb || !gb || !wb) {
    console.log('\nRetargeting: corpus files missing, skipped');
    return;
  }
  const m = readModel(mb), g = readModel(gb), one = readVmd(wb);
  if (!m.ok || !g.ok || !one.ok) return;
  const w = merge([one.value, one.value, one.value], { gap: 1 });
  if (!w.ok) return;
  const frames = buildTracks(w.value.doc).lastFrame + 1;
  const minutes = frames / 30 / 60;
  console.log(`\nRetargeting (shared/retarget), wavefile_v2.vmd three times (${minutes.toFixed(2)} min, ${w.value.doc.bone.count} bone keys), medians of 3 (goal: a 4-minute dance < 5 s):`);
  const run = (label: string, doc: VmdDocument, from: ModelData, to: ModelData): VmdDocument | null => {
    const wall: number[] = [], cpu: number[] = [];
    let out: VmdDocument | null = null;
    let line = '';
    for (let i = 0; i < 3; i++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const r = retarget(doc, from, to);
      wall.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
      if (!r.ok) {
        console.log(`  ${label}: failed: ${r.error.message}`);
        return null;
      }
      out = r.value.doc;
      line = `re-fitted ${r.value.details.refitted.length} tracks, copied ${r.value.details.copied.length}, bone keys ${doc.bone.count} → ${r.value.doc.bone.count}`;
    }
    const wm = median(wall), cm = median(cpu);
    console.log(`  ${label.padEnd(26)} ${(wm / 1000).toFixed(2)} s wall  ${(cm / 1000).toFixed(2)} s CPU  → ${((cm / 1000) * (4 / minutes)).toFixed(2)} s CPU per 4 min  (${line})`);
    return out;
  };
  const onGene = run('low-poly Miku → Gene_light', w.value.doc, m.value, g.value);
  if (onGene) run('Gene_light → low-poly Miku', onGene, g.value, m.value);
}
