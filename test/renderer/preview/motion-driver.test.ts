// The motion at a frame (renderer/src/preview/motion-driver.ts) on the preview scene, without WebGL:
// binding and posing the default figure, what the rig lacks, the IK block's show/hide keys, the camera
// and light tracks (a camera/light VMD loaded beside the document wins; the ground shadow follows the frame's
// light), curve-only edits keeping the binding, and "did this pose change the picture".
import { describe, expect, it } from 'vitest';
import {
  blockFromRecords,
  buildTracks,
  buildVmd,
  encodeCameraRecord,
  encodeIkRecord,
  encodeLightRecord,
  encodeShadowRecord,
  ikBlockFromRecords,
  withBlocks,
  type VmdDocument,
} from '../../../shared/vmd';
import { FrameProfiler } from '../../../renderer/src/preview/frame-profiler';
import { MotionDriver, visibilityKeys } from '../../../renderer/src/preview/motion-driver';
import { PreviewScene } from '../../../renderer/src/preview/preview-scene';
import { buildModelMesh } from '../../../renderer/src/preview/model-mesh';
import { readPmx } from '../../../shared/pmx';
import { tinyPmx } from '../../shared/pmx-fixtures';

/** 左腕 turned 90° about Z at frame 0 and back to rest at frame 10 (linear curves). */
const ARM_KEYS = [
  { name: '左腕', frame: 0, position: [0, 0, 0], rotation: [0, 0, Math.SQRT1_2, Math.SQRT1_2] },
  { name: '左腕', frame: 10, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
];

function driverWith(doc: VmdDocument | null) {
  const world = new PreviewScene();
  const profiler = new FrameProfiler();
  const driver = new MotionDriver(world, profiler);
  const tracks = doc ? buildTracks(doc) : null;
  driver.setMotion(doc, tracks);
  driver.rebind();
  return { world, driver, profiler, tracks };
}

const arm = (w: PreviewScene) => w.rig.bones[w.rig.byKey.get('左腕')!].quaternion;
const camDoc = (distance: number) =>
  withBlocks(buildVmd({}), { camera: blockFromRecords('camera', [encodeCameraRecord({ frame: 0, distance, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 })]) });

describe('MotionDriver', () => {
  it('poses the rig at a frame and says which bones the rig lacks', () => {
    const doc = buildVmd({ bones: [...ARM_KEYS, { name: '存在しない骨', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] }] });
    const { world, driver } = driverWith(doc);
    expect(driver.bindingInfo()).toEqual({ missingBones: ['存在しない骨'], missingMorphs: [], hasCamera: false, hasLight: false, lightFrom: null, cameraCuts: [] });
    driver.poseAt(10);
    expect(Math.abs(arm(world).w)).toBeCloseTo(1, 6);
    driver.poseAt(0);
    // 90° about an axis: |w| = cos 45°, and the rotation is the key's whatever the handedness flip.
    expect(Math.abs(arm(world).w)).toBeCloseTo(Math.SQRT1_2, 6);
    expect(driver.frame).toBe(0);
    expect(world.posed).toBe(true);
  });

  it('says whether a pose changed the picture: a new frame yes, the same frame again no', () => {
    const { driver, profiler } = driverWith(buildVmd({ bones: ARM_KEYS }));
    driver.poseAt(3);
    expect(driver.poseChanged).toBe(true);
    driver.poseAt(3);
    expect(driver.poseChanged).toBe(false);
    driver.poseAt(4);
    expect(driver.poseChanged).toBe(true);
    // After the last key nothing moves any more.
    driver.poseAt(12);
    driver.poseAt(15);
    expect(driver.poseChanged).toBe(false);
    expect(profiler.pose.values().length).toBe(5);
    expect(profiler.scene.values().length).toBe(5);
  });

  it('hides the model from a 表示 off key until a 表示 on key, and tells when', () => {
    const ik = ikBlockFromRecords([
      encodeIkRecord({ frame: 0, visible: 1, iks: [] }),
      encodeIkRecord({ frame: 10, visible: 0, iks: [] }),
      encodeIkRecord({ frame: 20, visible: 1, iks: [] }),
    ]);
    const { world, driver } = driverWith(withBlocks(buildVmd({ bones: ARM_KEYS }), { ik }));
    const heard: boolean[] = [];
    driver.onHiddenChange = (h) => heard.push(h);
    const shown = [0, 9.5, 10, 15, 19.9, 20, 30].map((f) => {
      driver.poseAt(f);
      return world.modelShown;
    });
    expect(shown).toEqual([true, true, false, false, false, true, true]);
    expect(heard).toEqual([true, false]);
    // A hide counts as a change of the picture even when no bone moved.
    driver.poseAt(30);
    driver.poseAt(12);
    expect(driver.poseChanged).toBe(true);
  });

  it('needs no visibility look-up for a motion that never hides the model', () => {
    const doc = withBlocks(buildVmd({}), { ik: ikBlockFromRecords([encodeIkRecord({ frame: 0, visible: 1, iks: [] })]) });
    expect(visibilityKeys(doc, buildTracks(doc))).toBeNull();
    const hides = withBlocks(buildVmd({}), { ik: ikBlockFromRecords([encodeIkRecord({ frame: 5, visible: 0, iks: [] })]) });
    const keys = visibilityKeys(hides, buildTracks(hides))!;
    expect([Array.from(keys.frames), Array.from(keys.shown)]).toEqual([[5], [0]]);
  });

  it("samples the document's camera, and a camera VMD loaded beside it wins until removed", () => {
    const { world, driver } = driverWith(camDoc(-45));
    expect(driver.bindingInfo().hasCamera).toBe(true);
    driver.poseAt(0);
    expect(driver.cameraPose!.distance).toBe(-45);
    expect(world.frustum.visible).toBe(true);
    const extra = buildTracks(camDoc(-20));
    driver.setCameraMotion(extra);
    expect(driver.cameraTrack).toBe(extra.camera);
    driver.poseAt(0);
    expect(driver.cameraPose!.distance).toBe(-20);
    expect(world.mmdCamera.position.z).toBeCloseTo(20, 5);
    driver.setCameraMotion(null);
    driver.poseAt(0);
    expect(driver.cameraPose!.distance).toBe(-45);
  });

  it('without a camera track places no camera and hides the frustum', () => {
    const { world, driver } = driverWith(buildVmd({ bones: ARM_KEYS }));
    driver.poseAt(0);
    expect(driver.cameraPose).toBeNull();
    expect(world.frustum.visible).toBe(false);
  });

  it('lights the scene from the light track', () => {
    const doc = withBlocks(buildVmd({}), { light: blockFromRecords('light', [encodeLightRecord({ frame: 0, color: [0.6, 0.3, 0.6], direction: [0, -1, 0] })]) });
    const { world, driver } = driverWith(doc);
    expect(driver.bindingInfo().hasLight).toBe(true);
    // The light keys are the motion's own (the pane names that file), until a camera/light motion beside it has some.
    expect(driver.bindingInfo().lightFrom).toBe('motion');
    driver.setCameraMotion(buildTracks(doc));
    expect(driver.bindingInfo().lightFrom).toBe('extra');
    driver.setCameraMotion(buildTracks(camDoc(-45)));
    expect(driver.bindingInfo().lightFrom).toBe('motion');
    driver.setCameraMotion(null);
    driver.poseAt(0);
    expect([world.light.color.r, world.light.color.g, world.light.color.b].map((c) => +c.toFixed(5))).toEqual([1, 0.5, 1]);
    // Straight down onto the target at (0, 10, 0) from 40 units above it.
    expect(world.light.position.toArray().map((v) => +v.toFixed(4))).toEqual([0, 50, 0]);
  });

  it("shows the model's ground shadow by the light of the frame shown, whatever frame came before (nulight 2)", () => {
    // Light from above-side at 300, horizontal at 600 (no ground shadow: ground-shadow.ts hides it when y > −0.05).
    // A video export's first frame is posed the same way (PreviewEngine.advanceOffline → poseAt) after the preview's frame.
    const light = blockFromRecords('light', [
      encodeLightRecord({ frame: 300, color: [1, 0, 0], direction: [1, -1, 0] }),
      encodeLightRecord({ frame: 600, color: [0, 0, 1], direction: [-1, 0, 0] }),
    ]);
    const r = readPmx(tinyPmx().build());
    if (!r.ok) throw new Error(r.error.message);
    r.value.materials[0].flags |= 2; // MMD's 地面影 flag on its one material
    const world = new PreviewScene();
    world.setModel(buildModelMesh(r.value));
    const driver = new MotionDriver(world, new FrameProfiler());
    const doc = withBlocks(buildVmd({}), { light });
    driver.setMotion(doc, buildTracks(doc));
    driver.rebind();
    const shadowShown = () => world.model!.groundShadow.materials[0].visible;
    const seen = [300, 600, 0, 600, 599, 600, 450].map((f) => {
      driver.poseAt(f);
      return [f, shadowShown()];
    });
    // 0 holds the first key's light (from above); 599 is 299/300 of the way to horizontal (y = −1/300 > −0.05);
    // 450 is half way (y = −0.5).
    expect(seen).toEqual([[300, true], [600, false], [0, true], [600, false], [599, false], [600, false], [450, true]]);
  });

  it('tells the self-shadow in force, from a key with the Self-shadow switch off too (nulight 5)', () => {
    // Keys at 0 (mode 1), 10 (off) and 20 (mode 2): a step, and they rule whatever the switch says.
    const shadow = blockFromRecords('shadow', [
      encodeShadowRecord({ frame: 0, mode: 1, distance: 0.01125 }),
      encodeShadowRecord({ frame: 10, mode: 0, distance: 0.01125 }),
      encodeShadowRecord({ frame: 20, mode: 2, distance: 0.05 }),
    ]);
    const doc = withBlocks(buildVmd({}), { shadow });
    const { driver } = driverWith(doc);
    const heard: string[] = [];
    driver.onSelfShadowChange = (s) => heard.push(`${s.mode}${s.byKey ? ' key' : ''}`);
    for (const f of [0, 5, 10, 19, 20, 0]) driver.poseAt(f);
    expect(heard).toEqual(['1 key', '0 key', '2 key', '1 key']);
    // Without keys: the switch's default (mode 1) when on, off when off.
    const plain = driverWith(buildVmd({ bones: ARM_KEYS })).driver;
    const told: string[] = [];
    plain.onSelfShadowChange = (s) => told.push(`${s.mode}${s.byKey ? ' key' : ''}`);
    plain.poseAt(0);
    plain.setSelfShadowByDefault(true);
    plain.setSelfShadowByDefault(false);
    expect(told).toEqual(['1', '0']);
  });

  it('keeps the binding for a curve-only edit (the same tracks object) and asks for a rebind otherwise', () => {
    const doc = buildVmd({ bones: ARM_KEYS });
    const { driver, tracks } = driverWith(doc);
    const binding = driver.binding;
    expect(driver.setMotion(doc, tracks)).toBe(false);
    expect(driver.binding).toBe(binding);
    expect(driver.setMotion(doc, buildTracks(doc))).toBe(true);
    expect(driver.setMotion(null, null)).toBe(true);
  });
});
