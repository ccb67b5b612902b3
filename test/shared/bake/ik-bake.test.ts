// IK bake (IK → FK) on corpus pairs: OUT's chain bones, by forward kinematics computed here from OUT's sampled
// keys (IK off, as OUT's IK keys say), are where the input puts them with its IK on, within the rotation tolerance
// at every frame; every other record is byte-identical; the IK-off keys are there (and back on after the range);
// a knee key edited in OUT bends the leg, where in the input the IK overrides it; refusals for nothing to bake.
import { describe, expect, it } from 'vitest';
import { ikBake } from '../../../shared/bake';
import type { ModelData } from '../../../shared/pmx';
import { matchKey } from '../../../shared/pmx/model-inspect';
import { buildTracks, decodeName, encodeIkRecord, ikBlockFromRecords, recordBytes, sampleBoneInto, withBlocks, writeVmd, encodeBoneRecord, BONE, type VmdDocument, blockFromRecords } from '../../../shared/vmd';
import { buildSkeleton, ikSwitchesOf, ikEnabledAt, MotionPoser, Pose } from '../../../shared/skeleton';
import { corpusModel, corpusMotion, corpusPresent } from '../../helpers/corpus';

const c = corpusPresent ? it : it.skip;
const GENE = 'gene/Gene_light.pmx';
const MIKU = 'mmd-viewer-js/model/low_miku/miku.pmd';
const WAVE = 'mmd-viewer-js/vmd/wavefile_v2.vmd';
const DRINK = 'mc-mmd-rust/default_anim/Drink.vmd';

// Quaternions (x, y, z, w) written here, not the skeleton's: a ⊗ b, and v rotated by q (q v q⁻¹).
type Q = [number, number, number, number];
type V = [number, number, number];
const mul = (a: Q, b: Q): Q => [
  a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
  a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
  a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
  a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
];
const rot = (q: Q, v: V): V => {
  const r = mul(mul(q, [v[0], v[1], v[2], 0]), [-q[0], -q[1], -q[2], q[3]]);
  return [r[0], r[1], r[2]];
};
const unit = (q: Q): Q => {
  const n = Math.hypot(...q);
  return q.map((x) => x / n) as Q;
};
/** Angle between two rotations in degrees. */
const angle = (a: Q, b: Q) => {
  const d = Math.abs(unit(a).reduce((s, x, i) => s + x * unit(b)[i], 0));
  return (2 * Math.asin(Math.min(1, Math.sqrt(Math.max(0, 1 - d * d)))) * 180) / Math.PI;
};

/** Bone records of `doc` as [name key, frame, bytes as hex] in file order. */
function boneRecords(doc: VmdDocument) {
  const out: { key: string; frame: number; hex: string }[] = [];
  for (let i = 0; i < doc.bone.count; i++) {
    const o = i * BONE.SIZE;
    out.push({ key: matchKey(decodeName(doc.bone.bytes, o, BONE.NAME_LENGTH)), frame: doc.bone.view.getUint32(o + BONE.FRAME, true), hex: Buffer.from(recordBytes(doc.bone, i)).toString('hex') });
  }
  return out;
}

/**
 * OUT's chain bones by forward kinematics from OUT's sampled keys (no IK: OUT switches it off), each under its
 * parent (an unbaked parent as the input poses it), against the input with its IK on: the largest rotation error,
 * and the largest position error over the bound the rotation tolerance allows it (Σ over its baked ancestors of
 * their distance to it × the tolerance): ≤ 1 when within.
 */
function fkAgainstIk(m: ModelData, input: VmdDocument, out: VmdDocument, names: string[], from: number, to: number, tolDeg: number) {
  const sk = buildSkeleton(m.bones);
  const inPoser = new MotionPoser(sk, input, buildTracks(input), m);
  const pose = new Pose(sk);
  const ot = buildTracks(out);
  const idx = names.map((n) => m.bones.findIndex((b) => b.name === n));
  const trackOf = idx.map((b) => ot.bones.names.findIndex((n) => matchKey(n) === matchKey(m.bones[b].name)));
  // Parents first.
  const order = idx.map((b, k) => k).sort((a, b) => depth(idx[a]) - depth(idx[b]));
  function depth(b: number) {
    let d = 0;
    for (let p = m.bones[b].parent; p >= 0; p = m.bones[p].parent) d++;
    return d;
  }
  let maxRot = 0, maxRatio = 0, rootPos = 0;
  const tolRad = (tolDeg * Math.PI) / 180;
  const lp = new Float64Array(3), lq = new Float64Array(4);
  for (let f = from; f <= to; f++) {
    inPoser.poseAt(pose, f);
    const W = (b: number): { p: V; q: Q } => ({ p: [pose.worldPosition[3 * b], pose.worldPosition[3 * b + 1], pose.worldPosition[3 * b + 2]], q: [pose.worldRotation[4 * b], pose.worldRotation[4 * b + 1], pose.worldRotation[4 * b + 2], pose.worldRotation[4 * b + 3]] });
    const fk = new Map<number, { p: V; q: Q }>();
    for (const k of order) {
      const b = idx[k], p = m.bones[b].parent;
      const parent = fk.get(p) ?? W(p);
      expect(trackOf[k]).toBeGreaterThanOrEqual(0);
      sampleBoneInto(ot.bones, trackOf[k], f, lp, lq, 0);
      const off: V = [0, 1, 2].map((c) => m.bones[b].position[c] - m.bones[p].position[c] + lp[c]) as V;
      const o = rot(parent.q, off);
      const w = { p: [parent.p[0] + o[0], parent.p[1] + o[1], parent.p[2] + o[2]] as V, q: mul(parent.q, [lq[0], lq[1], lq[2], lq[3]]) };
      fk.set(b, w);
      const ref = W(b);
      maxRot = Math.max(maxRot, angle(w.q, ref.q));
      const d = Math.hypot(w.p[0] - ref.p[0], w.p[1] - ref.p[1], w.p[2] - ref.p[2]);
      let bound = 0;
      for (let a = p; a >= 0; a = m.bones[a].parent) {
        if (idx.includes(a)) bound += Math.hypot(ref.p[0] - pose.worldPosition[3 * a], ref.p[1] - pose.worldPosition[3 * a + 1], ref.p[2] - pose.worldPosition[3 * a + 2]) * tolRad;
      }
      if (bound === 0) rootPos = Math.max(rootPos, d);
      else maxRatio = Math.max(maxRatio, d / (bound * 1.001 + 1e-5));
    }
  }
  return { maxRot, maxRatio, rootPos };
}

describe('IK bake', () => {
  c('Gene_light × wavefile_v2 frames 300–899: FK of OUT equals the IK pose within 0.1°, other records byte-identical, IK off over the range and back on after', () => {
    const m = corpusModel(GENE), input = corpusMotion(WAVE);
    const before = writeVmd(input);
    const r = ikBake(m, input, { from: 300, to: 899 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    // The input is left as it was.
    expect(Buffer.from(writeVmd(input)).equals(Buffer.from(before))).toBe(true);
    const rep = r.value.report, out = r.value.doc;
    // Gene's IK bones on in the range (its legs' and the 右腕xcIK a link of which fits a VMD name); the chains' links.
    expect(rep.ikOff).toEqual(['右腕xcIK', '左足ＩＫ', '左つま先ＩＫ', '右足ＩＫ', '右つま先ＩＫ']);
    expect(rep.bones).toEqual(['右腕xca', '左足', '左ひざ', '左足首', '右足', '右ひざ', '右足首']);
    expect(rep.rawKeys).toBe(600 * 7);
    expect(rep.keptKeys).toBeLessThan(rep.rawKeys / 2);

    const fk = fkAgainstIk(m, input, out, rep.bones, 300, 899, 0.1);
    console.log(`ik-bake Gene × wavefile 300–899: kept ${rep.keptKeys} of ${rep.rawKeys}; FK here: ${fk.maxRot.toFixed(5)}°, root links' position ${fk.rootPos.toExponential(2)}, others ${(fk.maxRatio * 100).toFixed(1)}% of their bound; report ${rep.maxRotationErrorDeg.toFixed(5)}° / ${rep.maxPositionError.toFixed(5)}`);
    expect(fk.maxRot).toBeLessThanOrEqual(0.1 + 1e-3);
    expect(fk.rootPos).toBeLessThan(1e-4);
    expect(fk.maxRatio).toBeLessThanOrEqual(1);
    expect(rep.maxRotationErrorDeg).toBeLessThanOrEqual(0.1 + 1e-3);

    // Every record but the baked bones' keys inside 300..899 (and the edge keys added) is byte-identical, in order.
    const baked = new Set(rep.bones.map(matchKey));
    const keep = (x: { key: string; frame: number }) => !(baked.has(x.key) && x.frame >= 300 && x.frame <= 899);
    const inRecs = boneRecords(input).filter(keep);
    const outRecs = boneRecords(out).filter(keep);
    const added = outRecs.length - inRecs.length;
    expect(added).toBe(rep.edgeKeys);
    expect(outRecs.slice(0, inRecs.length)).toEqual(inRecs);
    // The edge keys: at 299 and 900, baked bones only.
    for (const x of outRecs.slice(inRecs.length)) {
      expect(baked.has(x.key)).toBe(true);
      expect([299, 900]).toContain(x.frame);
    }
    for (const b of ['morph', 'camera', 'light', 'shadow'] as const) expect(Buffer.from(out[b].bytes).equals(Buffer.from(input[b].bytes))).toBe(true);

    // IK: off at every frame of the range, as the input had it before and after.
    const inSw = ikSwitchesOf(input, buildTracks(input)), outSw = ikSwitchesOf(out, buildTracks(out));
    for (const ik of rep.ikOff) {
      for (let f = 300; f <= 899; f += 7) expect(ikEnabledAt(outSw, ik, f)).toBe(false);
      for (const f of [0, 299, 900, 1500, 2809]) expect(ikEnabledAt(outSw, ik, f)).toBe(ikEnabledAt(inSw, ik, f));
    }
    // Outside the range the pose is the input's (IK on there, solved from the motion's own values).
    const sk = buildSkeleton(m.bones);
    const pi = new MotionPoser(sk, input, buildTracks(input), m), po = new MotionPoser(sk, out, buildTracks(out), m);
    const a = new Pose(sk), b = new Pose(sk);
    const ankle = m.bones.findIndex((x) => x.name === '左足首');
    for (const f of [0, 150, 299, 900, 901, 1200]) {
      pi.poseAt(a, f);
      po.poseAt(b, f);
      expect(Math.hypot(...[0, 1, 2].map((k) => a.worldPosition[3 * ankle + k] - b.worldPosition[3 * ankle + k]))).toBeLessThan(1e-4);
    }
  }, 300_000);

  c('low-poly Miku × wavefile_v2, leg IKs only, --raw over 0–400: a key per frame; a knee bent in OUT bends the leg, where the input’s IK overrides it', () => {
    const m = corpusModel(MIKU), input = corpusMotion(WAVE);
    const r = ikBake(m, input, { from: 0, to: 400, bones: ['左足ＩＫ', '右足ＩＫ'], raw: true });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const rep = r.value.report, out = r.value.doc;
    expect(rep.ikOff).toEqual(['左足ＩＫ', '右足ＩＫ']);
    expect(rep.bones).toEqual(['左足', '左ひざ', '右足', '右ひざ']);
    expect(rep.keptKeys).toBe(401 * 4);
    const ot = buildTracks(out);
    const knee = ot.bones.names.findIndex((n) => n === '左ひざ');
    const kneeFrames = Array.from(ot.bones.frames.subarray(ot.bones.start[knee], ot.bones.start[knee + 1])).filter((f) => f <= 400);
    expect(kneeFrames).toEqual(Array.from({ length: 401 }, (_, f) => f));
    const fk = fkAgainstIk(m, input, out, rep.bones, 0, 400, 0.1);
    expect(fk.maxRot).toBeLessThan(1e-3); // raw keys: float32 storage only
    // つま先ＩＫ stays on in OUT: not baked.
    expect(ikEnabledAt(ikSwitchesOf(out, ot), '左つま先ＩＫ', 200)).toBe(true);

    // Bend 左ひざ's key at frame 200 by 20° more about X, in the input and in OUT: the ankle moves in OUT only.
    const bend = (doc: VmdDocument): VmdDocument => {
      const recs: Uint8Array[] = [];
      let found = false;
      for (let i = 0; i < doc.bone.count; i++) {
        const rec = recordBytes(doc.bone, i).slice();
        const v = new DataView(rec.buffer);
        if (decodeName(rec, 0, BONE.NAME_LENGTH) === '左ひざ' && v.getUint32(BONE.FRAME, true) === 200) {
          const q: Q = [0, 1, 2, 3].map((c) => v.getFloat32(BONE.ROTATION + 4 * c, true)) as Q;
          const s = Math.sin((10 * Math.PI) / 180), co = Math.cos((10 * Math.PI) / 180);
          mul(q, [s, 0, 0, co]).forEach((x, c) => v.setFloat32(BONE.ROTATION + 4 * c, x, true));
          found = true;
        }
        recs.push(rec);
      }
      // No key there (the input keys no knee at 200): one with the bend alone.
      if (!found) recs.push(encodeBoneRecord({ name: '左ひざ', frame: 200, position: [0, 0, 0], rotation: [Math.sin((10 * Math.PI) / 180), 0, 0, Math.cos((10 * Math.PI) / 180)] }));
      return withBlocks(doc, { bone: blockFromRecords('bone', recs) });
    };
    const sk = buildSkeleton(m.bones);
    const ankle = m.bones.findIndex((x) => x.name === '左足首');
    const ankleAt = (doc: VmdDocument) => {
      const p = new Pose(sk);
      new MotionPoser(sk, doc, buildTracks(doc), m).poseAt(p, 200);
      return [0, 1, 2].map((k) => p.worldPosition[3 * ankle + k]);
    };
    const moved = (a: number[], b: number[]) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
    const inMove = moved(ankleAt(input), ankleAt(bend(input)));
    const outMove = moved(ankleAt(out), ankleAt(bend(out)));
    console.log(`knee +20° at 200: ankle moves ${inMove.toExponential(2)} in the input (IK on), ${outMove.toFixed(3)} in OUT`);
    expect(inMove).toBeLessThan(0.01);
    // 20° about the knee, the shin's length away: about 2·L·sin(10°).
    const L = Math.hypot(...[0, 1, 2].map((k) => m.bones[ankle].position[k] - m.bones[m.bones.findIndex((x) => x.name === '左ひざ')].position[k]));
    expect(outMove).toBeCloseTo(2 * L * Math.sin((10 * Math.PI) / 180), 2);
  }, 300_000);

  c('Drink on Gene_light (whole motion): only the IK the motion has on is baked; identical reruns', () => {
    const m = corpusModel(GENE), input = corpusMotion(DRINK);
    const r1 = ikBake(m, input), r2 = ikBake(m, input);
    expect(r1.ok && r2.ok).toBe(true);
    if (!r1.ok || !r2.ok) return;
    expect(Buffer.from(writeVmd(r1.value.doc)).equals(Buffer.from(writeVmd(r2.value.doc)))).toBe(true);
    const rep = r1.value.report;
    // Drink keys the legs' IK off from its first IK key (inspect: its 表示・IK keys): only the arm's chain is on.
    const sw = ikSwitchesOf(input, buildTracks(input));
    expect(ikEnabledAt(sw, '左足ＩＫ', 0)).toBe(false);
    expect(rep.ikOff).toEqual(['右腕xcIK']);
    const fk = fkAgainstIk(m, input, r1.value.doc, rep.bones, rep.from, rep.to, 0.1);
    expect(fk.maxRot).toBeLessThanOrEqual(0.1 + 1e-3);
  }, 300_000);

  c('refusals: a model without IK bones, IK off over the whole range, an IK bone the model lacks (nothing written)', () => {
    const gene = corpusModel(GENE), input = corpusMotion(WAVE);
    const noIk: ModelData = { ...gene, bones: gene.bones.map((b) => ({ ...b, ik: null })) };
    const r1 = ikBake(noIk, input);
    expect(r1.ok).toBe(false);
    if (!r1.ok) {
      expect(r1.error.code).toBe('E_IK');
      expect(r1.error.message).toMatch(/has no IK bones/);
    }
    // Every IK bone of Gene switched off at frame 0 by one IK key.
    const off = encodeIkRecord({ frame: 0, visible: 1, iks: gene.bones.filter((b) => b.ik).map((b) => ({ name: b.name, enabled: 0 })) });
    const allOff = withBlocks(input, { ik: ikBlockFromRecords([off]) });
    const r2 = ikBake(gene, allOff);
    expect(r2.ok).toBe(false);
    if (!r2.ok) {
      expect(r2.error.code).toBe('E_IK');
      expect(r2.error.message).toMatch(/off over all of frames 0–2809/);
    }
    const r3 = ikBake(gene, input, { bones: ['左腕ＩＫ'] });
    expect(r3.ok).toBe(false);
    if (!r3.ok) expect(r3.error.message).toMatch(/has no IK bone "左腕ＩＫ" \(its IK bones: .*左足ＩＫ/);
    // The start both bakes share (bake/options.ts bakeStart, bakeModelName): a camera motion refused naming this bake;
    // a model with no name said as "the model"; --to before --from refused naming the option.
    const r4 = ikBake(gene, corpusMotion('threejs/vmds/wavefile_camera.vmd'));
    expect(r4.ok ? null : [r4.error.code, r4.error.params?.op]).toEqual(['E_CAMERA_MOTION', 'ik-bake']);
    const r5 = ikBake({ ...noIk, name: ' ' }, input);
    expect(r5.ok ? null : r5.error.message).toBe('the model has no IK bones: there is no IK to bake');
    const r6 = ikBake(gene, input, { from: 10, to: 5 });
    expect(r6.ok ? null : [r6.error.code, r6.error.option]).toEqual(['E_ARGUMENT', 'to']);
  }, 120_000);
});
