/**
 * Self-shadow keys in the preview (motion-driver.ts, preview-scene.ts): the key at or before a frame
 * decides (before the first key: the first), no keys is off; the light casts a shadow map only while a
 * key's mode is 1 or 2, over a square sized by the key's distance (MMD's default 0.01125: 50 units).
 */
import { describe, expect, it } from 'vitest';
import { readVmd, buildTracks } from '../../shared/vmd';
import { buildFixture } from '../helpers/vmd-fixtures';
import { selfShadowAt, shadowKeysOf } from '../../renderer/src/preview/motion-driver';
import { PreviewScene, shadowHalfExtent } from '../../renderer/src/preview/preview-scene';

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
    expect(w.light.shadow.camera.right).toBeCloseTo(shadowHalfExtent(Math.fround(0.02)), 6);
    w.dispose();
  });
});
