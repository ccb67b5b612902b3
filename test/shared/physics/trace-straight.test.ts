// Trace against a straight run (nufollow finding 1): with a checkpoint every 30 frames, PhysicsTrace used to make
// its world anew from the saved state at each checkpoint, and the saved state went in wrong (babylon-mmd 1.3.0's
// setDynamicTransformMatrixFromArray writes only the first row of a body's transform, so every hair body started
// again at its rest place with a torn rotation; the state saved was also Bullet's picture 1/60 s behind). low_miku
// dancing wavefile_v2 drifted from the straight run at the first checkpoint (9 units at frame 30) and blew the twin
// tails apart by 600 (右髪６ 75 units from where a straight run has it). Now a run from frame 0 is one world stepped
// on, the bits of Simulation (simulate.ts, the bake's engine); a jump back starts a world from a checkpoint of that
// run and lands near it (Bullet's contact caches are not in a saved state), within 0.5 units here.
import { describe, expect, it } from 'vitest';
import { buildSkeleton, Pose } from '../../../shared/skeleton';
import { PhysicsTrace, PhysicsWorld, Simulation, TRACE_EVERY } from '../../../shared/physics';
import type { BulletInstance } from '../../../shared/physics/bullet';
import { testBullet } from '../../helpers/bullet';
import { corpusPresent, corpusModel, corpusMotion } from '../../helpers/corpus';

const c = corpusPresent ? it : it.skip;
const END = 620;
const model = () => corpusModel('mmd-viewer-js/model/low_miku/miku.pmd');
const dance = () => corpusMotion('mmd-viewer-js/vmd/wavefile_v2.vmd');

/** The straight run (Simulation from a seek to 0, then a step a frame): every bone's world transform per frame. */
let straight: { position: Float64Array[]; rotation: Float64Array[]; physicsBones: number[] } | null = null;
async function straightRun(bullet: BulletInstance) {
  if (straight) return straight;
  const sim = new Simulation(bullet, model(), dance());
  sim.seek(0);
  const position = [Float64Array.from(sim.pose.worldPosition)], rotation = [Float64Array.from(sim.pose.worldRotation)];
  for (let f = 1; f <= END; f++) {
    sim.advance();
    position.push(Float64Array.from(sim.pose.worldPosition));
    rotation.push(Float64Array.from(sim.pose.worldRotation));
  }
  straight = { position, rotation, physicsBones: sim.physicsBones() };
  sim.dispose();
  return straight;
}

/** The farthest a physics bone of `t` is from where the straight run has it at frame f (units). */
function apart(t: PhysicsTrace, f: number, s: NonNullable<typeof straight>): number {
  let worst = 0;
  const p = t.pose.worldPosition, q = s.position[f];
  for (const b of s.physicsBones) worst = Math.max(worst, Math.hypot(p[3 * b] - q[3 * b], p[3 * b + 1] - q[3 * b + 1], p[3 * b + 2] - q[3 * b + 2]));
  return worst;
}

describe('physics trace (トレース) against a straight run', () => {
  c('played 0→620 with its checkpoints every 30 frames, the trace is the straight run bit for bit at every frame', async () => {
    const bullet = await testBullet();
    const s = await straightRun(bullet);
    const m = model();
    const t = new PhysicsTrace(bullet, m, dance());
    let firstOff = -1;
    for (let f = 0; f <= END; f++) {
      t.goTo(f);
      const same = t.pose.worldPosition.every((v, i) => v === s.position[f][i]) && t.pose.worldRotation.every((v, i) => v === s.rotation[f][i]);
      if (!same && firstOff < 0) firstOff = f;
    }
    expect(firstOff).toBe(-1);
    // It went through 20 checkpoints (30 … 600) and kept them.
    expect(TRACE_EVERY).toBe(30);
    expect(t.checkpoints()).toEqual(Array.from({ length: 20 }, (_, k) => 30 * (k + 1)));
    // The twin tails hang from the head: their tips within 25 units of 頭 (the broken trace had 右髪６ 75 away).
    const head = m.bones.findIndex((b) => b.name === '頭');
    for (const name of ['右髪６', '左髪６']) {
      const tip = m.bones.findIndex((b) => b.name === name);
      expect(tip).toBeGreaterThanOrEqual(0);
      expect(s.physicsBones).toContain(tip);
      const p = t.pose.worldPosition;
      expect(Math.hypot(p[3 * tip] - p[3 * head], p[3 * tip + 1] - p[3 * head + 1], p[3 * tip + 2] - p[3 * head + 2])).toBeLessThan(25);
    }
    t.dispose();
  }, 300_000);

  c('jumped 0→600 it is the straight run\'s bits; back to 100 and on to 605 it starts from checkpoints and lands within 0.5 units of it', async () => {
    const bullet = await testBullet();
    const s = await straightRun(bullet);
    const t = new PhysicsTrace(bullet, model(), dance());
    t.goTo(0);
    t.goTo(600);
    expect(Array.from(t.pose.worldPosition)).toEqual(Array.from(s.position[600]));
    expect(Array.from(t.pose.worldRotation)).toEqual(Array.from(s.rotation[600]));
    // Back to 100: a world from the checkpoint at 90, 11 steps (no restart from 0).
    t.goTo(100);
    expect([t.restarts, t.loads, t.steps]).toEqual([1, 1, 600 + 11]);
    expect(apart(t, 100, s)).toBeLessThan(0.5);
    // On to 605: from the checkpoint at 600 (the way from 100 is longer), 6 steps.
    t.goTo(605);
    expect([t.restarts, t.loads, t.steps]).toEqual([1, 2, 600 + 11 + 6]);
    expect(apart(t, 605, s)).toBeLessThan(0.5);
    // Physics moved the tails at all between the two (the comparison is not of bones standing still).
    let moved = 0;
    for (const b of s.physicsBones) moved = Math.max(moved, Math.hypot(s.position[605][3 * b] - s.position[100][3 * b], s.position[605][3 * b + 1] - s.position[100][3 * b + 1], s.position[605][3 * b + 2] - s.position[100][3 * b + 2]));
    expect(moved).toBeGreaterThan(5);
    t.dispose();
  }, 300_000);

  c('a world made from a saved state holds it: its state read back is the same bits', async () => {
    const bullet = await testBullet();
    const m = model();
    const t = new PhysicsTrace(bullet, m, dance());
    t.goTo(45);
    const state = t.world.saveState();
    // The hair is away from its rest place and moving (else a world at rest would hold it too).
    const rest = new PhysicsWorld(bullet, m, new Pose(buildSkeleton(m.bones))).saveState();
    expect(state.some((v, i) => v !== rest[i] && i % PhysicsWorld.STATE_FLOATS >= 12 && i % PhysicsWorld.STATE_FLOATS < 15)).toBe(true);
    expect(state.some((v, i) => v !== 0 && i % PhysicsWorld.STATE_FLOATS >= 16)).toBe(true);
    const w = new PhysicsWorld(bullet, m, new Pose(buildSkeleton(m.bones)), {}, state);
    expect(Array.from(w.saveState())).toEqual(Array.from(state));
    w.dispose();
    t.dispose();
  }, 120_000);
});
