// Picking a joint and marking its bone (renderer/src/preview/pick-marker.ts) on the default figure at
// rest, without WebGL: the mark kept by name across a rig swap, the track moving the bone, a click near a
// joint against one far from all, and the mark's place, size and facing before a render.
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { defaultFigureBones } from '../../../shared/skeleton/standard-figure';
import { buildDefaultFigure } from '../../../renderer/src/preview/figure-mesh';
import { buildRig, updateRigWorld } from '../../../renderer/src/preview/rig';
import { MARK_RADIUS_PX, PickMarker } from '../../../renderer/src/preview/pick-marker';

/** The preview's opening view (camera at (0, 16, 52) looking at (0, 10, 0), fov 30°) on 400 × 300 px. */
function camera(): THREE.PerspectiveCamera {
  const c = new THREE.PerspectiveCamera(30, 400 / 300, 0.5, 2000);
  c.position.set(0, 16, 52);
  c.lookAt(0, 10, 0);
  c.updateMatrixWorld();
  return c;
}

function figure() {
  const fig = buildDefaultFigure();
  updateRigWorld(fig.rig);
  return fig;
}

/** Track 0 moves 左ひじ (the rig bone index per track, as PoseBinding.trackBone holds it). */
const tracksOn = (rig: ReturnType<typeof buildRig>, ...names: string[]) => Int32Array.from(names.map((n) => rig.byKey.get(n)!));

describe('PickMarker', () => {
  it('marks a bone by name and says the track that moves it (−1: none)', () => {
    const { rig } = figure();
    const m = new PickMarker();
    m.rebind(rig, tracksOn(rig, '左ひじ'));
    expect(m.mark('左ひじ')).toBe(true);
    expect(m.marked).toEqual({ name: '左ひじ', track: 0 });
    expect(m.mark('右ひじ')).toBe(true);
    expect(m.marked).toEqual({ name: '右ひじ', track: -1 });
    expect(m.mark('存在しない骨')).toBe(false);
    expect(m.marked).toBeNull();
    m.mark(null);
    expect(m.marked).toBeNull();
  });

  it('keeps the marked name across a rig that lacks the bone, and finds it again on one that has it', () => {
    const { rig } = figure();
    const m = new PickMarker();
    m.rebind(rig, new Int32Array(0));
    m.mark('左ひじ');
    // The figure's root bone alone: no 左ひじ there.
    const small = buildRig(defaultFigureBones().slice(0, 1));
    m.rebind(small, new Int32Array(0));
    expect(m.marked).toBeNull();
    m.rebind(rig, new Int32Array(0));
    expect(m.marked).toEqual({ name: '左ひじ', track: -1 });
  });

  it('picks the joint under a click and nothing far from every joint', () => {
    const { rig } = figure();
    const m = new PickMarker();
    m.rebind(rig, tracksOn(rig, '左ひじ'));
    const cam = camera();
    const at = m.screenPosition(cam, '左ひじ', 400, 300)!;
    // Right of centre: seen from the front, the figure's left arm is on the viewer's right.
    expect(at[0]).toBeGreaterThan(200);
    expect(at[1]).toBeGreaterThan(0);
    expect(at[1]).toBeLessThan(300);
    const hit = m.pick(cam, at[0] + 2, at[1] - 1, 400, 300);
    expect(hit).toEqual({ bone: rig.byKey.get('左ひじ'), name: '左ひじ', track: 0 });
    expect(m.pick(cam, 2, 2, 400, 300)).toBeNull();
    expect(m.screenPosition(cam, '存在しない骨', 400, 300)).toBeNull();
  });

  it('puts the mark on the joint, facing the camera, 10 px in radius on screen; hidden without a drawn model', () => {
    const { rig } = figure();
    const m = new PickMarker();
    m.rebind(rig, new Int32Array(0));
    const cam = camera();
    m.place(cam, 300, true);
    expect(m.shown).toBe(false);
    m.mark('頭');
    m.place(cam, 300, true);
    expect(m.shown).toBe(true);
    const joint = new THREE.Vector3().setFromMatrixPosition(rig.bones[rig.byKey.get('頭')!].matrixWorld);
    expect(m.group.position.distanceTo(joint)).toBeLessThan(1e-9);
    // World units per CSS px at the joint's depth: 2·depth·tan(fov/2) / height.
    const depth = -joint.clone().applyMatrix4(cam.matrixWorldInverse).z;
    const unitsPerPx = (2 * depth * Math.tan((15 * Math.PI) / 180)) / 300;
    expect(m.group.scale.x).toBeCloseTo(MARK_RADIUS_PX * unitsPerPx, 9);
    expect(m.group.quaternion.angleTo(cam.quaternion)).toBeLessThan(1e-6);
    m.place(cam, 300, false);
    expect(m.shown).toBe(false);
  });

  it('disposes the geometries and materials of the mark', () => {
    const m = new PickMarker();
    let disposed = 0;
    for (const part of m.group.children as THREE.Mesh<THREE.BufferGeometry, THREE.Material>[]) {
      part.geometry.addEventListener('dispose', () => disposed++);
      part.material.addEventListener('dispose', () => disposed++);
    }
    m.dispose();
    expect(disposed).toBe(6);
  });
});
