// The preview's three.js world (renderer/src/preview/preview-scene.ts) without WebGL: figure or model
// shown, hidden by the motion, MMD's light placed from a light pose, the MMD camera and its frustum,
// look-through, the camera path, resizing, and the skeleton refreshed only after a pose.
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { blockFromRecords, buildTracks, buildVmd, encodeCameraRecord, sampleCamera, withBlocks } from '../../../shared/vmd';
import { readPmx } from '../../../shared/pmx';
import { buildModelMesh } from '../../../renderer/src/preview/model-mesh';
import { PreviewScene } from '../../../renderer/src/preview/preview-scene';
import { lightState } from '../../../renderer/src/e2e/preview-diagnostics';
import { tinyPmx } from '../../shared/pmx-fixtures';

function model() {
  const r = readPmx(tinyPmx().build());
  if (!r.ok) throw new Error(r.error.message);
  return buildModelMesh(r.value);
}

/** A camera track with keys at 0 and 30, 45 and 20 units from a target at (0, 10, 0). */
function cameraTracks() {
  const keys = [
    { frame: 0, distance: -45, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 },
    { frame: 30, distance: -20, target: [0, 10, 0], rotation: [0, 0, 0], fov: 40 },
  ];
  return buildTracks(withBlocks(buildVmd({}), { camera: blockFromRecords('camera', keys.map(encodeCameraRecord)) }));
}

describe('PreviewScene', () => {
  it('shows the default figure until a model replaces it, and disposes a model it drops', () => {
    const w = new PreviewScene(true);
    expect(w.scene.children).toContain(w.figure.group);
    expect(w.modelShown).toBe(true);
    expect(w.rig).toBe(w.figure.rig);
    const m = model();
    let disposed = 0;
    const dispose = m.dispose;
    m.dispose = () => {
      disposed++;
      dispose();
    };
    w.setModel(m);
    expect(w.rig).toBe(m.rig);
    expect(w.figure.group.visible).toBe(false);
    expect(m.mesh.visible).toBe(true);
    expect(w.scene.children).toContain(m.mesh);
    expect(m.edges.mesh.visible).toBe(true);
    w.setModel(null);
    expect(disposed).toBe(1);
    expect(w.scene.children).not.toContain(m.mesh);
    expect(w.figure.group.visible).toBe(true);
  });

  it('draws no outline on a model where it is off (software GL), and switches it', () => {
    const w = new PreviewScene(false);
    const m = model();
    w.setModel(m);
    expect(m.edges.mesh.visible).toBe(false);
    expect(w.outlineState().on).toBe(false);
    w.setOutline(true);
    expect(m.edges.mesh.visible).toBe(true);
    expect(w.outlineState()).toEqual({ on: true, materials: 1 });
  });

  it('hides the figure or the model while the motion says so', () => {
    const w = new PreviewScene();
    w.setHidden(true);
    expect(w.modelShown).toBe(false);
    const m = model();
    w.setModel(m);
    expect(m.mesh.visible).toBe(false);
    expect(w.figure.group.visible).toBe(false);
    w.setHidden(false);
    expect(m.mesh.visible).toBe(true);
    expect(w.modelShown).toBe(true);
  });

  it("places MMD's default light: white, shining along (−0.5, −1, −0.5) normalised in three.js, 40 units from its target", () => {
    const w = new PreviewScene();
    const s = lightState(w.light);
    const n = Math.sqrt(1.5);
    [-0.5 / n, -1 / n, -0.5 / n].forEach((v, i) => expect(s.direction[i]).toBeCloseTo(v, 6));
    expect(s.color).toEqual([1, 1, 1]);
    expect(w.light.position.distanceTo(w.light.target.position)).toBeCloseTo(40, 5);
  });

  it('places a light pose: colour scaled so 0.6 is white, straight down from 40 units above the target', () => {
    const w = new PreviewScene();
    w.showLight({ color: [0.3, 0.6, 1.2], direction: [0, -1, 0] });
    const s = lightState(w.light);
    s.color.forEach((c, i) => expect(c).toBeCloseTo([0.5, 1, 2][i], 6));
    [0, -1, 0].forEach((v, i) => expect(s.direction[i]).toBeCloseTo(v, 6));
    expect(w.light.position.toArray().map((v) => +v.toFixed(5))).toEqual([0, 50, 0]);
    // Back to the default light.
    w.showLight(null);
    expect(lightState(w.light).color).toEqual([1, 1, 1]);
  });

  it('places the MMD camera with its frustum; looking through it only while a pose is placed', () => {
    const w = new PreviewScene();
    w.resize(200, 100);
    const track = cameraTracks().camera;
    w.showCamera(sampleCamera(track, 0));
    expect(w.frustum.visible).toBe(true);
    expect(w.activeCamera).toBe(w.orbitCamera);
    // 45 units in front of the target (+Z in three.js), the key's fov, the output frame's aspect (16:9), not the viewport's.
    expect(w.mmdCamera.position.toArray().map((v) => +v.toFixed(4))).toEqual([0, 10, 45]);
    expect(w.mmdCamera.fov).toBe(30);
    expect(w.mmdCamera.aspect).toBe(16 / 9);
    w.setLookThrough(true);
    expect(w.activeCamera).toBe(w.mmdCamera);
    expect(w.lookingThrough).toBe(true);
    expect(w.frustum.visible).toBe(false);
    w.showCamera(null);
    expect(w.activeCamera).toBe(w.orbitCamera);
    expect(w.lookingThrough).toBe(false);
  });

  it('looks through a perspective-off key (パース OFF) orthographically: no depth in w, floor lines stay parallel; a cut switches at once', () => {
    // Keys: 0 perspective, 30 perspective off (distance −60), 31 perspective again (a cut, one frame later).
    // Pitched 0.4 rad so floor lines running away from the camera are not seen end on.
    const keys = [
      { frame: 0, distance: -45, target: [0, 10, 0], rotation: [0.4, 0, 0], fov: 30, perspective: 0 },
      { frame: 30, distance: -60, target: [0, 10, 0], rotation: [0.4, 0, 0], fov: 30, perspective: 1 },
      { frame: 31, distance: -45, target: [0, 10, 0], rotation: [0.4, 0, 0], fov: 30, perspective: 0 },
    ];
    const track = buildTracks(withBlocks(buildVmd({}), { camera: blockFromRecords('camera', keys.map(encodeCameraRecord)) })).camera;
    const w = new PreviewScene();
    w.resize(320, 180);
    w.setLookThrough(true);
    /** Screen direction (NDC, normalised) of a floor line from (x, 0, 0) to (x, 0, −20), three.js coordinates. */
    const dir = (x: number) => {
      const a = new THREE.Vector3(x, 0, 0).project(w.activeCamera), b = new THREE.Vector3(x, 0, -20).project(w.activeCamera);
      const d = [b.x - a.x, b.y - a.y], n = Math.hypot(d[0], d[1]);
      return [d[0] / n, d[1] / n];
    };
    /** The sine of the angle between the screen images of two parallel floor lines 10 units apart. */
    const spread = () => {
      const l = dir(-5), r = dir(5);
      return Math.abs(l[0] * r[1] - l[1] * r[0]);
    };
    // Perspective key: the projection's w is −z (bottom row 0 0 −1 0), and the floor lines converge.
    w.showCamera(sampleCamera(track, 0));
    expect(w.activeCamera).toBe(w.mmdCamera);
    expect([3, 7, 11, 15].map((i) => w.activeCamera.projectionMatrix.elements[i])).toEqual([0, 0, -1, 0]);
    expect(spread()).toBeGreaterThan(0.05);
    // In between 0 and 30 the earlier key's flag holds (still perspective).
    w.showCamera(sampleCamera(track, 29));
    expect(w.activeCamera).toBe(w.mmdCamera);
    // Perspective-off key: an orthographic camera at the same place; w does not depend on depth (bottom row 0 0 0 1).
    w.showCamera(sampleCamera(track, 30));
    const cam = w.activeCamera;
    expect(cam).toBe(w.mmdOrthoCamera);
    expect((cam as THREE.OrthographicCamera).isOrthographicCamera).toBe(true);
    expect([3, 7, 11, 15].map((i) => cam.projectionMatrix.elements[i])).toEqual([0, 0, 0, 1]);
    expect(cam.position.distanceTo(w.mmdCamera.position)).toBeLessThan(1e-9);
    expect(cam.quaternion.angleTo(w.mmdCamera.quaternion)).toBeLessThan(1e-9);
    // The 16:9 frame's longer side spans |distance| = 60 units: half width 30, half height 30 × 9 / 16.
    const o = cam as THREE.OrthographicCamera;
    expect([o.left, o.right, o.top, o.bottom]).toEqual([-30, 30, 16.875, -16.875]);
    expect(spread()).toBeLessThan(1e-9);
    // The frustum drawn in the free view is the box of that view.
    expect((w.frustum.camera as THREE.OrthographicCamera).isOrthographicCamera).toBe(true);
    // A 4:3 export frame: the longer side still spans 60 units; back to 16:9 afterwards.
    w.fitOrthographic(4 / 3);
    expect([o.right, o.top]).toEqual([30, 22.5]);
    w.fitOrthographic();
    expect([o.right, o.top]).toEqual([30, 16.875]);
    // The cut one frame later: perspective at once.
    w.showCamera(sampleCamera(track, 31));
    expect(w.activeCamera).toBe(w.mmdCamera);
    expect(w.orthographicView).toBe(false);
    expect((w.frustum.camera as THREE.PerspectiveCamera).isPerspectiveCamera).toBe(true);
  });

  it('draws a camera path and removes it again', () => {
    const w = new PreviewScene();
    const before = w.scene.children.length;
    expect(w.setCameraPath(cameraTracks().camera)).toEqual([]);
    expect(w.scene.children.length).toBe(before + 1);
    w.setCameraPath(null);
    expect(w.scene.children.length).toBe(before);
    expect(w.cameraCuts).toEqual([]);
  });

  it('gives the orbit camera the viewport aspect and the MMD camera the output aspect', () => {
    const w = new PreviewScene();
    w.resize(300, 100);
    expect([w.orbitCamera.aspect, w.mmdCamera.aspect, w.width, w.height]).toEqual([3, 16 / 9, 300, 100]);
    w.setOutputAspect(4 / 3);
    w.showCamera(sampleCamera(cameraTracks().camera, 0));
    expect(w.mmdCamera.aspect).toBe(4 / 3);
    // The frustum drawn in the orbit view has the output frame's shape.
    w.resize(500, 100);
    expect(w.mmdCamera.aspect).toBe(4 / 3);
    // Nonsense is ignored.
    w.setOutputAspect(0);
    w.setOutputAspect(Number.NaN);
    expect(w.outputAspect).toBe(4 / 3);
  });

  it("refreshes a skinned mesh's bone matrices only after a pose", () => {
    const w = new PreviewScene();
    const skeleton = w.figure.mesh.skeleton;
    skeleton.computeBoneTexture();
    skeleton.update();
    const before = Float32Array.from(skeleton.boneMatrices!);
    const bone = skeleton.bones[1];
    bone.position.x += 1;
    bone.updateMatrixWorld(true);
    w.posed = false;
    skeleton.update();
    expect(Array.from(skeleton.boneMatrices!)).toEqual(Array.from(before));
    w.posed = true;
    skeleton.update();
    expect(Array.from(skeleton.boneMatrices!)).not.toEqual(Array.from(before));
  });
});

describe('the scene camera at rest', () => {
  it("opens on MMD's view, a little further and higher", () => {
    const w = new PreviewScene();
    expect(w.orbitCamera.position.toArray()).toEqual([0, 16, 52]);
    expect(w.orbitCamera).toBeInstanceOf(THREE.PerspectiveCamera);
  });
});
