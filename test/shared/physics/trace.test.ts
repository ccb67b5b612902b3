// トレース (MMD's 物理演算 → トレース, fixphys3 finding 1): physics follows the playhead as a bake would. The state at
// frame N is the same bits played frame by frame from 0 or jumped straight to N in a new trace (a straight run); jumped
// to 300 and back to N it starts from the checkpoint at 120 (near the straight run, not its bits: Bullet's contact
// caches are not in a saved state; trace-straight.test.ts measures how near) — on the real Bullet build (babylon-mmd's
// wasm) with Gene_light dancing. An edit of the motion at M < N drops the checkpoints after M, and the state at N is
// then the new motion's.
import { describe, expect, it } from 'vitest';
import { readModel } from '../../../shared/pmx';
import { readVmd, writeVmd } from '../../../shared/vmd';
import { firstChangedFrame, PhysicsTrace, PhysicsWorld, TRACE_EVERY } from '../../../shared/physics';
import { registerBoneKey } from '../../../shared/key-edits';
import { buildTracks } from '../../../shared/vmd';
import { testBullet } from '../../helpers/bullet';
import { corpusPresent, readCorpus } from '../../helpers/corpus';

const c = corpusPresent ? it : it.skip;
const model = () => {
  const r = readModel(readCorpus('gene/Gene_light.pmx'));
  if (!r.ok) throw new Error('unreadable');
  return r.value;
};
const dance = () => {
  const r = readVmd(readCorpus('mmd-viewer-js/vmd/wavefile_v2.vmd'));
  if (!r.ok) throw new Error('unreadable');
  return r.value;
};

/** What the trace shows at its frame: every body's state and every bone's world transform. */
function shot(t: PhysicsTrace) {
  return { bodies: Array.from(t.world.saveState()), position: Array.from(t.pose.worldPosition), rotation: Array.from(t.pose.worldRotation) };
}

describe('physics trace (トレース)', () => {
  c('the state at N is the same bits played 0→N and jumped straight to N; jumped 0→300→N it starts from the checkpoint at 120', async () => {
    const bullet = await testBullet();
    const m = model(), mo = dance();
    const N = 137;
    const played = new PhysicsTrace(bullet, m, mo);
    for (let f = 0; f <= N; f++) played.goTo(f);
    const a = shot(played);

    const jumped = new PhysicsTrace(bullet, m, mo);
    jumped.goTo(0);
    jumped.goTo(300);
    jumped.goTo(N);
    // Back from 300 to 137: from the checkpoint at 120, 18 steps, no restart from 0.
    expect(jumped.restarts).toBe(1);
    expect(jumped.loads).toBe(1);
    expect(jumped.steps).toBe(300 + (N - 120 + 1));
    const b = shot(jumped);

    const direct = new PhysicsTrace(bullet, m, mo);
    direct.goTo(N);
    const d = shot(direct);

    // The hair moves at all (physics runs): some body is away from where it started.
    expect(a.bodies.some((v, i) => v !== shot(new PhysicsTrace(bullet, m, mo)).bodies[i])).toBe(true);
    expect(d).toEqual(a);
    // That need not be the straight run's bits (Gene's cloak touches her body: contacts), but it is the same bits
    // whenever that way is taken, and so is the frame after, played on from there.
    const again = new PhysicsTrace(bullet, m, mo);
    again.goTo(300);
    again.goTo(N);
    expect(shot(again)).toEqual(b);
    jumped.goTo(N + 1);
    again.goTo(N + 1);
    expect(shot(again)).toEqual(shot(jumped));
    expect(jumped.steps).toBe(300 + (N - 120 + 1) + 1);
    expect(jumped.loads).toBe(1);
    again.dispose();
    // Checkpoints every TRACE_EVERY frames the run passed, each 22 float32 per body.
    expect(jumped.checkpoints()).toEqual([30, 60, 90, 120, 150, 180, 210, 240, 270, 300]);
    expect(jumped.bytes).toBe(10 * PhysicsWorld.STATE_FLOATS * 4 * m.rigidBodies.length);
    expect(TRACE_EVERY).toBe(30);
    for (const t of [played, jumped, direct]) t.dispose();
  }, 120_000);

  c('run in slices of 7 steps (the restart\'s settling split too), turned from 300 to N on the way: the state at N is the straight run\'s bits', async () => {
    const bullet = await testBullet();
    const m = model(), mo = dance();
    const N = 137;
    const direct = new PhysicsTrace(bullet, m, mo);
    direct.goTo(N);
    const sliced = new PhysicsTrace(bullet, m, mo);
    // 4 slices towards 300: 28 of the 60 settling steps, frame 0 not reached yet.
    for (let k = 0; k < 4; k++) expect(sliced.advance(300, 7)).toBe(7);
    expect(sliced.frame).toBe(-1);
    expect(sliced.stepsTo(300)).toBe(60 - 28 + 300);
    // Turned to N: the restart goes on, then the frames up to N, 7 steps a slice at most.
    let slices = 0;
    while (sliced.stepsTo(N) > 0) {
      expect(sliced.advance(N, 7)).toBeLessThanOrEqual(7);
      slices++;
    }
    expect(slices).toBe(Math.ceil((60 - 28 + N) / 7));
    expect(sliced.restarts).toBe(1);
    expect(sliced.settled).toBe(60);
    expect(shot(sliced)).toEqual(shot(direct));
    direct.dispose();
    sliced.dispose();
  }, 120_000);

  c('an edit at M < N drops the checkpoints after M; the state at N is then the edited motion\'s', async () => {
    const bullet = await testBullet();
    const m = model(), mo = dance();
    const M = 110, N = 200;
    const t = new PhysicsTrace(bullet, m, mo);
    t.goTo(300);
    t.goTo(N);
    const before = shot(t);

    // The upper body turned 60° at frame M (a key added between its keys at 100 and 125).
    const tracks = buildTracks(mo);
    const s = Math.sin(Math.PI / 6), co = Math.cos(Math.PI / 6);
    const r = registerBoneKey(mo, tracks, { name: '上半身' }, M, { position: [0, 0, 0], rotation: [0, s, 0, co] });
    if (!r.ok) throw new Error('refused');
    const edited = readVmd(writeVmd(r.value.doc));
    if (!edited.ok) throw new Error('unreadable');
    // The pose changes from the key before M on (the curve from it to the new key changed).
    const head = tracks.bones.names.indexOf('上半身');
    let prev = 0;
    for (let k = tracks.bones.start[head]; k < tracks.bones.start[head + 1]; k++) if (tracks.bones.frames[k] < M) prev = tracks.bones.frames[k];
    const from = firstChangedFrame({ doc: mo, tracks }, { doc: edited.value, tracks: buildTracks(edited.value) });
    expect(from).toBe(prev);
    expect(prev).toBeGreaterThan(30);
    expect(prev).toBeLessThan(M);
    t.setMotion(edited.value, null, from);
    expect(t.checkpoints()).toEqual([30, 60, 90, 120, 150, 180, 210, 240, 270, 300].filter((k) => k <= prev));
    t.goTo(N);
    // From the last checkpoint kept, not from 0.
    expect(t.restarts).toBe(1);
    const after = shot(t);
    expect(after).not.toEqual(before);
    // The edited motion's run the same way: its straight run to the last checkpoint kept (the same bits as the old
    // run's there: the motions agree before it), a world from that checkpoint, on to N.
    const c0 = Math.max(...t.checkpoints());
    expect(t.loads).toBe(2);
    expect(t.steps).toBe(300 + (N - 180 + 1) + (N - c0 + 1));
    const fresh = new PhysicsTrace(bullet, m, edited.value);
    fresh.goTo(c0 + 1);
    fresh.goTo(c0);
    expect(fresh.loads).toBe(1);
    fresh.goTo(N);
    expect(after).toEqual(shot(fresh));
    t.dispose();
    fresh.dispose();
  }, 120_000);
});
