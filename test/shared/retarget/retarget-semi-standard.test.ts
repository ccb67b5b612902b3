/**
 * A motion made for the standard skeleton (retarget without a source model) that keys semi-standard bones:
 * 足D, 肩P, 腰キャンセル and 足IK親 turn what MMD's standard model (which has them) shows, so they fold into
 * the target's bones instead of being left out. The truth is the motion played, by the shared skeleton
 * evaluator, on a model that has those bones, built here as MMD's semi-standard bones are laid out (D bones
 * adding onto their base by append, 肩C and 腰キャンセル cancelling by append −1, 足IK親 above 足ＩＫ); never
 * the retargeter's numbers.
 */
import { describe, expect, it } from 'vitest';
import { BONE_FLAG, readModel, type ModelBone, type ModelData } from '../../../shared/pmx';
import { retarget } from '../../../shared/retarget';
import { buildSkeleton, MotionPoser, Pose } from '../../../shared/skeleton';
import { standardFigureModel } from '../../../shared/skeleton/standard-figure';
import { buildTracks, buildVmd, readVmd, writeVmd, type VmdDocument } from '../../../shared/vmd';
import { corpusPresent, readCorpus } from '../../helpers/corpus';

const reread = (d: VmdDocument): VmdDocument => {
  const r = readVmd(writeVmd(d));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
const axisAngle = (axis: number[], deg: number): [number, number, number, number] => {
  const l = Math.hypot(axis[0], axis[1], axis[2]), h = (deg * Math.PI) / 360;
  return [(axis[0] / l) * Math.sin(h), (axis[1] / l) * Math.sin(h), (axis[2] / l) * Math.sin(h), Math.cos(h)];
};

/** The standard figure with MMD's semi-standard bones for the left side, laid out by hand. */
function semiStandardFigure(): ModelData {
  const m = standardFigureModel();
  const bones: ModelBone[] = m.bones.map((b) => ({ ...b }));
  const ix = (n: string) => bones.findIndex((b) => b.name === n);
  const ROT = BONE_FLAG.ROTATABLE | BONE_FLAG.VISIBLE | BONE_FLAG.ENABLED;
  const add = (name: string, parent: string, like: string, extra: Partial<ModelBone> = {}) => {
    bones.push({ ...bones[ix(like)], name, parent: ix(parent), flags: ROT, appendParent: -1, appendRatio: 0, ik: null, ...extra });
    return bones.length - 1;
  };
  const app = (from: string, ratio: number) => ({ flags: ROT | BONE_FLAG.APPEND_ROTATE, appendParent: ix(from), appendRatio: ratio });
  add('左肩P', '上半身2', '左肩');
  bones[ix('左肩')].parent = ix('左肩P');
  add('左肩C', '左肩', '左腕', app('左肩P', -1));
  bones[ix('左腕')].parent = ix('左肩C');
  add('腰キャンセル左', '下半身', '左足', app('腰', -1));
  bones[ix('左足')].parent = ix('腰キャンセル左');
  add('左足D', '腰キャンセル左', '左足', app('左足', 1));
  add('左ひざD', '左足D', '左ひざ', app('左ひざ', 1));
  add('左足首D', '左ひざD', '左足首', app('左足首', 1));
  const ik = bones[ix('左足ＩＫ')].position;
  const p = add('左足IK親', '全ての親', '左足ＩＫ', { flags: ROT | BONE_FLAG.TRANSLATABLE });
  bones[p].position = [ik[0], 0, ik[2]];
  bones[ix('左足ＩＫ')].parent = p;
  return { ...m, nameEn: 'semi-standard figure (test)', bones };
}

/** World positions of `names` on `m` playing `doc` at frame f (FK, IK off). */
function worldAt(m: ModelData, doc: VmdDocument, f: number, names: string[]): number[][] {
  const sk = buildSkeleton(m.bones);
  const pose = new Pose(sk);
  new MotionPoser(sk, doc, buildTracks(doc)).apply(pose, f);
  pose.evaluate('all', () => false);
  return names.map((n) => {
    const i = m.bones.findIndex((b) => b.name === n);
    if (i < 0) throw new Error(`no bone ${n}`);
    return Array.from(pose.worldPosition.subarray(3 * i, 3 * i + 3));
  });
}

const rest = { position: [0, 0, 0] as [number, number, number], rotation: [0, 0, 0, 1] as [number, number, number, number] };
const motion = reread(
  buildVmd({
    bones: [
      ...['腰', '左足D', '左肩P', '腰キャンセル左', '左足IK親', '左足', '左ひざ'].map((name) => ({ name, frame: 0, ...rest })),
      { name: '腰', frame: 15, position: [0, 0, 0], rotation: axisAngle([0, 1, 0.3], 25) },
      { name: '左足', frame: 15, position: [0, 0, 0], rotation: axisAngle([1, 0, 0.2], -20) },
      { name: '左ひざ', frame: 15, position: [0, 0, 0], rotation: axisAngle([1, 0, 0], 30) },
      { name: '左足D', frame: 15, position: [0, 0, 0], rotation: axisAngle([1, 0, 0], 57) },
      { name: '左肩P', frame: 15, position: [0, 0, 0], rotation: axisAngle([0, 0, 1], 30) },
      { name: '腰キャンセル左', frame: 15, position: [0, 0, 0], rotation: axisAngle([0, 0, 1], 10) },
      { name: '左足IK親', frame: 15, position: [0, 2, 0], rotation: [0, 0, 0, 1] },
    ],
  }),
);
/** Target bone → the bone of the semi-standard model that shows it (the mesh follows the D bones there). */
const FEET_HANDS: [string, string][] = [['左ひざ', '左ひざD'], ['左足首', '左足首D'], ['左ひじ', '左ひじ'], ['左手首', '左手首'], ['左足ＩＫ', '左足ＩＫ']];
const T_NAMES = FEET_HANDS.map((p) => p[0]), S_NAMES = FEET_HANDS.map((p) => p[1]);

describe('semi-standard keys of a motion made for the standard skeleton', () => {
  const r = retarget(motion, standardFigureModel(), standardFigureModel(), { scale: false });
  if (!r.ok) throw new Error(r.error.message);
  const out = reread(r.value.doc);

  it('fold into the target’s bones: nothing left out, each reported folded', () => {
    expect(r.value.details.unmatched).toEqual([]);
    const folded = new Map(r.value.details.folded.map((x) => [x.bone, x.into]));
    expect(folded.get('左足D') ?? []).toContain('左足');
    expect(folded.get('左肩P') ?? []).toContain('左肩');
    expect(folded.get('腰キャンセル左') ?? []).toContain('左足');
    expect(folded.get('左足IK親') ?? []).toContain('左足ＩＫ');
  });

  it('feet, hands and the leg-IK goal land where a model with those bones puts them (1e-3 at the keys; between them the re-fit’s 0.1° per bone)', () => {
    const truth = semiStandardFigure(), target = standardFigureModel();
    // The keys move them: a test of the semi-standard keys, not of a resting figure.
    const moved = worldAt(truth, motion, 15, S_NAMES), still = worldAt(target, motion, 15, T_NAMES);
    expect(Math.max(...moved.map((p, k) => Math.hypot(p[0] - still[k][0], p[1] - still[k][1], p[2] - still[k][2])))).toBeGreaterThan(1);
    for (let f = 0; f <= 15; f++) {
      const want = worldAt(truth, motion, f, S_NAMES), got = worldAt(target, out, f, T_NAMES);
      const bound = f === 0 || f === 15 ? 1e-3 : 0.05;
      T_NAMES.forEach((n, k) => expect(Math.hypot(want[k][0] - got[k][0], want[k][1] - got[k][1], want[k][2] - got[k][2]), `${n} at ${f}`).toBeLessThan(bound));
    }
  });
});

describe.skipIf(!corpusPresent)('onto Gene_light (which has 足IK親 but no D bones, 肩P or 腰キャンセル)', () => {
  const gene = (() => {
    const m = readModel(readCorpus('gene/Gene_light.pmx'));
    if (!m.ok) throw new Error(m.error.message);
    return m.value;
  })();
  it('nothing is left out and the raised 足IK親 raises Gene’s foot IK goal', () => {
    const r = retarget(motion, standardFigureModel(), gene);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.details.unmatched.map((u) => u.bone)).toEqual([]);
    const out = reread(r.value.doc);
    const [a] = worldAt(gene, out, 0, ['左足ＩＫ']), [b] = worldAt(gene, out, 15, ['左足ＩＫ']);
    expect(b[1] - a[1]).toBeGreaterThan(1.5);
  });
});

describe.skipIf(!corpusPresent)('leg twist bones (Gene_light’s 足捩/ひざ捩) onto a model without them (the low-poly Miku)', () => {
  const load = (rel: string) => {
    const m = readModel(readCorpus(rel));
    if (!m.ok) throw new Error(m.error.message);
    return m.value;
  };
  const gene = load('gene/Gene_light.pmx'), miku = load('mmd-viewer-js/model/low_miku/miku.pmd');
  const twist = reread(
    buildVmd({
      bones: [
        ...['左足', '左足捩', '左ひざ', '左ひざ捩', '右足捩', '右ひざ捩'].map((name) => ({ name, frame: 0, ...rest })),
        { name: '左足', frame: 20, position: [0, 0, 0], rotation: axisAngle([1, 0, 0.2], -30) },
        { name: '左ひざ', frame: 20, position: [0, 0, 0], rotation: axisAngle([1, 0, 0], 45) },
        { name: '左足捩', frame: 20, position: [0, 0, 0], rotation: axisAngle([0, 1, 0], 40) },
        { name: '左ひざ捩', frame: 20, position: [0, 0, 0], rotation: axisAngle([0, 1, 0], -35) },
        { name: '右足捩', frame: 20, position: [0, 0, 0], rotation: axisAngle([0, 1, 0], 25) },
        { name: '右ひざ捩', frame: 20, position: [0, 0, 0], rotation: axisAngle([0, 1, 0], 30) },
      ],
    }),
  );
  const r = retarget(twist, gene, miku);
  if (!r.ok) throw new Error(r.error.message);
  const out = reread(r.value.doc);

  it('fold into 足/ひざ (reported folded, none left out)', () => {
    const folded = new Map(r.value.details.folded.map((x) => [x.bone, x.into]));
    expect(folded.get('左足捩') ?? []).toContain('左足');
    expect(folded.get('左ひざ捩') ?? []).toContain('左ひざ');
    expect(folded.get('右足捩') ?? []).toContain('右足');
    expect(folded.get('右ひざ捩') ?? []).toContain('右ひざ');
    for (const n of ['左足捩', '左ひざ捩', '右足捩', '右ひざ捩']) expect(r.value.details.unmatched.map((u) => u.bone)).not.toContain(n);
  });

  // Gene's twist bones are leaves beside the chain (左足 → 左足捩, 左ひざ): the thigh and the shin show their
  // twist, the bones below keep their own world rotations.
  it('Miku’s thigh and shin turn as Gene’s twist bones do, the ankles as Gene’s (world rotation within 0.5° at every frame)', () => {
    const rot = (m: ModelData, doc: VmdDocument, f: number, n: string) => {
      const sk = buildSkeleton(m.bones);
      const pose = new Pose(sk);
      new MotionPoser(sk, doc, buildTracks(doc)).apply(pose, f);
      pose.evaluate('all', () => false);
      const i = m.bones.findIndex((b) => b.name === n);
      return Array.from(pose.worldRotation.subarray(4 * i, 4 * i + 4));
    };
    const angle = (a: number[], b: number[]) => (2 * Math.acos(Math.min(1, Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]))) * 180) / Math.PI;
    for (let f = 0; f <= 20; f += 5) {
      for (const [m, g] of [['左足', '左足捩'], ['左ひざ', '左ひざ捩'], ['右足', '右足捩'], ['右ひざ', '右ひざ捩'], ['左足首', '左足首'], ['右足首', '右足首']]) {
        expect(angle(rot(gene, twist, f, g), rot(miku, out, f, m)), `${m} ← ${g} at ${f}`).toBeLessThan(0.5);
      }
    }
  });
});
