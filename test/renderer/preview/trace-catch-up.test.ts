// Trace mode's catch-up (fixtrace2 item 1): a first jump far ahead in Trace (トレース) used to run every world
// step from frame 0 inside the pose (5000 steps for frame 5000: the page froze for seconds). Now the preview runs
// the way in slices between animation frames: here a made-up frame clock (animation frames requested into a list,
// a clock that reads what the test says) shows that no slice runs more than CATCH_UP_MAX_STEPS world steps, or
// more than CATCH_UP_MS of the clock; that the pose meanwhile has no physics (the bones as physics off poses them);
// that a jump meanwhile turns the way to the new frame (nothing queued: the run never goes to the first frame);
// and that at the end the physics bones are the same bits as those of a trace run there at once.
import { describe, expect, it } from 'vitest';
import { buildTracks } from '../../../shared/vmd';
import { testBullet } from '../../helpers/bullet';
import { corpusPresent, corpusModel, corpusMotion } from '../../helpers/corpus';
import { buildRig } from '../../../renderer/src/preview/rig';
import { PoseBinding, ikSwitchesOf } from '../../../renderer/src/preview/pose-binding';
import { CATCH_UP_MAX_STEPS, CATCH_UP_MS, PreviewPhysics, SHOWN_KEY, type CatchUpProgress } from '../../../renderer/src/preview/physics-preview';
import { SEEK_SETTLE_FRAMES } from '../../../shared/physics';

const c = corpusPresent ? it : it.skip;
const m = corpusModel('gene/Gene_light.pmx'), doc = corpusMotion('mmd-viewer-js/vmd/wavefile_v2.vmd');

/** Animation frames requested into a list (tick() runs them), and a clock that moves `perRead` ms at each reading. */
class FakeFrames {
  queue: (() => void)[] = [];
  t = 0;
  perRead = 0;
  request(run: () => void): void {
    this.queue.push(run);
  }
  now(): number {
    const t = this.t;
    this.t += this.perRead;
    return t;
  }
  tick(): void {
    const q = this.queue;
    this.queue = [];
    for (const run of q) run();
  }
}

async function actor(frames?: FakeFrames) {
  const rig = buildRig(m.bones);
  const tracks = buildTracks(doc);
  const binding = new PoseBinding(rig, tracks, ikSwitchesOf(doc, tracks));
  const bullet = await testBullet();
  const phys = new PreviewPhysics(async () => bullet, frames);
  phys.bind(SHOWN_KEY, { model: m, rig, mesh: null }, binding, doc, tracks);
  phys.setEnabled(true);
  await new Promise((r) => setTimeout(r, 0));
  phys.setTrace(true);
  if (frames) phys.clock.slice = true;
  return { rig, binding, phys };
}

/** The rig's bones as physics off poses them at f (no physics at all). */
function withoutPhysics(f: number) {
  const rig = buildRig(m.bones);
  const tracks = buildTracks(doc);
  new PoseBinding(rig, tracks, ikSwitchesOf(doc, tracks)).apply(f);
  return Array.from(rig.pose.worldPosition);
}

describe('Trace mode catch-up in slices', () => {
  c('no slice runs more than its steps or its milliseconds; a jump meanwhile turns the way; the end is a straight run\'s bits', async () => {
    const frames = new FakeFrames();
    const a = await actor(frames);
    let playhead = 300;
    let reposed = 0;
    const progress: (CatchUpProgress | null)[] = [];
    a.phys.onChange = () => {
      reposed++;
      a.binding.apply(playhead);
      a.phys.afterPose();
    };
    a.phys.onCatchUp = (p) => progress.push(p);
    const pose = (f: number) => {
      playhead = f;
      a.binding.apply(f);
      a.phys.afterPose();
    };
    const ph = a.phys.physicsOf(SHOWN_KEY)!;
    const trace = ph.trace!;
    const work = () => trace.steps + trace.settled;

    // The jump: nothing stepped in the pose, the way left to slices; the bones as physics off has them.
    pose(300);
    expect(work()).toBe(0);
    expect(ph.catchUpTo).toBe(300);
    expect(Array.from(a.rig.pose.worldPosition)).toEqual(withoutPhysics(300));
    expect(a.phys.catchUpProgress()).toEqual({ frame: 300, done: 0 });
    expect(progress.at(-1)).toEqual({ frame: 300, done: 0 });
    expect(frames.queue.length).toBe(1);

    // A clock that stands still: each slice stops at CATCH_UP_MAX_STEPS steps (settling frames counted).
    for (let k = 0; k < 3; k++) {
      const w = work();
      frames.tick();
      expect(work() - w).toBe(CATCH_UP_MAX_STEPS);
      expect(frames.queue.length).toBe(1);
    }
    expect(trace.frame).toBe(3 * CATCH_UP_MAX_STEPS - SEEK_SETTLE_FRAMES);
    const way = SEEK_SETTLE_FRAMES + 300;
    expect(a.phys.catchUpProgress()).toEqual({ frame: 300, done: (3 * CATCH_UP_MAX_STEPS) / way });
    // Poses meanwhile still have no physics.
    expect(Array.from(a.rig.pose.worldPosition)).toEqual(withoutPhysics(300));

    // The playhead moves to 200 meanwhile: the way goes on there, not to 300 first.
    pose(200);
    expect(ph.catchUpTo).toBe(200);
    expect(frames.queue.length).toBe(1);

    // A clock 1 ms a reading: a slice stops once CATCH_UP_MS have passed (5 steps: readings at 1…5 ms are under 6).
    frames.perRead = 1;
    let slices = 0;
    while (frames.queue.length) {
      const w = work();
      frames.tick();
      slices++;
      const ran = work() - w;
      expect(ran).toBeGreaterThan(0);
      expect(ran).toBeLessThanOrEqual(CATCH_UP_MS - 1);
      expect(slices).toBeLessThan(1000);
    }
    expect(trace.frame).toBe(200);
    // The run never went past 200 (a checkpoint at 210 or later would say so).
    expect(Math.max(...trace.checkpoints())).toBe(180);
    expect(trace.steps).toBe(200);
    expect(trace.settled).toBe(SEEK_SETTLE_FRAMES);
    expect(ph.catchUpTo).toBe(-1);
    expect(progress.at(-1)).toBeNull();
    // There: posed again once, now with physics — the bones of a trace run to 200 at once, bit for bit.
    expect(reposed).toBe(1);
    const b = await actor();
    b.binding.apply(200);
    expect(b.phys.physicsOf(SHOWN_KEY)!.trace!.steps).toBe(200);
    expect(Array.from(a.rig.pose.worldPosition)).toEqual(Array.from(b.rig.pose.worldPosition));
    expect(Array.from(a.rig.pose.worldRotation)).toEqual(Array.from(b.rig.pose.worldRotation));
    expect(Array.from(a.rig.pose.worldPosition)).not.toEqual(withoutPhysics(200));

    // A jump back inside the run (checkpoint 150, 21 steps): at once, no slice.
    pose(170);
    expect(ph.catchUpTo).toBe(-1);
    expect(frames.queue.length).toBe(0);
    expect(trace.frame).toBe(170);
    a.phys.dispose();
    b.phys.dispose();
  }, 120_000);
});
