// A morph slider dragged in the morph panel (new-user pass numorph 3): the preview shows the dragged weight before
// anything is keyed, as MMD's 表情操作 moves the face before 登録. Before, the face changed only on release. Checked on
// tinyPmx's vertex morph あ (vertex 1 + (0.5, 0, 0), vertex 3 + (0, −0.25, 0.125): one morph target, factor 1) and its
// group まとめ (あ × 0.7), without WebGL: the influences the mesh is drawn with.
import { describe, expect, it } from 'vitest';
import { buildTracks, buildVmd, type VmdDocument } from '../../../shared/vmd';
import { readPmx } from '../../../shared/pmx';
import { buildModelMesh } from '../../../renderer/src/preview/model-mesh';
import { FrameProfiler } from '../../../renderer/src/preview/frame-profiler';
import { MotionDriver } from '../../../renderer/src/preview/motion-driver';
import { PreviewScene } from '../../../renderer/src/preview/preview-scene';
import { tinyPmx } from '../../shared/pmx-fixtures';

function driverWith(doc: VmdDocument | null) {
  const r = readPmx(tinyPmx().build());
  if (!r.ok) throw new Error(r.error.message);
  const world = new PreviewScene();
  world.setModel(buildModelMesh(r.value));
  const driver = new MotionDriver(world, new FrameProfiler());
  driver.setMotion(doc, doc ? buildTracks(doc) : null);
  driver.rebind();
  /** The influence of あ's morph target as drawn (0 when it is not attached). */
  const a = () => {
    const dict = world.model!.mesh.morphTargetDictionary ?? {};
    return 'あ' in dict ? world.model!.mesh.morphTargetInfluences![dict['あ']] : 0;
  };
  return { driver, a };
}

describe('a dragged morph slider (morph draft)', () => {
  it('shows its weight in place of the motion’s on a morph the motion keys, and the motion’s again after', () => {
    // あ 0 at 0 and 1 at 10: 0.5 at frame 5.
    const { driver, a } = driverWith(buildVmd({ morphs: [{ name: 'あ', frame: 0, weight: 0 }, { name: 'あ', frame: 10, weight: 1 }] }));
    driver.poseAt(5);
    expect(a()).toBeCloseTo(0.5, 6);
    expect(driver.setMorphDraft({ name: 'あ', weight: 0.8 })).toBe(false);
    driver.poseAt(5);
    expect(a()).toBeCloseTo(0.8, 6);
    expect(driver.poseChanged).toBe(true);
    driver.setMorphDraft(null);
    driver.poseAt(5);
    expect(a()).toBeCloseTo(0.5, 6);
  });

  it('shows a morph the motion lacks once its target is attached (rebind), and 0 again after', () => {
    const { driver, a } = driverWith(buildVmd({ bones: [{ name: 'センター', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] }] }));
    driver.poseAt(0);
    expect(a()).toBe(0);
    // Not attached yet: the driver asks for a rebind, once; the same morph dragged on needs none.
    expect(driver.setMorphDraft({ name: 'あ', weight: 0.6 })).toBe(true);
    driver.rebind();
    driver.poseAt(0);
    expect(a()).toBeCloseTo(0.6, 6);
    expect(driver.setMorphDraft({ name: 'あ', weight: 0.3 })).toBe(false);
    driver.poseAt(0);
    expect(a()).toBeCloseTo(0.3, 6);
    driver.setMorphDraft(null);
    driver.poseAt(0);
    expect(a()).toBe(0);
  });

  it('works with no motion at all, and through a group morph (まとめ: あ × 0.7)', () => {
    const { driver, a } = driverWith(null);
    expect(driver.setMorphDraft({ name: 'まとめ', weight: 0.5 })).toBe(true);
    driver.rebind();
    driver.poseAt(0);
    expect(a()).toBeCloseTo(0.35, 6);
    driver.setMorphDraft(null);
    driver.poseAt(0);
    expect(a()).toBe(0);
  });
});
