/**
 * Feet on the floor (足IK補正): wavefile_v2, made for the low-poly Miku, retargeted onto the taller
 * Gene_light. Toe heights are measured by playing each motion on its model with the project's pose engine
 * (IK on, as the motion switches it), from the written bytes: never with the retargeter's own numbers.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readModel, type ModelData } from '../../../shared/pmx';
import { retarget, type RetargetResult } from '../../../shared/retarget';
import { buildSkeleton, MotionPoser, Pose } from '../../../shared/skeleton';
import { buildTracks, readVmd, writeVmd, type VmdDocument } from '../../../shared/vmd';
import { corpusPresent, readCorpus } from '../../helpers/corpus';

const load = (rel: string): ModelData => {
  const r = readModel(readCorpus(rel));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
const readMotion = (bytes: Uint8Array): VmdDocument => {
  const r = readVmd(bytes);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
const ok = (r: RetargetResult) => {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

/** Per frame 0..last, the two toes' heights above their rest heights (left, right), the motion played on the model with IK on. */
function toeHeights(m: ModelData, doc: VmdDocument, toes: [string, string], last: number): Float64Array[] {
  const sk = buildSkeleton(m.bones);
  const tracks = buildTracks(doc);
  const poser = new MotionPoser(sk, doc, tracks, m);
  const pose = new Pose(sk);
  const idx = toes.map((n) => sk.byKey.get(n)!);
  const out = [new Float64Array(last + 1), new Float64Array(last + 1)];
  for (let f = 0; f <= last; f++) {
    poser.poseAt(pose, f);
    for (let k = 0; k < 2; k++) out[k][f] = pose.worldPosition[3 * idx[k] + 1] - m.bones[idx[k]].position[1];
  }
  return out;
}

describe.skipIf(!corpusPresent)('retarget keeps the feet on the floor: wavefile_v2, low-poly Miku → Gene_light', () => {
  const miku = load('mmd-viewer-js/model/low_miku/miku.pmd');
  const gene = load('gene/Gene_light.pmx');
  const dance = readMotion(readCorpus('mmd-viewer-js/vmd/wavefile_v2.vmd'));
  const last = buildTracks(dance).lastFrame;
  const on = ok(retarget(dance, miku, gene));
  const off = ok(retarget(dance, miku, gene, { floor: false }));
  const onBytes = writeVmd(on.doc), offBytes = writeVmd(off.doc);
  const source = toeHeights(miku, dance, ['左つま先', '右つま先'], last);
  const fixed = toeHeights(gene, readMotion(onBytes), ['左足先', '右足先'], last);
  const plain = toeHeights(gene, readMotion(offBytes), ['左足先', '右足先'], last);
  // Gene's toes (左足先/右足先) rest on the floor: their height above rest is their height.
  it("Gene's toes rest at height 0 (the reporter's figures are heights above the floor)", () => {
    for (const n of ['左足先', '右足先']) expect(Math.abs(gene.bones.find((b) => b.name === n)!.position[1])).toBeLessThan(1e-3);
  });

  it('the toes no longer go through the floor: lowest −0.15 without the correction, ≥ −0.01 with it', () => {
    const min = (h: Float64Array[]) => Math.min(...h.map((a) => Math.min(...a)));
    expect(min(plain)).toBeLessThan(-0.1);
    expect(min(fixed)).toBeGreaterThanOrEqual(-0.01);
    // Never below the source: Miku's toes stay within 0.035 of their rest height, or above it, all dance long.
    expect(min(source)).toBeGreaterThan(-0.035);
  });

  it('where the source toe is planted (within 0.02 of its rest height), the target toe stays within 0.02 of its rest height', () => {
    let planted = 0, worst = 0;
    for (let k = 0; k < 2; k++)
      for (let f = 0; f <= last; f++) {
        if (Math.abs(source[k][f]) > 0.02) continue;
        planted++;
        worst = Math.max(worst, Math.abs(fixed[k][f]));
      }
    expect(planted).toBeGreaterThan(100);
    expect(worst).toBeLessThanOrEqual(0.02);
  });

  it('the report gives the largest correction and the frames it touched; the keys stay light (re-fitted, not one per frame)', () => {
    const fl = on.details.floor!;
    expect(fl.applied).toBe(true);
    expect(fl.feet).toEqual([{ ik: '左足ＩＫ', toe: '左足先' }, { ik: '右足ＩＫ', toe: '右足先' }]);
    // The largest shortfall measured here bounds the largest correction from below.
    let shortfall = 0;
    for (let k = 0; k < 2; k++) for (let f = 0; f <= last; f++) if (source[k][f] >= -0.01) shortfall = Math.max(shortfall, -plain[k][f]);
    expect(fl.maxCorrection).toBeGreaterThanOrEqual(shortfall - 0.01);
    expect(fl.maxCorrection).toBeLessThan(0.3);
    expect(fl.frames).toBeGreaterThan(0);
    expect(fl.frames).toBeLessThanOrEqual(last + 1);
    expect(on.report.extra.floorMaxCorrection).toBe(fl.maxCorrection);
    expect(on.report.extra.floorFrames).toBe(fl.frames);
    // Under 10% of Gene's leg length: no warning.
    expect(on.report.warnings.some((w) => w.startsWith('feet on the floor'))).toBe(false);
    const ikKeys = (d: VmdDocument) => {
      const t = buildTracks(d).bones;
      return ['左足ＩＫ', '右足ＩＫ'].reduce((s, n) => s + t.start[t.index.get(n)! + 1] - t.start[t.index.get(n)!], 0);
    };
    expect(ikKeys(on.doc)).toBeLessThan(2 * ikKeys(off.doc));
    expect(ikKeys(on.doc)).toBeLessThan(last / 2);
  });

  it('turned off (--no-floor), the output is the bytes it was before the correction existed', () => {
    // sha256 of this retarget's output as written at 3b84285, before the correction was added, but for 左手先/右手先:
    // their one identity key each is now kept as it is (two keys of float noise before; compared track by track,
    // nothing else changed), retarget-corpus's tip-bone test.
    expect(createHash('sha256').update(offBytes).digest('hex')).toBe('5d83e2d818db78d6d35d81c8e29b5a080baebb2fa76bace4687b78daa995b7b3');
    expect(off.details.floor).toBeUndefined();
    expect(Buffer.compare(Buffer.from(onBytes), Buffer.from(offBytes))).not.toBe(0);
  });
});
