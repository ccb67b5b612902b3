// Bake IK to FK's plot data (stores/ik-bake.ts ikBakePlot, drawn by BakePlot.vue) on Gene_light × wavefile_v2, frames
// 300–340, Legs only, through the store on the real engine (this page has no Worker: the job runs here). Sampled once
// per frame, the grey "before" line is the IK's pose: the baked link's local rotation as the evaluator solves it with
// the IK on (MotionPoser on the input, its solved local rotation's angle from rest, worked out here); the orange
// "after" line is the output played (MotionPoser on the output, the keys' local rotation), and the keys marked are the
// output's keys of that bone inside the range, counted from its bytes. The link plotted: the active bone when it is a
// link, else 左足ＩＫ's first link; a pick from the list wins. The curve pane's overlay (the fit-preview store) is
// set with the result and goes with Close.
import { describe, expect, it } from 'vitest';
import { nextTick } from 'vue';
import { ikBakePlot, useIkBakeStore } from '../../../renderer/src/stores/ik-bake';
import { useFitPreviewStore } from '../../../renderer/src/stores/fit-preview';
import { runCommand } from '../../../renderer/src/shell/commands';
import { usePreviewStore } from '../../../renderer/src/stores/preview';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { modelOutline } from '../../../renderer/src/model/model-outline';
import { memoryScene } from './scene-fixtures';
import { buildSkeleton, MotionPoser, Pose } from '../../../shared/skeleton';
import { ikChainsOf } from '../../../shared/skeleton/ik-switches';
import { BONE, buildTracks, decodeName, type VmdDocument } from '../../../shared/vmd';
import { corpusModel, corpusPresent, readCorpus } from '../../helpers/corpus';

const c = corpusPresent ? it : it.skip;
const GENE = 'gene/Gene_light.pmx';
const WAVE = 'mmd-viewer-js/vmd/wavefile_v2.vmd';
const FROM = 300, TO = 340, N = TO - FROM + 1;
const LEGS = ['左足ＩＫ', '左つま先ＩＫ', '右足ＩＫ', '右つま先ＩＫ'];

/** A rotation's angle from rest in degrees (x y z w at `o`, normalised here). */
function angleFromRest(q: ArrayLike<number>, o: number): number {
  const len = Math.hypot(q[o], q[o + 1], q[o + 2], q[o + 3]);
  return (2 * Math.acos(Math.min(1, Math.abs(q[o + 3]) / len)) * 180) / Math.PI;
}

/** The angle from rest of `bone`'s local rotation at every frame FROM..TO as the evaluator plays `doc`: solved (IK on) or the keys'. */
function played(doc: VmdDocument, bone: string, solved: boolean): number[] {
  const model = corpusModel(GENE);
  const sk = buildSkeleton(model.bones);
  const b = model.bones.findIndex((x) => x.name === bone);
  const poser = new MotionPoser(sk, doc, buildTracks(doc), model);
  const pose = new Pose(sk);
  const out: number[] = [];
  for (let f = FROM; f <= TO; f++) {
    poser.poseAt(pose, f);
    out.push(angleFromRest(solved ? pose.solvedRotation : pose.rotation, 4 * b));
  }
  return out;
}

/** Frames of `bone`'s keys in FROM..TO, read from the output's records. */
function keyFrames(doc: VmdDocument, bone: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < doc.bone.count; i++) {
    const o = i * BONE.SIZE;
    const f = doc.bone.view.getUint32(o + BONE.FRAME, true);
    if (f >= FROM && f <= TO && decodeName(doc.bone.bytes, o, BONE.NAME_LENGTH) === bone) out.push(f);
  }
  return out.sort((a, b) => a - b);
}

const maxDiff = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i] - b[i]));
  return d;
};

describe('Bake IK to FK plot', () => {
  c('before: the IK-on local rotation per frame; after: the output played; the kept keys marked; the link picked; the overlay until Close', async () => {
    memoryScene([['/s/wavefile_v2.vmd', readCorpus(WAVE)], ['/m/Gene_light.pmx', readCorpus(GENE)]]);
    const p = usePreviewStore();
    p.setModel({ name: 'ジェネ / Gene', path: '/m/Gene_light.pmx', format: 'pmx', bones: 0, morphs: 0, vertices: 0, rigidBodies: 0, notes: [] });
    p.setOutline(modelOutline(corpusModel(GENE)));
    await useSceneStore().openPath('/s/wavefile_v2.vmd');
    const bake = useIkBakeStore();
    void runCommand('bakeIk');
    for (let i = 0; i < 5; i++) await nextTick();
    bake.form.bones = [...LEGS];
    bake.form.from = String(FROM);
    bake.form.to = String(TO);
    expect(await bake.bake()).toBe(true);
    const r = bake.result!;

    // The default link: 左足ＩＫ's first link (the model's own list, read here), nothing being active.
    const firstLink = ikChainsOf(corpusModel(GENE).bones).find((ch) => ch.ik === '左足ＩＫ')!.links[0];
    expect(r.report.bones).toContain(firstLink);
    expect(bake.plotBone()).toBe(firstLink);
    // The active bone when it is a link (picked in the view); a bone that is not a link leaves the default.
    p.setPicked({ name: '右足', tracked: true });
    expect(bake.plotBone()).toBe('右足');
    p.setPicked({ name: 'センター', tracked: true });
    expect(bake.plotBone()).toBe(firstLink);
    // A pick from the list wins.
    bake.plotPick = '右ひざ';
    expect(bake.plotBone()).toBe('右ひざ');

    const input = r.input, output = r.output;
    for (const [bone, tol] of [['左足', 1e-3], ['左ひざ', 0.1], ['右足首', 0.1]] as const) {
      const plot = ikBakePlot(r, bone, N)!;
      expect(plot, bone).not.toBeNull();
      expect([plot.from, plot.to, plot.original.length, plot.result.length]).toEqual([FROM, TO, N, N]);
      // Before: the IK's pose. The thigh (its parent not baked) to float32 rounding; a link under a baked one is keyed
      // under its parent as the fitted keys play it, so within the tolerance (0.1°) of the IK-on local rotation.
      const ikOn = played(input, bone, true);
      expect(maxDiff(plot.original, ikOn), `${bone} before`).toBeLessThanOrEqual(tol);
      // The knee bends: a curve, not the input's flat rest (the dance keys no knee).
      if (bone === '左ひざ') expect(Math.max(...ikOn) - Math.min(...ikOn)).toBeGreaterThan(5);
      // After: the baked keys played, IK off.
      expect(maxDiff(plot.result, played(output, bone, false)), `${bone} after`).toBeLessThanOrEqual(1e-6);
      // The kept keys inside the range, where they are.
      const frames = keyFrames(output, bone);
      expect(frames.length).toBeGreaterThan(1);
      expect(frames.length).toBeLessThan(N);
      expect(Array.from(plot.keys!)).toEqual(frames.map((f) => (f - FROM) / (TO - FROM)));
    }

    // The curve pane's overlay: the same two motions over the whole track; Close takes it away.
    const fp = useFitPreviewStore();
    expect(fp.result).not.toBeNull();
    expect(fp.result!.before).toBe(r.plot.before);
    expect(fp.result!.after).toBe(r.plot.after);
    expect(fp.result!.span).toBeUndefined();
    bake.close();
    expect(fp.result).toBeNull();
  }, 120_000);
});
