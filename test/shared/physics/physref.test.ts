// Against the independent runtime: physref (babylon-mmd's own MMD runtime and Bullet build, headless in Node)
// run in this test's setup on the corpus models. Agreement per physics bone in units of world position.
// physref runs with --parent-first: babylon-mmd otherwise gives a bone listed before its parent an identity
// parent (FORMAT.md), which moves the whole low-poly Miku 1 unit up and Gene_light's 前クローク2_2錘 off its chain.
import { describe, expect, it } from 'vitest';
import { type ModelData } from '../../../shared/pmx';
import { readVmd } from '../../../shared/vmd';
import { Simulation } from '../../../shared/physics';
import { testBullet } from '../../helpers/bullet';
import { corpusPath, corpusPresent, readCorpus, corpusModel } from '../../helpers/corpus';
import { physref, physrefPresent, type PhysrefOut } from '../../helpers/physref';

const c = corpusPresent && physrefPresent ? it : it.skip;
const MIKU = 'mmd-viewer-js/model/low_miku/miku.pmd';
const GENE = 'gene/Gene_light.pmx';

const load = corpusModel;

/** Largest distance per physics bone between our pose and physref's at frame `f` (index into ref.frames). */
function errors(sim: Simulation, m: ModelData, ref: PhysrefOut, fi: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const b of ref.bones) {
    if (b.physicsMode === 0) continue;
    const i = m.bones.findIndex((x) => x.name === b.name);
    const p = ref.frames[fi].bones[b.key].position;
    const w = sim.pose.worldPosition;
    out.set(b.name, Math.hypot(w[3 * i] - p[0], w[3 * i + 1] - p[1], w[3 * i + 2] - p[2]));
  }
  return out;
}

describe('physics against physref (babylon-mmd)', () => {
  for (const rel of [GENE, MIKU]) {
    c(`${rel}: the settled rest pose agrees within 0.5 units for every physics bone that settles`, async () => {
      const m = load(rel);
      const ref = physref(corpusPath(rel), '-', ['--frames', '280..300', '--parent-first']);
      expect(ref.nonFiniteValues).toBe(0);
      const sim = new Simulation(await testBullet(), m, null);
      sim.seek(0, 0);
      for (let f = 1; f <= 300; f++) sim.advance();
      const e = errors(sim, m, ref, ref.frames.length - 1);
      // A bone settles in the reference when it moves less than 0.01 units over its last 20 frames.
      let settled = 0, worst = 0;
      for (const b of ref.bones) {
        if (b.physicsMode === 0) continue;
        const a = ref.frames[0].bones[b.key].position, z = ref.frames[ref.frames.length - 1].bones[b.key].position;
        if (Math.hypot(a[0] - z[0], a[1] - z[1], a[2] - z[2]) >= 0.01) continue;
        settled++;
        worst = Math.max(worst, e.get(b.name)!);
        expect(e.get(b.name), b.name).toBeLessThan(0.5);
      }
      expect(settled).toBeGreaterThanOrEqual(rel === GENE ? 50 : 15);
      console.log(`${rel}: ${settled} settled physics bones, largest difference ${worst.toFixed(4)} units`);
      sim.dispose();
    });
  }

  c('low-poly Miku under wavefile_v2.vmd: frames 0–9 agree within 0.5 units for every physics bone', async () => {
    const m = load(MIKU);
    const motionRel = 'mmd-viewer-js/vmd/wavefile_v2.vmd';
    const v = readVmd(readCorpus(motionRel));
    if (!v.ok) throw new Error(v.error.message);
    const ref = physref(corpusPath(MIKU), corpusPath(motionRel), ['--frames', '0..9', '--parent-first']);
    const sim = new Simulation(await testBullet(), m, v.value);
    sim.seek(0, 0);
    let worst = 0;
    for (let f = 0; f <= 9; f++) {
      if (f > 0) sim.advance();
      for (const [name, d] of errors(sim, m, ref, f)) {
        worst = Math.max(worst, d);
        expect(d, `frame ${f} ${name}`).toBeLessThan(0.5);
      }
    }
    console.log(`wavefile_v2 frames 0–9: largest difference ${worst.toFixed(4)} units`);
    sim.dispose();
  });

  // Gene's cloak: nine mode-1 weight bodies (…錘, mask 0, locked to their cloak pieces, joined to each other by
  // loose joints). One of them, 前クローク2_2錘, is authored (bone and body both) at y = −78, 93 units below the
  // cloak it hangs from: it hangs there in babylon-mmd too, so "falls away" is the file, not our physics. Every
  // cloak bone (pieces and weights) is compared at every frame, whether it settles or not.
  for (const [motionRel, last] of [['-', 300], ['gene/motion/02_laugh.vmd', 120]] as const) {
    c(`Gene_light's cloak weights ${motionRel === '-' ? 'at rest' : `under ${motionRel}`}: frames 0–${last} agree within 0.5 units`, async () => {
      const m = load(GENE);
      let motion = null;
      if (motionRel !== '-') {
        const v = readVmd(readCorpus(motionRel));
        if (!v.ok) throw new Error(v.error.message);
        motion = v.value;
      }
      const ref = physref(corpusPath(GENE), motionRel === '-' ? '-' : corpusPath(motionRel), ['--frames', `0..${last}`, '--parent-first']);
      expect(ref.nonFiniteValues).toBe(0);
      const cloak = ref.bones.filter((b) => b.physicsMode !== 0 && b.name.includes('クローク'));
      expect(cloak.filter((b) => b.name.endsWith('錘')).length).toBe(9);
      const sim = new Simulation(await testBullet(), m, motion);
      sim.seek(0, 0);
      let worst = 0, worstName = '';
      const w = sim.pose.worldPosition;
      for (let f = 0; f <= last; f++) {
        if (f > 0) sim.advance();
        for (const b of cloak) {
          const i = m.bones.findIndex((x) => x.name === b.name);
          const p = ref.frames[f].bones[b.key].position;
          const d = Math.hypot(w[3 * i] - p[0], w[3 * i + 1] - p[1], w[3 * i + 2] - p[2]);
          if (d > worst) { worst = d; worstName = b.name; }
          expect(d, `frame ${f} ${b.name}`).toBeLessThan(0.5);
        }
      }
      // Where the weights hang at the last frame, in both: within 2 units of their cloak piece, except the one
      // the file puts 93 units below.
      const far = cloak.filter((b) => {
        const i = m.bones.findIndex((x) => x.name === b.name), par = m.bones[i].parent;
        return b.name.endsWith('錘') && Math.hypot(...[0, 1, 2].map((k) => w[3 * i + k] - w[3 * par + k])) > 2;
      });
      expect(far.map((b) => b.name)).toEqual(['前クローク2_2錘']);
      console.log(`cloak ${motionRel}: ${cloak.length} bones, largest difference ${worst.toFixed(4)} units (${worstName})`);
      sim.dispose();
    });
  }

  // Is our hair noisier than babylon-mmd's? The bake keeps fewer keys the smoother the hair turns, so a simulation
  // that jitters more (a time step, damping or spring rule of ours) would cost keys and fidelity. Per physics bone
  // and frame, its local rotation (what a bake keys) is measured two ways: the turn from the frame before, and how
  // far it is off the midpoint of its neighbours' rotations (what a key's great-circle arc cannot follow). The runs
  // part after about 130 frames (Bullet is chaotic, FORMAT.md), so the statistics are compared, not the frames:
  // their medians and means agree within 10%, both ways (a quieter simulation would be as wrong). Measured: turn
  // median 1.965° / 1.966°, off-midpoint median 1.160° / 1.157°.
  c('low-poly Miku under wavefile_v2.vmd, frames 0–600: its physics bones turn and jitter as in physref', async () => {
    const m = load(MIKU);
    const motionRel = 'mmd-viewer-js/vmd/wavefile_v2.vmd';
    const v = readVmd(readCorpus(motionRel));
    if (!v.ok) throw new Error(v.error.message);
    const last = 600;
    const ref = physref(corpusPath(MIKU), corpusPath(motionRel), ['--frames', `0..${last}`, '--parent-first', '--all-bones']);
    expect(ref.nonFiniteValues).toBe(0);
    const sim = new Simulation(await testBullet(), m, v.value);
    const phys = sim.physicsBones();
    expect(phys.length).toBe(25);
    const keyOf = new Map(ref.bones.map((b) => [b.name, b.key]));
    // conj(a) ⊗ b: b in a's frame.
    const local = (a: readonly number[], b: readonly number[]) => {
      const ax = -a[0], ay = -a[1], az = -a[2], aw = a[3], [bx, by, bz, bw] = b;
      return [aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz];
    };
    const ours: number[][][] = phys.map(() => []), theirs: number[][][] = phys.map(() => []);
    const W = sim.pose.worldRotation;
    const wq = (i: number) => (i < 0 ? [0, 0, 0, 1] : [W[4 * i], W[4 * i + 1], W[4 * i + 2], W[4 * i + 3]]);
    sim.seek(0, 0);
    for (let f = 0; f <= last; f++) {
      if (f > 0) sim.advance();
      const fr = ref.frames[f];
      expect(fr.frame).toBe(f);
      phys.forEach((b, k) => {
        const p = m.bones[b].parent;
        ours[k].push(local(wq(p), wq(b)));
        const rq = (i: number) => (i < 0 ? [0, 0, 0, 1] : fr.bones[keyOf.get(m.bones[i].name)!].rotation);
        theirs[k].push(local(rq(p), rq(b)));
      });
    }
    sim.dispose();
    const angle = (a: readonly number[], b: readonly number[]) => {
      const d = Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]) / (Math.hypot(...a) * Math.hypot(...b));
      return (2 * Math.acos(Math.min(1, d)) * 180) / Math.PI;
    };
    const stats = (tracks: number[][][]) => {
      const turn: number[] = [], off: number[] = [];
      for (const q of tracks) {
        for (let f = 1; f <= last; f++) {
          turn.push(angle(q[f], q[f - 1]));
          if (f === last) continue;
          const s = q[f - 1].reduce((acc, x, j) => acc + x * q[f + 1][j], 0) < 0 ? -1 : 1;
          off.push(angle(q[f], q[f - 1].map((x, j) => x + s * q[f + 1][j])));
        }
      }
      const median = (x: number[]) => [...x].sort((a, b) => a - b)[Math.floor((x.length - 1) / 2)];
      const mean = (x: number[]) => x.reduce((a, b) => a + b, 0) / x.length;
      return { turnMedian: median(turn), turnMean: mean(turn), offMedian: median(off), offMean: mean(off) };
    };
    const a = stats(ours), b = stats(theirs);
    console.log(`wavefile_v2 0–${last}, ours / physref: turn median ${a.turnMedian.toFixed(3)}° / ${b.turnMedian.toFixed(3)}°, mean ${a.turnMean.toFixed(3)}° / ${b.turnMean.toFixed(3)}°; off-midpoint median ${a.offMedian.toFixed(3)}° / ${b.offMedian.toFixed(3)}°, mean ${a.offMean.toFixed(3)}° / ${b.offMean.toFixed(3)}°`);
    for (const k of ['turnMedian', 'turnMean', 'offMedian', 'offMean'] as const) {
      expect(a[k] / b[k], k).toBeGreaterThan(1 / 1.1);
      expect(a[k] / b[k], k).toBeLessThan(1.1);
    }
    // The measure sees motion: the hair does turn under this dance.
    expect(b.turnMedian).toBeGreaterThan(1);
  });
});
