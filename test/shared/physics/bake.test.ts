// Physics bake: keys carry physics off (99, 15); the baked bones' keys in A..B are replaced and every other
// record is byte-identical; OUT played with physics off (shared/skeleton's MotionPoser, not the bake's own
// check) puts every baked bone at the world transform an independent Simulation run gives, within 0.01 units
// and 0.1° at every frame; IK chains of baked bones are switched off over the range by IK keys; runs are
// byte-identical; names over 15 bytes are reported.
import { describe, expect, it } from 'vitest';
import { RigidMode, RigidShape, type ModelData } from '../../../shared/pmx';
import { buildVmd, writeVmd, buildTracks, ikKey, encodeIkRecord, ikBlockFromRecords, withBlocks, type VmdDocument } from '../../../shared/vmd';
import { buildBoneInterpolation, PHYSICS_OFF, physicsOff } from '../../../shared/vmd/interpolation';
import { LINEAR_CURVE } from '../../../shared/vmd/bezier';
import { physicsBake, Simulation, type BulletInstance } from '../../../shared/physics';
import { MotionPoser, Pose } from '../../../shared/skeleton';
import { testBullet } from '../../helpers/bullet';
import { corpusPresent, readCorpus, corpusModel, corpusMotion } from '../../helpers/corpus';
import { body, bone, joint, physicsModel } from '../../helpers/physics-model';

const c = corpusPresent ? it : it.skip;

const load = corpusModel;
const motion = corpusMotion;

/** Rotation angle between two quaternions in degrees, each made unit length first. */
function angle(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): number {
  const na = Math.hypot(a[ao], a[ao + 1], a[ao + 2], a[ao + 3]), nb = Math.hypot(b[bo], b[bo + 1], b[bo + 2], b[bo + 3]);
  let dot = 0;
  for (let k = 0; k < 4; k++) dot += (a[ao + k] / na) * (b[bo + k] / nb);
  const x = Math.abs(dot);
  // asin of the sine part is exact near 0 where acos is not.
  return (2 * Math.asin(Math.min(1, Math.sqrt(Math.max(0, 1 - x * x)))) * 180) / Math.PI;
}

/**
 * OUT played with physics off (the keys, then IK as OUT's IK keys switch it) against the input simulated from
 * `start` (default `from`; seek with the same settling the bake states) and run on to `from`: the largest world
 * position and rotation differences of the named bones over [from, to].
 */
function playedAgainstSimulation(bullet: BulletInstance, m: ModelData, input: VmdDocument, out: VmdDocument, names: string[], from: number, to: number, settle: number, start = from) {
  const sim = new Simulation(bullet, m, input);
  const pose = new Pose(sim.pose.skeleton);
  const poser = new MotionPoser(sim.pose.skeleton, out, buildTracks(out));
  const idx = names.map((n) => m.bones.findIndex((b) => b.name === n));
  let pos = 0, rot = 0, at = '';
  try {
    sim.seek(start, settle);
    for (let f = start + 1; f <= from; f++) sim.advance();
    for (let f = from; f <= to; f++) {
      if (f > from) sim.advance();
      poser.poseAt(pose, f);
      for (const b of idx) {
        const d = Math.hypot(pose.worldPosition[3 * b] - sim.pose.worldPosition[3 * b], pose.worldPosition[3 * b + 1] - sim.pose.worldPosition[3 * b + 1], pose.worldPosition[3 * b + 2] - sim.pose.worldPosition[3 * b + 2]);
        if (d > pos) { pos = d; at = `${m.bones[b].name} @${f}`; }
        rot = Math.max(rot, angle(pose.worldRotation, 4 * b, sim.pose.worldRotation, 4 * b));
      }
    }
  } finally {
    sim.dispose();
  }
  return { pos, rot, at };
}

describe('physics bake', () => {
  c('low-poly Miku × wavefile_v2 frames 0–300: played with physics off it is the simulation within 0.01 / 0.1° at every frame; flags, IK keys, untouched records, identical reruns', async () => {
    const bullet = await testBullet();
    const m = load('mmd-viewer-js/model/low_miku/miku.pmd');
    const mo = motion('mmd-viewer-js/vmd/wavefile_v2.vmd');
    const r = physicsBake(bullet, m, mo, { from: 0, to: 300 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const rep = r.value.report;
    expect(rep.bones.length).toBe(25);
    expect(rep.rawKeys).toBe(25 * 301);
    expect(rep.keptKeys).toBeLessThan(rep.rawKeys);
    // The three chains of physics bones (tie and both tails) are switched off; the legs' IK is not.
    expect(rep.ikOff).toEqual(['ﾈｸﾀｲＩＫ', '左髪ＩＫ', '右髪ＩＫ']);
    const out = r.value.doc, inp = mo;

    // Played with physics off, measured here against a Simulation of the input (the bake's own figures aside).
    const check = playedAgainstSimulation(bullet, m, inp, out, rep.bones, 0, 300, 0);
    console.log(`bake 0–300: ${rep.bones.length} bones, raw ${rep.rawKeys} keys, kept ${rep.keptKeys} (${((100 * rep.keptKeys) / rep.rawKeys).toFixed(1)}%), replaced ${rep.replacedKeys}; played with physics off vs the simulation: ${check.pos.toFixed(5)} units (${check.at}) / ${check.rot.toFixed(5)}°; the bake's report ${rep.maxPositionError.toFixed(5)} / ${rep.maxRotationErrorDeg.toFixed(5)}°`);
    expect(check.pos).toBeLessThanOrEqual(0.01);
    expect(check.rot).toBeLessThanOrEqual(0.1 + 1e-6);
    expect(Math.abs(check.pos - rep.maxPositionError)).toBeLessThan(1e-9);

    // IK keys: the hair chains are off from frame 0 through 300 and back on at 301 (the motion goes on), the legs on.
    const ikOn = new MotionPoser(new Simulation(bullet, m, null).pose.skeleton, out, buildTracks(out));
    const hairIk = m.bones.findIndex((b) => b.name === '左髪ＩＫ'), legIk = m.bones.findIndex((b) => b.name === '左足ＩＫ');
    for (const f of [0, 150, 300]) {
      expect(ikOn.ikEnabledAt(f)(hairIk), `hair IK @${f}`).toBe(false);
      expect(ikOn.ikEnabledAt(f)(legIk), `leg IK @${f}`).toBe(true);
    }
    expect(ikOn.ikEnabledAt(301)(hairIk)).toBe(true);
    expect(out.ik.count).toBe(2);
    expect(ikKey(out.ik, 0)).toMatchObject({ frame: 0, visible: 1 });
    expect(ikKey(out.ik, 0).iks).toHaveLength(7); // every IK bone of the model, as MMD writes a key

    const baked = new Set(rep.bones);
    const trOut = buildTracks(out);
    // Every key of a baked bone inside 0..300 carries physics off.
    for (const name of rep.bones) {
      const t = trOut.bones.index.get(name)!;
      for (let k = trOut.bones.start[t]; k < trOut.bones.start[t + 1]; k++) {
        if (trOut.bones.frames[k] > 300) continue;
        const rec = trOut.bones.record[k];
        expect(physicsOff(out.bone.bytes, rec * 111 + 47), `${name} @${trOut.bones.frames[k]}`).toBe(true);
      }
    }
    // Every input record that is not a baked bone's key inside 0..300 is in the output, byte for byte.
    const outRecs = new Set<string>();
    for (let i = 0; i < out.bone.count; i++) outRecs.add(Buffer.from(out.bone.bytes.subarray(i * 111, i * 111 + 111)).toString('hex'));
    const trIn = buildTracks(inp);
    let untouched = 0;
    for (let t = 0; t < trIn.bones.names.length; t++) {
      for (let k = trIn.bones.start[t]; k < trIn.bones.start[t + 1]; k++) {
        if (baked.has(trIn.bones.names[t]) && trIn.bones.frames[k] <= 300) continue;
        const i = trIn.bones.record[k];
        expect(outRecs.has(Buffer.from(inp.bone.bytes.subarray(i * 111, i * 111 + 111)).toString('hex'))).toBe(true);
        untouched++;
      }
    }
    expect(untouched).toBeGreaterThan(1000);
    // Plus one key per baked bone at 301 giving physics back (the motion goes on).
    expect(rep.edgeKeys).toBe(25);
    expect(out.bone.count).toBe(untouched + rep.keptKeys + rep.edgeKeys);
    expect(Buffer.from(out.morph.bytes).equals(Buffer.from(inp.morph.bytes))).toBe(true);
    expect(Buffer.from(out.camera.bytes).equals(Buffer.from(inp.camera.bytes))).toBe(true);

    // With physics on the baked bones follow their keys (99, 15): the same pose.
    const on = new Simulation(bullet, m, out);
    const ref = new Simulation(bullet, m, inp);
    let onPos = 0;
    try {
      on.seek(0, 0);
      ref.seek(0, 0);
      const idx = rep.bones.map((n) => m.bones.findIndex((b) => b.name === n));
      for (let f = 0; f <= 300; f++) {
        if (f > 0) { on.advance(); ref.advance(); }
        for (const b of idx) onPos = Math.max(onPos, Math.hypot(on.pose.worldPosition[3 * b] - ref.pose.worldPosition[3 * b], on.pose.worldPosition[3 * b + 1] - ref.pose.worldPosition[3 * b + 1], on.pose.worldPosition[3 * b + 2] - ref.pose.worldPosition[3 * b + 2]));
      }
    } finally {
      on.dispose();
      ref.dispose();
    }
    console.log(`played with physics on: ${onPos.toFixed(5)} units`);
    expect(onPos).toBeLessThanOrEqual(0.01);

    // Byte-identical on a second run.
    const r2 = physicsBake(bullet, m, mo, { from: 0, to: 300 });
    expect(r2.ok && Buffer.from(writeVmd(r2.value.doc)).equals(Buffer.from(writeVmd(out)))).toBe(true);
  }, 300_000);

  c('Gene_light × 33_angry: the reduced bake keeps at most a third of the raw keys and plays within tolerance', async () => {
    const bullet = await testBullet();
    const m = load('gene/Gene_light.pmx'), mo = motion('gene/motion/33_angry.vmd');
    const r = physicsBake(bullet, m, mo);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const check = playedAgainstSimulation(bullet, m, mo, r.value.doc, r.value.report.bones, 0, r.value.report.to, 0);
    console.log(`Gene_light × 33_angry: raw ${r.value.report.rawKeys}, kept ${r.value.report.keptKeys} (${((100 * r.value.report.keptKeys) / r.value.report.rawKeys).toFixed(1)}%); played with physics off: ${check.pos.toFixed(5)} units (${check.at}) / ${check.rot.toFixed(5)}°`);
    expect(r.value.report.keptKeys * 3).toBeLessThanOrEqual(r.value.report.rawKeys);
    expect(check.pos).toBeLessThanOrEqual(0.01);
    expect(check.rot).toBeLessThanOrEqual(0.1 + 1e-6);
    expect(r.value.report.ikOff).toEqual([]);
  }, 300_000);

  c('--raw writes one key per frame per bone; played back it shows the simulation (warm-up 0: restarted at A, settled)', async () => {
    const bullet = await testBullet();
    const m = load('gene/Gene_light.pmx');
    const mo = motion('gene/motion/02_laugh.vmd');
    const r = physicsBake(bullet, m, mo, { raw: true, from: 10, to: 70, warmup: 0 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.report.rawKeys).toBe(r.value.report.bones.length * 61);
    expect(r.value.report.keptKeys).toBe(r.value.report.rawKeys);
    expect(r.value.report.settleFrames).toBe(60);
    expect(r.value.report.simulatedFrom).toBe(10);
    // One key per frame plays the simulation to float32's precision, from the settled start at 10.
    const check = playedAgainstSimulation(bullet, m, mo, r.value.doc, r.value.report.bones, 10, 70, 60);
    console.log(`raw bake 10–70: played with physics off ${check.pos.toExponential(2)} units / ${check.rot.toExponential(2)}°`);
    expect(check.pos).toBeLessThan(1e-3);
    expect(check.rot).toBeLessThan(1e-3);
  }, 300_000);

  it('a physics bone whose name is over 15 bytes is named in the report, not dropped silently', async () => {
    const long = 'とても長い髪の毛ボーン'; // 11 characters, 22 Shift_JIS bytes
    const m = physicsModel(
      [bone('head', [0, 10, 0]), bone('hair', [0, 9, 0], 0), bone(long, [0, 8, 0], 0)],
      [
        body('head', 0, RigidMode.FOLLOW_BONE, RigidShape.SPHERE, [0.5, 0, 0], [0, 10, 0], { group: 0, mask: 0 }),
        body('hair', 1, RigidMode.PHYSICS, RigidShape.SPHERE, [0.3, 0, 0], [0, 9, 0], { group: 1, mask: 0 }),
        body('long', 2, RigidMode.PHYSICS, RigidShape.SPHERE, [0.3, 0, 0], [0, 8, 0], { group: 1, mask: 0 }),
      ],
      [joint('j1', 0, 1, [0, 10, 0]), joint('j2', 0, 2, [0, 10, 0])],
    );
    const r = physicsBake(await testBullet(), m, buildVmd({ bones: [{ name: 'head', frame: 30, position: [0, 0, 0], rotation: [0, 0, 0, 1] }] }), { raw: true });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.report.bones).toEqual(['hair']);
    expect(r.value.report.namesTooLong).toEqual([long]);
    expect(r.value.report.rawKeys).toBe(31);
  });

  it('IK over physics bones: off by IK keys over A..B (the motion\'s own IK keys there get it off, others kept byte for byte), back as the motion had it at B+1', async () => {
    // head → hair1 → hair2 → tip, with hairIK (links hair2, hair1 → tip) and a leg IK that stays as it was.
    const bones = [bone('head', [0, 10, 0]), bone('hair1', [0, 9, 0], 0), bone('hair2', [0, 8, 0], 1), bone('tip', [0, 7, 0], 2), bone('hairIK', [0, 7, 0], 0), bone('foot', [1, 0, 0]), bone('legIK', [1, 0, 0])];
    bones[4].ik = { target: 3, loopCount: 10, limitAngle: 1, links: [{ bone: 2, limits: null }, { bone: 1, limits: null }] };
    bones[6].ik = { target: 5, loopCount: 10, limitAngle: 1, links: [{ bone: 5, limits: null }] };
    const m = physicsModel(
      bones,
      [
        body('head', 0, RigidMode.FOLLOW_BONE, RigidShape.SPHERE, [0.5, 0, 0], [0, 10, 0], { group: 0, mask: 0 }),
        body('h1', 1, RigidMode.PHYSICS, RigidShape.SPHERE, [0.3, 0, 0], [0, 9, 0], { group: 1, mask: 0 }),
        body('h2', 2, RigidMode.PHYSICS, RigidShape.SPHERE, [0.3, 0, 0], [0, 8, 0], { group: 1, mask: 0 }),
      ],
      [joint('j1', 0, 1, [0, 10, 0]), joint('j2', 1, 2, [0, 9, 0])],
    );
    // IK keys at 0 (legIK off, hair not named), 20 (inside: hair on, shown 0), 40 (after: names only legIK).
    const input = withBlocks(
      buildVmd({ bones: [{ name: 'head', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] }, { name: 'head', frame: 30, position: [0, 0, 0], rotation: [0, 0, 0.5, 0.8660254] }, { name: 'head', frame: 50, position: [0, 0, 0], rotation: [0, 0, 0, 1] }] }),
      {
        ik: ikBlockFromRecords([
          encodeIkRecord({ frame: 0, visible: 1, iks: [{ name: 'legIK', enabled: 0 }] }),
          encodeIkRecord({ frame: 20, visible: 0, iks: [{ name: 'hairIK', enabled: 1 }, { name: 'legIK', enabled: 1 }] }),
          encodeIkRecord({ frame: 40, visible: 1, iks: [{ name: 'legIK', enabled: 0 }] }),
        ]),
      },
    );
    const bullet = await testBullet();
    const r = physicsBake(bullet, m, input, { from: 10, to: 30 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.report.bones).toEqual(['hair1', 'hair2']);
    expect(r.value.report.ikOff).toEqual(['hairIK']);
    const out = r.value.doc;
    const keys = Array.from({ length: out.ik.count }, (_, i) => ikKey(out.ik, i)).sort((x, y) => x.frame - y.frame);
    expect(keys.map((k) => k.frame)).toEqual([0, 10, 20, 31, 40]);
    // The key at 0 is outside the range: its bytes are the input's.
    const rec = (d: VmdDocument, i: number) => Buffer.from(d.ik.bytes.subarray(d.ik.offsets[i], d.ik.offsets[i + 1])).toString('hex');
    const inKeys = Array.from({ length: input.ik.count }, (_, i) => rec(input, i));
    const outKeys = Array.from({ length: out.ik.count }, (_, i) => rec(out, i));
    expect(outKeys).toContain(inKeys[0]);
    expect(outKeys).toContain(inKeys[2]);
    // New key at 10: every IK bone with its state in force (legIK off from the key at 0), hairIK off.
    expect(keys[1]).toEqual({ frame: 10, visible: 1, iks: [{ name: 'hairIK', enabled: 0 }, { name: 'legIK', enabled: 0 }] });
    // The motion's key at 20 keeps its show flag and legIK, with hairIK off.
    expect(keys[2]).toEqual({ frame: 20, visible: 0, iks: [{ name: 'hairIK', enabled: 0 }, { name: 'legIK', enabled: 1 }] });
    // At 31 the states the motion had there (hairIK on from 20, legIK on from 20, shown 0).
    expect(keys[3]).toEqual({ frame: 31, visible: 0, iks: [{ name: 'hairIK', enabled: 1 }, { name: 'legIK', enabled: 1 }] });
    // As the player reads them: hair IK off exactly over 10..30.
    const poser = new MotionPoser(new Simulation(bullet, m, null).pose.skeleton, out, buildTracks(out));
    const inPoser = new MotionPoser(poser.skeleton, input, buildTracks(input));
    for (let f = 0; f <= 50; f++) {
      expect(poser.ikEnabledAt(f)(4), `hairIK @${f}`).toBe(f >= 10 && f <= 30 ? false : inPoser.ikEnabledAt(f)(4));
      expect(poser.ikEnabledAt(f)(6), `legIK @${f}`).toBe(inPoser.ikEnabledAt(f)(6));
    }
    // Played with physics off the hair is where the simulation put it.
    const check = playedAgainstSimulation(bullet, m, input, out, r.value.report.bones, 10, 30, 0, 0);
    expect(check.pos).toBeLessThanOrEqual(0.01);
    expect(check.rot).toBeLessThanOrEqual(0.1 + 1e-6);
  });

  /** Per frame, the physics-off toggles the real Simulation sets from a motion (1 per bone). */
  function togglesAt(bullet: BulletInstance, m: ModelData, d: VmdDocument, frames: number[]): number[][] {
    const sim = new Simulation(bullet, m, d);
    try {
      return frames.map((f) => {
        sim.seek(f, 0);
        return Array.from(sim.world.toggledOff);
      });
    } finally {
      sim.dispose();
    }
  }

  /** head → hair1 → hair2, the hair hanging on a joint. */
  function hairModel() {
    return physicsModel(
      [bone('head', [0, 10, 0]), bone('hair1', [0, 9, 0], 0), bone('hair2', [0, 8, 0], 1)],
      [
        body('head', 0, RigidMode.FOLLOW_BONE, RigidShape.SPHERE, [0.5, 0, 0], [0, 10, 0], { group: 0, mask: 0 }),
        body('h1', 1, RigidMode.PHYSICS, RigidShape.SPHERE, [0.3, 0, 0], [0, 9, 0], { group: 1, mask: 0 }),
        body('h2', 2, RigidMode.PHYSICS, RigidShape.SPHERE, [0.3, 0, 0], [0, 8, 0], { group: 1, mask: 0 }),
      ],
      [joint('j1', 0, 1, [0, 10, 0]), joint('j2', 1, 2, [0, 9, 0])],
    );
  }
  const turn = (deg: number) => [0, 0, Math.sin((deg * Math.PI) / 360), Math.cos((deg * Math.PI) / 360)];
  const offIp = () => buildBoneInterpolation([LINEAR_CURVE, LINEAR_CURVE, LINEAR_CURVE, LINEAR_CURVE], PHYSICS_OFF);

  it('a bake of A..B leaves physics running before A and after B as the motion had it (keys at A−1 and B+1), and physics-off playback there as before', async () => {
    const bullet = await testBullet();
    const m = hairModel();
    // The head turns over 0..60; hair1 has one key of its own at 5 (physics on), hair2 none.
    const input = buildVmd({
      bones: [
        { name: 'head', frame: 0, position: [0, 0, 0], rotation: turn(0) },
        { name: 'head', frame: 60, position: [0, 0, 0], rotation: turn(60) },
        { name: 'hair1', frame: 5, position: [0, 0, 0], rotation: turn(10) },
      ],
    });
    const r = physicsBake(bullet, m, input, { from: 20, to: 40 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.report.bones).toEqual(['hair1', 'hair2']);
    const out = r.value.doc;
    const outside = [0, 4, 5, 10, 19, 41, 42, 50, 60];
    const want = togglesAt(bullet, m, input, outside);
    expect(want.every((t) => t.every((x) => x === 0))).toBe(true);
    expect(togglesAt(bullet, m, out, outside)).toEqual(want);
    // Inside the range the baked keys hold the hair: physics off.
    for (const t of togglesAt(bullet, m, out, [20, 30, 40])) expect([t[1], t[2]]).toEqual([1, 1]);
    // Both get a key at 19 and at 41; hair1's own key at 5 stays.
    expect(r.value.report.edgeKeys).toBe(4);
    // With physics off the motion plays on from B+1 as before: hair1's value at 41 is the motion's (its key at 5).
    const pose = new Pose(new Simulation(bullet, m, null).pose.skeleton);
    const pOut = new MotionPoser(pose.skeleton, out, buildTracks(out)), pIn = new MotionPoser(pose.skeleton, input, buildTracks(input));
    const rotAt = (p: MotionPoser, f: number) => { p.poseAt(pose, f); return Array.from(pose.worldRotation.subarray(4, 8)); };
    for (const f of [0, 19, 41, 50]) {
      const a = rotAt(pOut, f), b = rotAt(pIn, f);
      expect(angle(a, 0, b, 0), `hair1 @${f}`).toBeLessThan(1e-3);
    }
  });

  it('a bake of A..B over a motion baked before, with resimulate: physics stays off after B where the old bake had it off; the range is simulated again, not replayed', async () => {
    const bullet = await testBullet();
    const m = hairModel();
    // An old bake held the hair stuck out sideways (physics off) at every frame 0..60.
    const bones: { name: string; frame: number; position: number[]; rotation: number[]; interpolation?: Uint8Array }[] = [
      { name: 'head', frame: 0, position: [0, 0, 0], rotation: turn(0) },
      { name: 'head', frame: 60, position: [0, 0, 0], rotation: turn(60) },
    ];
    for (let f = 0; f <= 60; f++) for (const n of ['hair1', 'hair2']) bones.push({ name: n, frame: f, position: [0, 0, 0], rotation: n === 'hair1' ? turn(90) : turn(0), interpolation: offIp() });
    const input = buildVmd({ bones });
    const r = physicsBake(bullet, m, input, { from: 0, to: 30, raw: true, resimulate: true });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.report.replacedKeys).toBe(62);
    expect(r.value.report.physicsOffKeys).toBe(62);
    expect(r.value.report.resimulated).toBe(true);
    expect(r.value.report.edgeKeys).toBe(0); // the old keys at 31 are kept
    const out = r.value.doc;
    expect(togglesAt(bullet, m, out, [31, 45, 60])).toEqual(togglesAt(bullet, m, input, [31, 45, 60]));
    // The reference: the same motion with the old keys' flags on (an independent way of saying "simulate them").
    const onIp = buildBoneInterpolation([LINEAR_CURVE, LINEAR_CURVE, LINEAR_CURVE, LINEAR_CURVE]);
    const ref = buildVmd({ bones: bones.map((k) => (k.interpolation ? { ...k, interpolation: onIp } : k)) });
    const check = playedAgainstSimulation(bullet, m, ref, out, r.value.report.bones, 0, 30, 0);
    expect(check.pos).toBeLessThan(1e-3);
    expect(check.rot).toBeLessThan(1e-3);
    // The hair did move: the old keys would not have shown this.
    const stale = playedAgainstSimulation(bullet, m, ref, input, r.value.report.bones, 0, 30, 0);
    expect(stale.pos).toBeGreaterThan(0.1);
  });

  it("resimulate 'auto' (the app's default) simulates again over a previous bake (physics-off keys on every baked bone, on no other) and plays hand-held keys on some bones as keys", async () => {
    const bullet = await testBullet();
    const m = hairModel();
    type K = { name: string; frame: number; position: number[]; rotation: number[]; interpolation?: Uint8Array };
    const head: K[] = [
      { name: 'head', frame: 0, position: [0, 0, 0], rotation: turn(0) },
      { name: 'head', frame: 60, position: [0, 0, 0], rotation: turn(60) },
    ];
    // A previous bake: physics-off keys on both baked bones over 0..30 (as a reduced bake leaves them, a few).
    const baked: K[] = [...head];
    for (const f of [0, 12, 30]) for (const n of ['hair1', 'hair2']) baked.push({ name: n, frame: f, position: [0, 0, 0], rotation: turn(40), interpolation: offIp() });
    // Held by hand: physics off on hair1 only over 10..20.
    const held: K[] = [...head, ...[10, 20].map((frame) => ({ name: 'hair1', frame, position: [0, 0, 0], rotation: turn(70), interpolation: offIp() }))];
    // The previous bake's bones, and a hand key with physics off on a bone the bake does not bake (head at 15).
    const mixed: K[] = [...baked, { name: 'head', frame: 15, position: [0, 0, 0], rotation: turn(15), interpolation: offIp() }];
    const bytes = (bones: K[], resimulate: boolean | 'auto') => {
      const r = physicsBake(bullet, m, buildVmd({ bones }), { from: 0, to: 30, resimulate });
      if (!r.ok) throw new Error(r.error.message);
      return { bytes: Buffer.from(writeVmd(r.value.doc)), report: r.value.report };
    };
    const auto = bytes(baked, 'auto');
    expect(auto.report).toMatchObject({ physicsOffKeys: 6, resimulated: true, resimulatedAuto: true });
    expect(auto.bytes.equals(bytes(baked, true).bytes)).toBe(true);
    expect(auto.bytes.equals(bytes(baked, false).bytes)).toBe(false);
    const hand = bytes(held, 'auto');
    expect(hand.report).toMatchObject({ physicsOffKeys: 2, resimulated: false, resimulatedAuto: false });
    expect(hand.bytes.equals(bytes(held, false).bytes)).toBe(true);
    const both = bytes(mixed, 'auto');
    expect(both.report).toMatchObject({ resimulated: false, resimulatedAuto: false });
    // Without the option (the CLI's default) nothing changes: played as keys.
    expect(bytes(baked, false).report).toMatchObject({ resimulated: false, resimulatedAuto: false });
  });

  it('by default (as MMD) keys that switch physics off inside the range are played as keys: hair held sideways by hand over 20–40 stays there in a bake of 0–60, the rest follows the simulation', async () => {
    const bullet = await testBullet();
    const m = hairModel();
    // The author holds the hair bent sideways over 20..40 with 物理OFF keys; physics on at 0 and again from 41.
    const on = buildBoneInterpolation([LINEAR_CURVE, LINEAR_CURVE, LINEAR_CURVE, LINEAR_CURVE]);
    const bones = [
      { name: 'head', frame: 0, position: [0, 0, 0], rotation: turn(0) },
      { name: 'head', frame: 60, position: [0, 0, 0], rotation: turn(60) },
    ] as { name: string; frame: number; position: number[]; rotation: number[]; interpolation?: Uint8Array }[];
    for (const n of ['hair1', 'hair2']) {
      bones.push({ name: n, frame: 0, position: [0, 0, 0], rotation: turn(0), interpolation: on });
      for (const f of [20, 40]) bones.push({ name: n, frame: f, position: [0, 0, 0], rotation: n === 'hair1' ? turn(80) : turn(20), interpolation: offIp() });
      bones.push({ name: n, frame: 41, position: [0, 0, 0], rotation: turn(0), interpolation: on });
    }
    const input = buildVmd({ bones });
    const r = physicsBake(bullet, m, input, { from: 0, to: 60 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const rep = r.value.report;
    expect(rep.bones).toEqual(['hair1', 'hair2']);
    expect(rep.replacedKeys).toBe(8);
    expect(rep.physicsOffKeys).toBe(4);
    expect(rep.resimulated).toBe(false);
    const out = r.value.doc;
    // Played with physics off, at 20..40 the hair is where the hand keys put it (the input played as keys).
    const pose = new Pose(new Simulation(bullet, m, null).pose.skeleton);
    const pOut = new MotionPoser(pose.skeleton, out, buildTracks(out)), pIn = new MotionPoser(pose.skeleton, input, buildTracks(input));
    const at = (p: MotionPoser, f: number) => { p.poseAt(pose, f); return { pos: Array.from(pose.worldPosition.subarray(3, 9)), rot: Array.from(pose.worldRotation.subarray(4, 12)) }; };
    for (let f = 20; f <= 40; f++) {
      const a = at(pOut, f), b = at(pIn, f);
      for (const k of [0, 1]) {
        expect(angle(a.rot, 4 * k, b.rot, 4 * k), `hair${k + 1} rotation @${f}`).toBeLessThan(0.2);
        expect(Math.hypot(a.pos[3 * k] - b.pos[3 * k], a.pos[3 * k + 1] - b.pos[3 * k + 1], a.pos[3 * k + 2] - b.pos[3 * k + 2]), `hair${k + 1} position @${f}`).toBeLessThan(0.02);
      }
    }
    // Every frame is the real Simulation of the input (which follows the 物理OFF keys as MMD does) within the tolerance.
    const check = playedAgainstSimulation(bullet, m, input, out, rep.bones, 0, 60, 0);
    expect(check.pos, check.at).toBeLessThanOrEqual(0.01 + 1e-6);
    expect(check.rot).toBeLessThanOrEqual(0.1 + 1e-6);
    // Outside 20..40 that is the simulation, not the keys: the hair hangs, far from where the keys would put it.
    for (const f of [10, 50]) expect(angle(at(pOut, f).rot, 0, at(pIn, f).rot, 0), `hair1 @${f}`).toBeGreaterThan(5);
  });

  c('Gene_light × wavefile_v2 baked over 300–330: at frames before 300 and after 330 (600, 2000) physics is in force as in the unbaked motion', async () => {
    const bullet = await testBullet();
    const m = load('gene/Gene_light.pmx'), mo = motion('mmd-viewer-js/vmd/wavefile_v2.vmd');
    const r = physicsBake(bullet, m, mo, { from: 300, to: 330 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const frames = [0, 100, 299, 331, 600, 2000];
    const want = togglesAt(bullet, m, mo, frames);
    const got = togglesAt(bullet, m, r.value.doc, frames);
    const idx = r.value.report.bones.map((n) => m.bones.findIndex((b) => b.name === n));
    frames.forEach((f, i) => expect(idx.map((b) => got[i][b]), `@${f}`).toEqual(idx.map((b) => want[i][b])));
    expect(got[4].some((x) => x === 1)).toBe(false);
  }, 300_000);

  c('a bake of A..B (A > 0) by default simulates from frame 0: the baked bones at A are where a bake of 0..B puts them (no pop at A), runs are byte-identical; warm-up 0 restarts at A and differs', async () => {
    const bullet = await testBullet();
    const m = load('gene/Gene_light.pmx'), mo = motion('gene/motion/02_laugh.vmd');
    const A = 100, B = 160;
    const whole = physicsBake(bullet, m, mo, { from: 0, to: B });
    const part = physicsBake(bullet, m, mo, { from: A, to: B });
    const restarted = physicsBake(bullet, m, mo, { from: A, to: B, warmup: 0 });
    const warm30 = physicsBake(bullet, m, mo, { from: A, to: B, warmup: 30 });
    if (!whole.ok || !part.ok || !restarted.ok || !warm30.ok) throw new Error('bake failed');
    // The report says where the simulation started and whether it settled there.
    expect(part.value.report).toMatchObject({ from: A, to: B, simulatedFrom: 0, settleFrames: 0 });
    expect(restarted.value.report).toMatchObject({ simulatedFrom: A, settleFrames: 60 });
    expect(warm30.value.report).toMatchObject({ simulatedFrom: A - 30, settleFrames: 60 });
    // Each bake's keys played with physics off (the two documents sampled independently of the bake's own check).
    const sk = new Simulation(bullet, m, null);
    const skeleton = sk.pose.skeleton;
    sk.dispose();
    const idx = part.value.report.bones.map((n) => m.bones.findIndex((b) => b.name === n));
    const sampled = (doc: VmdDocument, f: number) => {
      const pose = new Pose(skeleton);
      new MotionPoser(skeleton, doc, buildTracks(doc), m).poseAt(pose, f);
      return { pos: Float64Array.from(pose.worldPosition), rot: Float64Array.from(pose.worldRotation) };
    };
    const largest = (a: ReturnType<typeof sampled>, b: ReturnType<typeof sampled>) => {
      let pos = 0, rot = 0;
      for (const i of idx) {
        pos = Math.max(pos, Math.hypot(a.pos[3 * i] - b.pos[3 * i], a.pos[3 * i + 1] - b.pos[3 * i + 1], a.pos[3 * i + 2] - b.pos[3 * i + 2]));
        rot = Math.max(rot, angle(a.rot, 4 * i, b.rot, 4 * i));
      }
      return { pos, rot };
    };
    for (const f of [A, A + 1, A + 30, B]) {
      // Both bakes are within the tolerance (0.01 units, 0.1°) of one simulation: within twice that of each other.
      const d = largest(sampled(part.value.doc, f), sampled(whole.value.doc, f));
      expect(d.pos, `@${f}`).toBeLessThanOrEqual(0.02 + 1e-9);
      expect(d.rot, `@${f}`).toBeLessThanOrEqual(0.2 + 1e-6);
    }
    // Restarted at A's pose the hair at A is elsewhere: the pop the warm-up removes.
    expect(largest(sampled(restarted.value.doc, A), sampled(whole.value.doc, A)).pos).toBeGreaterThan(0.05);
    // Byte-identical run to run.
    const again = physicsBake(bullet, m, mo, { from: A, to: B });
    expect(again.ok && Buffer.from(writeVmd(again.value.doc)).equals(Buffer.from(writeVmd(part.value.doc)))).toBe(true);
    // A bad warm-up is refused, naming the option.
    const bad = physicsBake(bullet, m, mo, { from: A, to: B, warmup: -1 });
    expect(!bad.ok && bad.error).toMatchObject({ code: 'E_ARGUMENT', option: 'warmup' });
  }, 300_000);

  c('Gene_light: the largest error is also given for the baked bones one can see (vertices or displayed), not only for an invisible weight (錘)', async () => {
    const bullet = await testBullet();
    const m = load('gene/Gene_light.pmx'), mo = motion('gene/motion/02_laugh.vmd');
    const r = physicsBake(bullet, m, mo, { from: 0, to: 60 });
    if (!r.ok) throw new Error(r.error.message);
    const rep = r.value.report;
    // Seen, worked out here: a skin weight above 0 on a vertex, or PMX's visible flag (0x0008).
    const seen = new Set<number>();
    for (let i = 0; i < m.skinWeights.length; i++) if (m.skinWeights[i] > 0) seen.add(m.skinIndices[i]);
    m.bones.forEach((b, i) => { if (b.flags & 0x0008) seen.add(i); });
    const seenNames = rep.bones.filter((n) => seen.has(m.bones.findIndex((b) => b.name === n)));
    expect(seenNames.length).toBeGreaterThan(0);
    // Gene's worst bone is a weight that shows nothing (README); the seen figure names another.
    expect(rep.worst!.bone).toMatch(/錘/);
    expect(seen.has(m.bones.findIndex((b) => b.name === rep.worst!.bone))).toBe(false);
    expect(seenNames).toContain(rep.worstSeen!.bone);
    // The seen figures are those of playing OUT against the simulation over the seen bones only.
    const check = playedAgainstSimulation(bullet, m, mo, r.value.doc, seenNames, 0, 60, 0);
    expect(rep.maxPositionErrorSeen).toBeCloseTo(check.pos, 9);
    expect(`${rep.worstSeen!.bone} @${rep.worstSeen!.frame}`).toBe(check.at);
    expect(rep.maxRotationErrorDegSeen).toBeLessThanOrEqual(rep.maxRotationErrorDeg);
    expect(rep.maxPositionErrorSeen).toBeLessThan(rep.maxPositionError);
  }, 300_000);

  it('a model without physics bones is refused with E_PHYSICS; a bad range with E_ARGUMENT', async () => {
    const bullet = await testBullet();
    const m = physicsModel([bone('a', [0, 0, 0])], []);
    const r = physicsBake(bullet, m, buildVmd({}));
    expect(!r.ok && r.error.code).toBe('E_PHYSICS');
    expect(!r.ok && r.error.message).toBe('model "test" has no physics-driven bones (rigid bodies of mode 1 or 2)');
    // An empty name field is not shown as "": the caller puts the file name before the message.
    const unnamed = physicsBake(bullet, { ...m, name: '' }, buildVmd({}));
    expect(!unnamed.ok && unnamed.error.message).toBe('the model has no physics-driven bones (rigid bodies of mode 1 or 2)');
    const r2 = physicsBake(bullet, m, buildVmd({}), { from: 5, to: 2 });
    expect(!r2.ok && r2.error).toMatchObject({ code: 'E_ARGUMENT', option: 'to' });
  });
});
