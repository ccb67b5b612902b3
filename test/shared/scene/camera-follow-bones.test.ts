/**
 * The camera's follow works out only the bones its bone depends on (bonesNeededFor: parents, append sources, the
 * IK chains that move them), not the whole model, so that the camera path can be drawn with it. On a real rig
 * (Gene_light.pmx: leg IK, append bones, 224 bones) dancing wavefile_v2.vmd, the followed positions equal those
 * of a whole evaluation (MotionPoser.poseAt) for bones of every kind: a root-side bone, the head, an IK-moved
 * ankle and toe, wrists under the arm's twist and the model's own arm IK, append bones, and an IK bone itself.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, corpusPresent } from '../../helpers/corpus';
import { readModel } from '../../../shared/pmx/model-reader';
import { readVmd } from '../../../shared/vmd/vmd-reader';
import { buildTracks } from '../../../shared/vmd/tracks';
import { BoneFollower } from '../../../shared/scene/camera-follow';
import { bonesNeededFor, buildSkeleton, Pose } from '../../../shared/skeleton/skeleton';
import { MotionPoser } from '../../../shared/skeleton/motion-poser';
import { matchKey } from '../../../shared/pmx/model-inspect';

const BONES = ['センター', '頭', '左足首', '右足先', '左手首', '右手首', '右腕xcb', '右足ＩＫ', '左目', '横クローク2_1'];
const FRAMES = [0, 215, 415, 633.5, 815, 1318, 2000];

describe.skipIf(!corpusPresent)('camera follow on a real rig', () => {
  const model = readModel(new Uint8Array(readFileSync(corpusPath('gene/Gene_light.pmx'))));
  const doc = readVmd(new Uint8Array(readFileSync(corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd'))));
  if (!model.ok || !doc.ok) throw new Error('corpus files unreadable');
  const tracks = buildTracks(doc.value);
  const skeleton = buildSkeleton(model.value.bones);
  const whole = new Pose(skeleton);
  const poser = new MotionPoser(skeleton, doc.value, tracks, { format: model.value.format, morphs: model.value.morphs });

  it('a followed bone is where a whole evaluation puts it, at every frame checked', () => {
    for (const name of BONES) {
      const b = skeleton.byKey.get(matchKey(name))!;
      expect(b, name).toBeDefined();
      const follower = new BoneFollower(model.value, doc.value, tracks, name);
      for (const f of FRAMES) {
        poser.poseAt(whole, f);
        const want = [0, 1, 2].map((c) => whole.worldPosition[3 * b + c]);
        const got = follower.at(f)!;
        for (let c = 0; c < 3; c++) expect(Math.abs(got[c] - want[c]), `${name} at ${f}, axis ${c}`).toBeLessThan(1e-9);
      }
    }
  });

  it('it evaluates a few bones, not the model: センター its parents, the ankle its leg IK chain too', () => {
    const count = (name: string) => bonesNeededFor(skeleton, skeleton.byKey.get(matchKey(name))!).reduce((n, v) => n + v, 0);
    expect(count('センター')).toBeLessThan(5);
    const ankle = bonesNeededFor(skeleton, skeleton.byKey.get(matchKey('左足首'))!);
    for (const n of ['左足ＩＫ', '左足', '左ひざ', '下半身']) expect(ankle[skeleton.byKey.get(matchKey(n))!], n).toBe(1);
    expect(count('頭')).toBeLessThan(skeleton.count / 4);
  });
});
