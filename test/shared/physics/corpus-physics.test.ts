// Every corpus model that has rigid bodies, at rest and under each corpus dance: no NaN, no bone leaves the
// model's bounding box grown by its height, and at rest every physics bone settles.
import { describe, expect, it } from 'vitest';
import { readModel, type ModelData } from '../../../shared/pmx';
import { readVmd } from '../../../shared/vmd';
import { Simulation } from '../../../shared/physics';
import { testBullet } from '../../helpers/bullet';
import { corpusFiles, readCorpus, relName } from '../../helpers/corpus';
import { physref, physrefPresent } from '../../helpers/physref';

const models = corpusFiles('.pmx', '.pmd')
  .map((p) => ({ p, r: readModel(readCorpus(p)) }))
  .filter((x): x is { p: string; r: { ok: true; value: ModelData; diagnostics: [] } } => x.r.ok && x.r.value.rigidBodies.length > 0 && x.r.value.joints.length > 0);
const dances = ['mmd-viewer-js/vmd/wavefile_v2.vmd', 'gene/motion/02_laugh.vmd', 'babylon-mmd/res/motion/physics_toggle_test_yyb10th.vmd'];

/** The rest pose's bounding box (bone positions and body positions) grown by the model's height. */
function grownBox(m: ModelData): { lo: number[]; hi: number[] } {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const p of [...m.bones.map((b) => b.position), ...m.rigidBodies.map((b) => b.position)]) {
    for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], p[k]); hi[k] = Math.max(hi[k], p[k]); }
  }
  const h = hi[1] - lo[1];
  return { lo: lo.map((x) => x - h), hi: hi.map((x) => x + h) };
}

function check(sim: Simulation, box: { lo: number[]; hi: number[] }, what: string): void {
  const w = sim.pose.worldPosition;
  for (let i = 0; i < w.length; i++) {
    if (!Number.isFinite(w[i])) throw new Error(`${what}: frame ${sim.frame} bone ${Math.floor(i / 3)} is not finite`);
    const k = i % 3;
    if (w[i] < box.lo[k] || w[i] > box.hi[k]) throw new Error(`${what}: frame ${sim.frame} bone ${Math.floor(i / 3)} left the grown bounding box`);
  }
}

describe('physics on corpus models', () => {
  it('finds corpus models with rigid bodies', () => {
    if (models.length === 0) return;
    expect(models.map((x) => relName(x.p))).toContain('gene/Gene_light.pmx');
  });
  for (const { p, r } of models) {
    const m = r.value;
    it(`${relName(p)} at rest: finite, inside its grown box, every physics bone settles`, async () => {
      const sim = new Simulation(await testBullet(), m, null);
      const box = grownBox(m);
      sim.seek(0, 0);
      for (let f = 0; f < 300; f++) { sim.advance(); check(sim, box, 'rest'); }
      const before = Float64Array.from(sim.pose.worldPosition);
      for (let f = 0; f < 30; f++) sim.advance();
      // A bone the independent runtime does not settle either (it moves ≥ 0.05 over physref's frames 280–300:
      // Gene_light's 前クローク2_2錘 keeps swinging there too) is named, not required to settle.
      const ref = physrefPresent ? physref(p, '-', ['--frames', '280..300', '--parent-first']) : null;
      const refMoves = (name: string) => {
        const b = ref?.bones.find((x) => x.name === name);
        if (!ref || !b) return false;
        const a = ref.frames[0].bones[b.key].position, z = ref.frames[ref.frames.length - 1].bones[b.key].position;
        return Math.hypot(a[0] - z[0], a[1] - z[1], a[2] - z[2]) >= 0.05;
      };
      const unsettled: string[] = [];
      for (const b of sim.physicsBones()) {
        const d = Math.hypot(...[0, 1, 2].map((k) => sim.pose.worldPosition[3 * b + k] - before[3 * b + k]));
        if (d >= 0.05) unsettled.push(m.bones[b].name);
      }
      expect(unsettled.filter((n) => !refMoves(n))).toEqual([]);
      expect(unsettled.length).toBeLessThanOrEqual(1);
      sim.dispose();
    });
    for (const d of dances) {
      it(`${relName(p)} under ${d}: finite and inside its grown box for 600 frames`, async () => {
        const v = readVmd(readCorpus(d));
        if (!v.ok) throw new Error(v.error.message);
        const sim = new Simulation(await testBullet(), m, v.value);
        const box = grownBox(m);
        // The dance moves the whole model: the box follows the centre bone (index 0's world position).
        sim.seek(0, 0);
        for (let f = 0; f < 600; f++) {
          sim.advance();
          const c0 = [0, 1, 2].map((k) => sim.pose.worldPosition[k] - m.bones[0].position[k]);
          check(sim, { lo: box.lo.map((x, k) => x + c0[k]), hi: box.hi.map((x, k) => x + c0[k]) }, d);
        }
        sim.dispose();
      });
    }
  }
});
