// The preview's トレース mode (fixphys3 finding 1): with the physics mode on Trace, the actor's physics bones at a
// frame are the same bits whether the playhead played there from 0 or jumped there (0 → N), and they are the bones
// of shared/physics's PhysicsTrace run straight to N (the Node engine the bake tests use). Jumped back (→ 300 → N)
// they start from the run's checkpoint at 120: the same bits whenever that way is taken (near the straight run, not
// its bits: test/shared/physics/trace-straight.test.ts). The real Bullet
// build and Gene_light dancing; the preview's path is PoseBinding → ActorPhysics, as the engine poses.
import { describe, expect, it } from 'vitest';
import { buildTracks } from '../../../shared/vmd';
import { PhysicsTrace } from '../../../shared/physics';
import { testBullet } from '../../helpers/bullet';
import { corpusPresent, corpusModel, corpusMotion } from '../../helpers/corpus';
import { buildRig } from '../../../renderer/src/preview/rig';
import { PoseBinding, ikSwitchesOf } from '../../../renderer/src/preview/pose-binding';
import { PreviewPhysics, SHOWN_KEY } from '../../../renderer/src/preview/physics-preview';

const c = corpusPresent ? it : it.skip;
const N = 137;

async function tracedActor() {
  const m = corpusModel('gene/Gene_light.pmx'), doc = corpusMotion('mmd-viewer-js/vmd/wavefile_v2.vmd');
  const rig = buildRig(m.bones);
  const tracks = buildTracks(doc);
  const binding = new PoseBinding(rig, tracks, ikSwitchesOf(doc, tracks));
  const bullet = await testBullet();
  const phys = new PreviewPhysics(async () => bullet);
  phys.bind(SHOWN_KEY, { model: m, rig, mesh: null }, binding, doc, tracks);
  phys.setEnabled(true);
  await new Promise((r) => setTimeout(r, 0));
  phys.setTrace(true);
  return { m, doc, rig, binding, phys, bullet };
}

describe('physics Trace mode in the preview', () => {
  c('played to N or jumped 0 → N: the same physics bones, those of a trace run straight to N; back from 300, from its checkpoint', async () => {
    const a = await tracedActor();
    a.phys.clock.playing = true;
    for (let f = 0; f <= N; f++) a.binding.apply(f);
    const played = Array.from(a.rig.pose.worldPosition);
    const playedRot = Array.from(a.rig.pose.worldRotation);

    const b = await tracedActor();
    b.binding.apply(0);
    b.binding.apply(N);
    expect(Array.from(b.rig.pose.worldPosition)).toEqual(played);
    expect(Array.from(b.rig.pose.worldRotation)).toEqual(playedRot);
    // On to 300 and back to N: a world from the checkpoint at 120, as another actor that jumps 0 → 300 → N has it.
    b.binding.apply(300);
    b.binding.apply(N);
    expect(b.phys.physicsOf(SHOWN_KEY)!.trace!.loads).toBe(1);
    const c2 = await tracedActor();
    c2.binding.apply(0);
    c2.binding.apply(300);
    c2.binding.apply(N);
    expect(c2.phys.physicsOf(SHOWN_KEY)!.trace!.loads).toBe(1);
    expect(Array.from(b.rig.pose.worldPosition)).toEqual(Array.from(c2.rig.pose.worldPosition));
    expect(Array.from(b.rig.pose.worldRotation)).toEqual(Array.from(c2.rig.pose.worldRotation));
    c2.phys.dispose();

    // The physics bones as the Node trace has them at N (posed by shared/skeleton, not the preview's binding: close,
    // not the same bits); the bones moved by physics at all (away from the trace's pose at rest).
    const t = new PhysicsTrace(a.bullet, a.m, a.doc);
    t.goTo(N);
    const hair = [...t.world.driver].flatMap((d, bone) => (d >= 0 ? [bone] : []));
    expect(hair.length).toBeGreaterThan(10);
    let worst = 0;
    for (const i of hair) for (let k = 0; k < 3; k++) worst = Math.max(worst, Math.abs(played[3 * i + k] - t.pose.worldPosition[3 * i + k]));
    expect(worst).toBeLessThan(1e-3);
    t.dispose();

    // Back to While playing: the preview's own world again, restarted at the next pose.
    b.phys.setTrace(false);
    expect(b.phys.physicsOf(SHOWN_KEY)!.trace).toBeNull();
    const restarts = b.phys.physicsOf(SHOWN_KEY)!.restarts;
    b.binding.apply(N);
    expect(b.phys.physicsOf(SHOWN_KEY)!.restarts).toBe(restarts + 1);
    a.phys.dispose();
    b.phys.dispose();
  }, 120_000);
});
