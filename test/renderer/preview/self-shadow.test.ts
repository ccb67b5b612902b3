/**
 * Self-shadow keys in the preview (motion-driver.ts, preview-scene.ts): the key at or before a frame
 * decides (before the first key: the first), no keys is off; the light casts a shadow map only while a
 * key's mode is 1 or 2: mode 1 over a square sized by the key's distance (MMD's default 0.01125: 50 units),
 * mode 2 over the drawing camera's view from its near plane out to twice that half side, fitted tightly
 * (the eight corners of that slice of the view, computed here, touch the shadow map's four edges).
 */
import { describe, expect, it } from 'vitest';
import * as THREE from 'three';
import { readVmd, buildTracks } from '../../../shared/vmd';
import { buildFixture } from '../../helpers/vmd-fixtures';
import { selfShadowAt, shadowKeysOf } from '../../../renderer/src/preview/motion-driver';
import { PreviewScene, shadowHalfExtent } from '../../../renderer/src/preview/preview-scene';

const SHADOWS = [
  { frame: 10, mode: 1, distance: 0.01125 },
  { frame: 30, mode: 0, distance: 0.05 },
  { frame: 50, mode: 2, distance: 0.02 },
];

describe('self-shadow keys', () => {
  const doc = readVmd(buildFixture({ shadows: SHADOWS }));
  if (!doc.ok) throw new Error(doc.error.message);
  const keys = shadowKeysOf(doc.value, buildTracks(doc.value));

  it('switch on their frame, never blend', () => {
    const at = (f: number) => {
      const s = selfShadowAt(keys, f);
      return [s.mode, +s.distance.toFixed(5)];
    };
    expect([at(0), at(10), at(29.5), at(30), at(49), at(50), at(999)]).toEqual([[1, 0.01125], [1, 0.01125], [1, 0.01125], [0, 0.05], [0, 0.05], [2, 0.02], [2, 0.02]]);
    expect(selfShadowAt(null, 5).mode).toBe(0);
  });

  it('turn the light’s shadow map on and size it by the distance', () => {
    const w = new PreviewScene(false);
    expect(w.light.castShadow).toBe(false);
    w.setSelfShadow(selfShadowAt(keys, 10));
    expect(w.light.castShadow).toBe(true);
    expect(w.light.shadow.camera.right).toBeCloseTo(25, 4);
    expect(shadowHalfExtent(0.0225)).toBeCloseTo(50, 6);
    w.setSelfShadow(selfShadowAt(keys, 30));
    expect(w.light.castShadow).toBe(false);
    w.setSelfShadow(selfShadowAt(keys, 60));
    expect(w.light.castShadow).toBe(true);
    expect(w.selfShadow.mode).toBe(2);
    w.setSelfShadow(selfShadowAt(keys, 10));
    expect(w.light.shadow.camera.right).toBeCloseTo(25, 4);
    w.dispose();
  });

  it('mode 2 fits the map to the drawing camera\'s view out to twice the half side, and follows the camera', () => {
    const w = new PreviewScene(false);
    w.setSelfShadow(selfShadowAt(keys, 60));
    const reach = 2 * shadowHalfExtent(Math.fround(0.02));
    const ndcOfCorners = (cam: THREE.PerspectiveCamera) => {
      w.fitShadowToView(cam);
      w.light.shadow.updateMatrices(w.light);
      const tan = Math.tan((cam.fov / 2) * (Math.PI / 180));
      const out: THREE.Vector3[] = [];
      for (const z of [cam.near, cam.near + reach])
        for (const sx of [-1, 1])
          for (const sy of [-1, 1]) out.push(new THREE.Vector3(sx * z * tan * cam.aspect, sy * z * tan, -z).applyMatrix4(cam.matrixWorld).applyMatrix4(w.light.shadow.matrix));
      return out; // shadow-map coordinates: x, y in 0…1 across the map
    };
    const cam = new THREE.PerspectiveCamera(30, 16 / 9, 0.5, 2000);
    cam.position.set(0, 10, 45);
    cam.lookAt(0, 10, 0);
    cam.updateMatrixWorld(true);
    const a = ndcOfCorners(cam);
    for (const p of a) {
      expect(p.x).toBeGreaterThanOrEqual(-1e-6);
      expect(p.x).toBeLessThanOrEqual(1 + 1e-6);
      expect(p.y).toBeGreaterThanOrEqual(-1e-6);
      expect(p.y).toBeLessThanOrEqual(1 + 1e-6);
      expect(p.z).toBeGreaterThan(0);
      expect(p.z).toBeLessThan(1);
    }
    // Tight: the corners reach every edge of the map.
    expect(Math.min(...a.map((p) => p.x))).toBeCloseTo(0, 5);
    expect(Math.max(...a.map((p) => p.x))).toBeCloseTo(1, 5);
    expect(Math.min(...a.map((p) => p.y))).toBeCloseTo(0, 5);
    expect(Math.max(...a.map((p) => p.y))).toBeCloseTo(1, 5);
    const firstTarget = w.light.target.position.clone();
    // Another camera, another map: it follows the view.
    cam.position.set(30, 20, -10);
    cam.lookAt(0, 10, 0);
    cam.updateMatrixWorld(true);
    const b = ndcOfCorners(cam);
    expect(Math.max(...b.map((p) => p.x))).toBeCloseTo(1, 5);
    expect(w.light.target.position.distanceTo(firstTarget)).toBeGreaterThan(10);
    w.dispose();
  });
});
