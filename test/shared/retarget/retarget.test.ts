/**
 * Retargeting on models built in the test. World transforms are computed here, by a small forward
 * kinematics over the rest positions and the motions as the player samples them (test/helpers/quat.ts),
 * not with the retargeter's numbers; the IK check poses the target with the shared skeleton evaluator.
 */
import { describe, expect, it } from 'vitest';
import { BONE_FLAG, type ModelBone, type ModelData } from '../../../shared/pmx/model-types';
import { retarget } from '../../../shared/retarget';
import { buildSkeleton, MotionPoser, Pose } from '../../../shared/skeleton';
import { buildVmd, buildTracks, decodeName, defaultBoneInterpolation, encodeIkRecord, ikBlockFromRecords, ikKey, physicsOff, sampleBoneInto, setPhysicsOff, withBlocks, writeVmd, readVmd, type VmdDocument } from '../../../shared/vmd';
import { qmul, rotate } from '../../helpers/quat';

const ROT = BONE_FLAG.ROTATABLE | BONE_FLAG.VISIBLE | BONE_FLAG.ENABLED;
const MOVE = ROT | BONE_FLAG.TRANSLATABLE;

function bone(name: string, position: [number, number, number], parent: string | null, bones: ModelBone[], extra: Partial<ModelBone> = {}): ModelBone {
  return {
    name, nameEn: '', position, parent: parent === null ? -1 : bones.findIndex((b) => b.name === parent), layer: 0, flags: ROT,
    tailBone: -1, tailOffset: [0, 0, 0], appendParent: -1, appendRatio: 0, fixedAxis: null, ik: null, ...extra,
  };
}

/** A model of the given bones, [name, position, parent, extra], parents listed first. */
function model(name: string, spec: [string, [number, number, number], string | null, Partial<ModelBone>?][]): ModelData {
  const bones: ModelBone[] = [];
  for (const [n, p, parent, extra] of spec) bones.push(bone(n, p, parent, bones, extra));
  return {
    format: 'pmx', version: 2, name, nameEn: '', comment: '', commentEn: '', vertexCount: 0, positions: new Float32Array(0), normals: new Float32Array(0),
    uvs: new Float32Array(0), skinIndices: new Uint32Array(0), skinWeights: new Float32Array(0), deform: new Uint8Array(0), edgeScales: new Float32Array(0),
    indices: new Uint32Array(0), textures: [], materials: [], bones, morphs: [], rigidBodyCount: 0, jointCount: 0, rigidBodies: [], joints: [], softBodies: [], physicsError: null,
  };
}

function axisAngle(axis: number[], deg: number): number[] {
  const l = Math.hypot(axis[0], axis[1], axis[2]);
  const h = (deg * Math.PI) / 360;
  return [(axis[0] / l) * Math.sin(h), (axis[1] / l) * Math.sin(h), (axis[2] / l) * Math.sin(h), Math.cos(h)];
}

/** World transform of bone `name` at frame f: the model's rest offsets and the motion's local keys, parents first (no IK, no append). */
function world(m: ModelData, doc: VmdDocument, name: string, f: number): { pos: number[]; rot: number[] } {
  const tracks = buildTracks(doc).bones;
  const chain: number[] = [];
  for (let i = m.bones.findIndex((b) => b.name === name); i >= 0; i = m.bones[i].parent) chain.unshift(i);
  let pos = [0, 0, 0], rot = [0, 0, 0, 1], parentRest = [0, 0, 0];
  for (const i of chain) {
    const b = m.bones[i];
    const t = tracks.index.get(b.name);
    const lp = [0, 0, 0], lr = [0, 0, 0, 1];
    if (t !== undefined) sampleBoneInto(tracks, t, f, lp, lr, 0);
    const off = [0, 1, 2].map((c) => b.position[c] - parentRest[c] + lp[c]);
    const r = rotate(rot, off);
    pos = [0, 1, 2].map((c) => pos[c] + r[c]);
    rot = qmul(rot, lr);
    parentRest = [...b.position];
  }
  return { pos, rot };
}

function angleDeg(a: number[], b: number[]): number {
  const d = Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]) / (Math.hypot(...a) * Math.hypot(...b));
  return (2 * Math.acos(Math.min(1, d)) * 180) / Math.PI;
}

/** Writes and reads back a document, as a file on disk would be. */
const roundTrip = (d: VmdDocument) => {
  const r = readVmd(writeVmd(d));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

describe('folding the twist bones', () => {
  // The arm runs along (2, −1, 0): 腕 at (2, 14), ひじ at (6, 12), 手首 at (10, 10); the twist bones lie on it.
  const armAxis = [2, -1, 0];
  const source = model('source', [
    ['センター', [0, 8, 0], null, { flags: MOVE }],
    ['上半身', [0, 10, 0], 'センター'],
    ['左肩', [1, 14.5, 0], '上半身'],
    ['左腕', [2, 14, 0], '左肩'],
    ['左腕捩', [4, 13, 0], '左腕', { fixedAxis: [2 / Math.sqrt(5), -1 / Math.sqrt(5), 0], flags: ROT | BONE_FLAG.FIXED_AXIS }],
    ['左ひじ', [6, 12, 0], '左腕捩'],
    ['左手捩', [8, 11, 0], '左ひじ', { fixedAxis: [2 / Math.sqrt(5), -1 / Math.sqrt(5), 0], flags: ROT | BONE_FLAG.FIXED_AXIS }],
    ['左手首', [10, 10, 0], '左手捩'],
    ['左中指１', [11, 9.5, 0], '左手首'],
  ]);
  const target = model('target', [
    ['センター', [0, 8, 0], null, { flags: MOVE }],
    ['上半身', [0, 10, 0], 'センター'],
    ['左肩', [1, 14.5, 0], '上半身'],
    ['左腕', [2, 14, 0], '左肩'],
    ['左ひじ', [6, 12, 0], '左腕'],
    ['左手首', [10, 10, 0], '左ひじ'],
    ['左中指１', [11, 9.5, 0], '左手首'],
  ]);
  const key = (name: string, frame: number, rotation: number[]) => ({ name, frame, position: [0, 0, 0], rotation });
  const motion = buildVmd({
    model: 'source',
    bones: [
      key('上半身', 0, axisAngle([1, 0, 0], 10)), key('上半身', 30, axisAngle([0, 1, 0], -15)),
      key('左腕', 0, axisAngle([0, 0, 1], -20)), key('左腕', 30, axisAngle([1, 0.3, 0.2], 35)),
      key('左腕捩', 0, axisAngle(armAxis, 40)), key('左腕捩', 15, axisAngle(armAxis, -25)), key('左腕捩', 30, axisAngle(armAxis, 70)),
      key('左ひじ', 0, axisAngle([0, 1, 0], 30)), key('左ひじ', 30, axisAngle([0, 1, 0.1], 80)),
      key('左手捩', 0, axisAngle(armAxis, -30)), key('左手捩', 30, axisAngle(armAxis, 55)),
      key('左手首', 0, axisAngle([0, 0, 1], 10)), key('左手首', 30, axisAngle([1, 0, 1], -25)),
      key('左中指１', 0, axisAngle([0, 0, 1], 20)), key('左中指１', 30, axisAngle([0, 0, 1], 60)),
    ],
  });

  const r = retarget(motion, source, target);
  if (!r.ok) throw new Error(r.error.message);
  const out = roundTrip(r.value.doc);

  it('keeps the hand world rotation (and position) to 1e-6 where the keys are, and within the tolerance everywhere', () => {
    for (const f of [0, 30]) {
      const a = world(source, motion, '左手首', f), b = world(target, out, '左手首', f);
      expect(angleDeg(a.rot, b.rot) * (Math.PI / 180), `frame ${f}`).toBeLessThan(1e-6);
      // The twist axes lie on the arm line: turning about them from another point of the line moves nothing.
      for (let c = 0; c < 3; c++) expect(Math.abs(a.pos[c] - b.pos[c]), `frame ${f} axis ${c}`).toBeLessThan(1e-5);
      // The twist went to the parent: the target's 腕 turns as the source's 腕捩 does, its ひじ as 手捩.
      expect(angleDeg(world(source, motion, '左腕捩', f).rot, world(target, out, '左腕', f).rot) * (Math.PI / 180)).toBeLessThan(1e-6);
      expect(angleDeg(world(source, motion, '左手捩', f).rot, world(target, out, '左ひじ', f).rot) * (Math.PI / 180)).toBeLessThan(1e-6);
    }
    let worst = 0;
    for (let f = 0; f <= 30; f += 0.5) worst = Math.max(worst, angleDeg(world(source, motion, '左手首', f).rot, world(target, out, '左手首', f).rot));
    // Two re-fitted tracks on the way (腕, ひじ), each within 0.1°.
    expect(worst).toBeLessThan(0.2);
    expect(worst).toBeGreaterThan(0); // re-fitted, not copied: the rotation curves changed
  });

  it('reports the folds; the hand, the finger and the body keep their records byte for byte', () => {
    expect(r.value.details.folded.map((x) => [x.bone, x.into])).toEqual([
      ['左腕捩', ['左腕']],
      ['左手捩', ['左ひじ']],
    ]);
    // 手首 keeps its keys: its parent ひじ now carries 手捩, so its local rotation is the source's.
    expect(r.value.details.refitted.map((x) => x.bone).sort()).toEqual(['左ひじ', '左腕'].sort());
    expect(r.value.details.unmatched).toEqual([]);
    const copiedBytes = (doc: VmdDocument, name: string) => {
      const t = buildTracks(doc).bones;
      const k = t.index.get(name)!;
      const out: number[] = [];
      for (let i = t.start[k]; i < t.start[k + 1]; i++) out.push(...doc.bone.bytes.subarray(t.record[i] * 111, t.record[i] * 111 + 111));
      return out;
    };
    for (const n of ['上半身', '左手首', '左中指１']) expect(copiedBytes(out, n)).toEqual(copiedBytes(motion, n));
  });
});

describe('leg-length scaling', () => {
  // Two legged figures; the target's legs (and everything) are 1.5 times as long. The target has no
  // 全ての親: the source's walk moves it, so it folds into センター and the IK bone.
  const legs = (k: number, root: boolean) => {
    const spec: [string, [number, number, number], string | null, Partial<ModelBone>?][] = [];
    if (root) spec.push(['全ての親', [0, 0, 0], null, { flags: MOVE }]);
    const top = root ? '全ての親' : null;
    spec.push(
      ['センター', [0, 8 * k, 0], top, { flags: MOVE }],
      ['下半身', [0, 10 * k, 0], 'センター'],
      ['左足', [1 * k, 10 * k, 0], '下半身'],
      ['左ひざ', [1 * k, 5.5 * k, -0.2 * k], '左足'],
      ['左足首', [1 * k, 1 * k, 0], '左ひざ'],
      ['左足ＩＫ', [1 * k, 1 * k, 0], top, { flags: MOVE | BONE_FLAG.IK }],
    );
    const m = model(root ? 'walker' : 'tall', spec);
    const ix = (n: string) => m.bones.findIndex((b) => b.name === n);
    m.bones[ix('左足ＩＫ')].ik = {
      target: ix('左足首'), loopCount: 40, limitAngle: 2,
      links: [{ bone: ix('左ひざ'), limits: { min: [-Math.PI, 0, 0], max: [-0.01, 0, 0] } }, { bone: ix('左足'), limits: null }],
    };
    return m;
  };
  const source = legs(1, true), target = legs(1.5, false);
  // Frames 0–30: the body walks forward 3 units with 全ての親 while the foot stays down (its IK bone
  // goes back by as much, under 全ての親); 30–60 the foot steps forward 4 units.
  const k = (name: string, frame: number, position: number[]) => ({ name, frame, position, rotation: [0, 0, 0, 1] });
  const motion = buildVmd({
    model: 'walker',
    bones: [
      k('全ての親', 0, [0, 0, 0]), k('全ての親', 30, [0, 0, -3]), k('全ての親', 60, [0, 0, -3]),
      k('センター', 0, [0, -1, 0]), k('センター', 15, [0, -1.4, 0]), k('センター', 30, [0, -1, 0]), k('センター', 60, [0, -1, -1]),
      k('左足ＩＫ', 0, [0, 0, 0]), k('左足ＩＫ', 30, [0, 0, 3]), k('左足ＩＫ', 45, [0, 1, -0.5]), k('左足ＩＫ', 60, [0, 0, -1]),
    ],
  });
  const r = retarget(motion, source, target);
  if (!r.ok) throw new Error(r.error.message);
  const out = roundTrip(r.value.doc);

  it('keeps a planted foot still in world X/Z on the target (the IK goal, and the ankle the IK puts there)', () => {
    expect(r.value.details.legRatio).toBeCloseTo(1.5, 12);
    expect(r.value.details.folded.map((x) => x.bone)).toEqual(['全ての親']);
    const sk = buildSkeleton(target.bones);
    const poser = new MotionPoser(sk, out, buildTracks(out));
    const pose = new Pose(sk);
    const ankle = target.bones.findIndex((b) => b.name === '左足首');
    const goal0 = world(target, out, '左足ＩＫ', 0).pos;
    poser.poseAt(pose, 0);
    const ankle0 = [pose.worldPosition[3 * ankle], pose.worldPosition[3 * ankle + 2]];
    for (let f = 0; f <= 30; f += 0.5) {
      const g = world(target, out, '左足ＩＫ', f).pos;
      expect(Math.abs(g[0] - goal0[0]), `goal x at ${f}`).toBeLessThan(0.011);
      expect(Math.abs(g[2] - goal0[2]), `goal z at ${f}`).toBeLessThan(0.011);
      poser.poseAt(pose, f);
      expect(Math.abs(pose.worldPosition[3 * ankle] - ankle0[0]), `ankle x at ${f}`).toBeLessThan(0.02);
      expect(Math.abs(pose.worldPosition[3 * ankle + 2] - ankle0[1]), `ankle z at ${f}`).toBeLessThan(0.02);
    }
  });

  it('scales the body travel and the step by the leg-length ratio (world displacements from rest)', () => {
    for (const f of [0, 15, 30, 45, 60]) {
      for (const n of ['センター', '左足ＩＫ']) {
        const s = world(source, motion, n, f).pos, t = world(target, out, n, f).pos;
        const rs = source.bones.find((b) => b.name === n)!.position, rt = target.bones.find((b) => b.name === n)!.position;
        for (let c = 0; c < 3; c++) expect(Math.abs(t[c] - rt[c] - 1.5 * (s[c] - rs[c])), `${n} axis ${c} at ${f}`).toBeLessThan(0.011);
      }
    }
  });

  it('without scaling the translations carry over as they are', () => {
    const plain = retarget(motion, source, target, { scale: false });
    if (!plain.ok) throw new Error(plain.error.message);
    expect(plain.value.details.legRatio).toBe(1);
    const s = world(source, motion, '左足ＩＫ', 60).pos, t = world(target, plain.value.doc, '左足ＩＫ', 60).pos;
    expect(t[2] - 0).toBeCloseTo(s[2] - 0, 2);
  });
});

describe('every semi-standard fold keeps the world rotation of the target’s bones', () => {
  // A semi-standard source (全ての親, グルーブ, 腰, 上半身2, 腰キャンセル, D bones, 足先EX, 親指０) onto a
  // standard target that has none of them. World rotations are those the shared skeleton evaluator gives
  // each model for its motion (FK, IK off; the D bones and 腰キャンセル follow by append).
  const APPEND = ROT | BONE_FLAG.APPEND_ROTATE;
  const source = model('semi', [
    ['全ての親', [0, 0, 0], null, { flags: MOVE }],
    ['センター', [0, 8, 0], '全ての親', { flags: MOVE }],
    ['グルーブ', [0, 8.2, 0], 'センター', { flags: MOVE }],
    ['腰', [0, 9.5, 0.3], 'グルーブ'],
    ['上半身', [0, 10, 0], '腰'],
    ['上半身2', [0, 11.5, 0], '上半身'],
    ['首', [0, 14, 0], '上半身2'],
    ['左肩', [1, 14, 0], '上半身2'],
    ['左腕', [2, 13.8, 0], '左肩'],
    ['左ひじ', [5, 13.8, 0], '左腕'],
    ['左手首', [8, 13.8, 0], '左ひじ'],
    ['左親指０', [8.3, 13.6, -0.3], '左手首'],
    ['左親指１', [8.7, 13.5, -0.6], '左親指０'],
    ['左親指２', [9.1, 13.4, -0.8], '左親指１'],
    ['下半身', [0, 9.8, 0], '腰'],
    ['腰キャンセル左', [1, 9.4, 0], '下半身', { flags: APPEND }],
    ['左足', [1, 9.4, 0], '腰キャンセル左'],
    ['左ひざ', [1, 5, -0.2], '左足'],
    ['左足首', [1, 1, 0], '左ひざ'],
    ['左足D', [1, 9.4, 0], '腰キャンセル左', { flags: APPEND }],
    ['左ひざD', [1, 5, -0.2], '左足D', { flags: APPEND }],
    ['左足首D', [1, 1, 0], '左ひざD', { flags: APPEND }],
    ['左足先EX', [1, 0.3, -1], '左足首D'],
  ]);
  const ix = (n: string) => source.bones.findIndex((b) => b.name === n);
  const appendFrom = (b: string, from: string, ratio: number) => Object.assign(source.bones[ix(b)], { appendParent: ix(from), appendRatio: ratio });
  appendFrom('腰キャンセル左', '腰', -1);
  appendFrom('左足D', '左足', 1);
  appendFrom('左ひざD', '左ひざ', 1);
  appendFrom('左足首D', '左足首', 1);
  const target = model('standard', [
    ['センター', [0, 8, 0], null, { flags: MOVE }],
    ['上半身', [0, 10, 0], 'センター'],
    ['首', [0, 14, 0], '上半身'],
    ['左肩', [1, 14, 0], '上半身'],
    ['左腕', [2, 13.8, 0], '左肩'],
    ['左ひじ', [5, 13.8, 0], '左腕'],
    ['左手首', [8, 13.8, 0], '左ひじ'],
    ['左親指１', [8.7, 13.5, -0.6], '左手首'],
    ['左親指２', [9.1, 13.4, -0.8], '左親指１'],
    ['下半身', [0, 9.8, 0], 'センター'],
    ['左足', [1, 9.4, 0], '下半身'],
    ['左ひざ', [1, 5, -0.2], '左足'],
    ['左足首', [1, 1, 0], '左ひざ'],
    ['左つま先', [1, 0.3, -1], '左足首'],
  ]);
  const keys: { name: string; frame: number; position: number[]; rotation: number[] }[] = [];
  const axes = [[1, 0.2, 0], [0.1, 1, 0.3], [0.3, 0.1, 1], [1, 1, 0], [0, 1, 1]];
  source.bones.forEach((b, i) => {
    if (b.appendParent >= 0 && !b.name.endsWith('D')) return; // 腰キャンセル follows 腰 alone
    for (const [frame, deg] of [[0, 12], [20, -25], [40, 18]]) {
      const moves = b.flags & BONE_FLAG.TRANSLATABLE ? [0.3 * Math.sin(frame + i), 0.2 * Math.cos(frame), 0.1 * i] : [0, 0, 0];
      keys.push({ name: b.name, frame, position: moves, rotation: axisAngle(axes[i % axes.length], deg * (1 + (i % 3) / 3)) });
    }
  });
  const motion = roundTrip(buildVmd({ model: 'semi', bones: keys }));
  const r = retarget(motion, source, target, { scale: false });
  if (!r.ok) throw new Error(r.error.message);
  const out = roundTrip(r.value.doc);

  it('reports each source bone the target lacks as folded into the bones that carry it', () => {
    const folded = new Map(r.value.details.folded.map((x) => [x.bone, x.into]));
    expect(folded.get('グルーブ')).toContain('センター');
    expect(folded.get('全ての親')).toContain('センター');
    expect(folded.get('上半身2')).toEqual(['上半身']);
    expect(folded.get('左足D')).toEqual(['左足']);
    expect(folded.get('左ひざD')).toEqual(['左ひざ']);
    expect(folded.get('左足首D')).toEqual(['左足首']);
    // The target's つま先 has no source bone of its name: it takes 足先EX, whose keys then play as they are.
    expect(r.value.details.copied.find((c) => c.bone === '左足先EX')?.as).toBe('左つま先');
    expect(folded.get('左親指０')).toEqual(['左親指１']);
    expect(folded.get('腰')).toEqual(expect.arrayContaining(['上半身', '下半身']));
    expect(r.value.details.unmatched).toEqual([]);
  });

  it('world rotations match bone for bone at every frame (exact at the keys, within 0.1° per re-fitted bone between)', () => {
    // Target bone → the source bone it shows.
    const pairs: [string, string][] = [
      ['センター', 'グルーブ'], ['上半身', '上半身2'], ['首', '首'], ['左肩', '左肩'], ['左腕', '左腕'], ['左手首', '左手首'],
      ['左親指１', '左親指１'], ['左親指２', '左親指２'], ['下半身', '下半身'], ['左足', '左足D'], ['左ひざ', '左ひざD'],
      ['左足首', '左足首D'], ['左つま先', '左足先EX'],
    ];
    const ss = buildSkeleton(source.bones), ts = buildSkeleton(target.bones);
    const sp = new Pose(ss), tp = new Pose(ts);
    const sPoser = new MotionPoser(ss, motion, buildTracks(motion)), tPoser = new MotionPoser(ts, out, buildTracks(out));
    const refitted = new Set(r.value.details.refitted.map((x) => x.bone));
    const q = (p: Pose, i: number) => Array.from(p.worldRotation.subarray(4 * i, 4 * i + 4));
    for (let f = 0; f <= 40; f++) {
      sPoser.apply(sp, f);
      sp.evaluate('all', () => false);
      tPoser.apply(tp, f);
      tp.evaluate('all', () => false);
      for (const [tn, sn] of pairs) {
        const ti = target.bones.findIndex((b) => b.name === tn), si = ix(sn);
        let bound = 1e-4;
        if (f % 20 !== 0) for (let i = ti; i >= 0; i = target.bones[i].parent) if (refitted.has(target.bones[i].name)) bound += 0.1;
        expect(angleDeg(q(sp, si), q(tp, ti)), `${tn} ← ${sn} at ${f}`).toBeLessThan(bound);
      }
    }
  });
});

describe('a target with an append bone above the bones it computes', () => {
  // The target has 腰キャンセル (turning back what 腰 turns, by append) between 下半身 and 足; the source has
  // none, so its legs turn with 腰. The target's 足 must still show the source's leg.
  const source = model('no-cancel', [
    ['センター', [0, 8, 0], null, { flags: MOVE }],
    ['腰', [0, 9.5, 0.3], 'センター'],
    ['下半身', [0, 9.8, 0], '腰'],
    ['左足', [1, 9.4, 0], '下半身'],
    ['左ひざ', [1, 5, -0.2], '左足'],
    ['左足首', [1, 1, 0], '左ひざ'],
  ]);
  const target = model('cancel', [
    ['センター', [0, 8, 0], null, { flags: MOVE }],
    ['腰', [0, 9.5, 0.3], 'センター'],
    ['下半身', [0, 9.8, 0], '腰'],
    ['腰キャンセル左', [1, 9.4, 0], '下半身', { flags: ROT | BONE_FLAG.APPEND_ROTATE }],
    ['左足', [1, 9.4, 0], '腰キャンセル左'],
    ['左ひざ', [1, 5, -0.2], '左足'],
    ['左足首', [1, 1, 0], '左ひざ'],
  ]);
  Object.assign(target.bones[3], { appendParent: 1, appendRatio: -1 });
  const key = (name: string, frame: number, rotation: number[]) => ({ name, frame, position: [0, 0, 0], rotation });
  const motion = roundTrip(buildVmd({
    model: 'no-cancel',
    bones: [
      key('腰', 0, axisAngle([1, 0, 0.3], 20)), key('腰', 30, axisAngle([0.2, 1, 0], -30)),
      key('下半身', 0, axisAngle([0, 1, 0], 10)), key('下半身', 30, axisAngle([1, 0, 0], 15)),
      key('左足', 0, axisAngle([1, 0, 0], -30)), key('左足', 30, axisAngle([1, 0.2, 0], 25)),
      key('左ひざ', 0, axisAngle([1, 0, 0], 40)), key('左ひざ', 30, axisAngle([1, 0, 0], 10)),
    ],
  }));
  const r = retarget(motion, source, target);
  if (!r.ok) throw new Error(r.error.message);
  const out = roundTrip(r.value.doc);

  it('keeps the legs’ world rotations (the target posed with its append, by the shared skeleton)', () => {
    const ss = buildSkeleton(source.bones), ts = buildSkeleton(target.bones);
    const sp = new Pose(ss), tp = new Pose(ts);
    const sPoser = new MotionPoser(ss, motion, buildTracks(motion)), tPoser = new MotionPoser(ts, out, buildTracks(out));
    for (const f of [0, 30]) {
      sPoser.apply(sp, f);
      sp.evaluate('all', () => false);
      tPoser.apply(tp, f);
      tp.evaluate('all', () => false);
      for (const n of ['下半身', '左足', '左ひざ', '左足首']) {
        const si = source.bones.findIndex((b) => b.name === n), ti = target.bones.findIndex((b) => b.name === n);
        const a = Array.from(sp.worldRotation.subarray(4 * si, 4 * si + 4)), b = Array.from(tp.worldRotation.subarray(4 * ti, 4 * ti + 4));
        expect(angleDeg(a, b), `${n} at ${f}`).toBeLessThan(1e-4);
      }
    }
  });
});

describe('morphs, IK keys and the model name', () => {
  const ik = (name: string, extra: Partial<ModelBone> = {}): [string, [number, number, number], string | null, Partial<ModelBone>?] => [name, [1, 1, 0], null, { flags: MOVE | BONE_FLAG.IK, ...extra }];
  const source = model('源', [['センター', [0, 8, 0], null, { flags: MOVE }], ik('左足ＩＫ'), ik('ﾈｸﾀｲＩＫ')]);
  const target = model('目標モデル', [['センター', [0, 8, 0], null, { flags: MOVE }], ik('左足IK')]);
  const morph = (name: string) => ({ name, nameEn: '', panel: 4, kind: 'vertex' as const, count: 0, vertex: null, group: null, bone: null, uv: null, material: null });
  target.morphs = [morph('ウィンク'), morph('あ')];
  const base = buildVmd({
    model: '源',
    bones: [{ name: 'センター', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] }],
    morphs: [
      { name: 'ｳｨﾝｸ', frame: 0, weight: 0 }, { name: 'ｳｨﾝｸ', frame: 10, weight: 1 },
      { name: 'あ', frame: 5, weight: 0.5 },
      { name: 'はぅ', frame: 0, weight: 1 }, { name: 'はぅ', frame: 3, weight: 0 }, { name: 'はぅ', frame: 9, weight: 1 },
    ],
  });
  const motion = roundTrip(withBlocks(base, { ik: ikBlockFromRecords([encodeIkRecord({ frame: 0, visible: 1, iks: [{ name: '左足ＩＫ', enabled: 0 }, { name: 'ﾈｸﾀｲＩＫ', enabled: 1 }] })]) }));
  const r = retarget(motion, source, target);
  if (!r.ok) throw new Error(r.error.message);
  const out = roundTrip(r.value.doc);

  it('matches morphs by name across widths, reports the rest with their keys, renames IK keys and drops IK bones the target lacks', () => {
    const m = buildTracks(out).morphs;
    expect([...m.names].sort()).toEqual(['あ', 'ウィンク']);
    expect(m.start[m.index.get('ウィンク')! + 1] - m.start[m.index.get('ウィンク')!]).toBe(2);
    expect(r.value.details.unmatchedMorphs).toEqual([{ morph: 'はぅ', keys: 3 }]);
    expect(r.value.report.warnings.join('\n')).toMatch(/はぅ \(3\)/);
    const k = ikKey(out.ik, 0);
    expect(k.iks).toEqual([{ name: '左足IK', enabled: 0 }]);
    expect(decodeName(out.modelName)).toBe('目標モデル');
  });
});

describe('A-pose against T-pose', () => {
  // The source's arm rests 35° below horizontal, the target's level (T-pose); same lengths.
  const down = (35 * Math.PI) / 180;
  const arm = (deg: number): [number, number, number][] => {
    const a = (deg * Math.PI) / 180;
    const at = (d: number): [number, number, number] => [2 + d * Math.cos(a), 14 - d * Math.sin(a), 0];
    return [at(0), at(3), at(6), at(7)];
  };
  const figure = (name: string, deg: number) => {
    const [s, e, w, f] = arm(deg);
    return model(name, [
      ['センター', [0, 8, 0], null, { flags: MOVE }],
      ['上半身', [0, 10, 0], 'センター'],
      ['左肩', [1, 14, 0], '上半身'],
      ['左腕', s, '左肩'],
      ['左ひじ', e, '左腕'],
      ['左手首', w, '左ひじ'],
      ['左中指１', f, '左手首'],
    ]);
  };
  const source = figure('A', 35), target = figure('T', 0);
  const key = (name: string, frame: number, rotation: number[]) => ({ name, frame, position: [0, 0, 0], rotation });
  const motion = roundTrip(buildVmd({
    model: 'A',
    bones: [
      key('上半身', 0, [0, 0, 0, 1]), key('上半身', 30, axisAngle([0, 1, 0], 20)),
      key('左腕', 0, [0, 0, 0, 1]), key('左腕', 30, axisAngle([0.3, 0.2, 1], 50)),
      key('左ひじ', 0, axisAngle([0, 1, 0], 20)), key('左ひじ', 30, axisAngle([0, 1, 0], 70)),
      key('左手首', 0, [0, 0, 0, 1]), key('左手首', 30, axisAngle([1, 0, 0], 30)),
    ],
  }));
  const r = retarget(motion, source, target);
  if (!r.ok) throw new Error(r.error.message);
  const out = roundTrip(r.value.doc);

  it('turns the arm so that every arm bone points where the source’s pointed (rest included)', () => {
    expect(r.value.details.armCompensationDeg.left).toBeCloseTo((down * 180) / Math.PI, 6);
    const dir = (m: ModelData, doc: VmdDocument, a: string, b: string, f: number) => {
      const p = world(m, doc, a, f).pos, q = world(m, doc, b, f).pos;
      const d = [q[0] - p[0], q[1] - p[1], q[2] - p[2]];
      const l = Math.hypot(d[0], d[1], d[2]);
      return d.map((x) => x / l);
    };
    for (const f of [0, 30]) {
      for (const [a, b] of [['左腕', '左ひじ'], ['左ひじ', '左手首'], ['左手首', '左中指１']]) {
        const s = dir(source, motion, a, b, f), t = dir(target, out, a, b, f);
        for (let c = 0; c < 3; c++) expect(Math.abs(s[c] - t[c]), `${a}→${b} at ${f}`).toBeLessThan(1e-6);
      }
    }
  });
});

describe('physics on/off keys of a re-fitted track', () => {
  // The A-pose arm again (re-fitted on the T-pose target): its 左腕 keys turn physics off until frame 20.
  const figure = (name: string, deg: number) => {
    const a = (deg * Math.PI) / 180;
    const at = (d: number): [number, number, number] => [2 + d * Math.cos(a), 14 - d * Math.sin(a), 0];
    return model(name, [
      ['上半身', [0, 10, 0], null],
      ['左肩', [1, 14, 0], '上半身'],
      ['左腕', at(0), '左肩'],
      ['左ひじ', at(3), '左腕'],
    ]);
  };
  const source = figure('A', 30), target = figure('T', 0);
  const off = (ip: Uint8Array) => (setPhysicsOff(ip, true), ip);
  const motion = roundTrip(buildVmd({
    model: 'A',
    bones: [
      { name: '左腕', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1], interpolation: off(defaultBoneInterpolation()) },
      { name: '左腕', frame: 10, position: [0, 0, 0], rotation: axisAngle([0, 0, 1], 40), interpolation: off(defaultBoneInterpolation()) },
      { name: '左腕', frame: 20, position: [0, 0, 0], rotation: axisAngle([0, 1, 0], 30) },
      { name: '左腕', frame: 40, position: [0, 0, 0], rotation: axisAngle([1, 0, 0], -20) },
    ],
  }));
  it('keeps the state in force at each written key, with a key where it changes', () => {
    const r = retarget(motion, source, target);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.details.refitted.map((x) => x.bone)).toEqual(['左腕']);
    const out = roundTrip(r.value.doc);
    const t = buildTracks(out).bones;
    const k = t.index.get('左腕')!;
    const frames: number[] = [];
    for (let i = t.start[k]; i < t.start[k + 1]; i++) {
      const o = t.record[i] * 111 + 47;
      frames.push(t.frames[i]);
      expect(physicsOff(out.bone.bytes.subarray(o, o + 64)), `key at ${t.frames[i]}`).toBe(t.frames[i] < 20);
    }
    expect(frames).toContain(20);
  });
});
