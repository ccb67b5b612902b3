// The Bake physics dialog's plot (PhysicsBakeDialog.vue through fit-preview.ts): a physics bone the dance has
// no keys for (Gene_light's イヤリング1_1 under wavefile_v2) plays its rest pose in the original, so the plot's
// original is a flat line at 0° and the result the baked turn, two series with points — not nothing (the
// canvas was one solid colour). The bone shown by default is the baked bone that changes most.
import { describe, expect, it } from 'vitest';
import { buildTracks, buildVmd } from '../../../shared/vmd';
import { newReport } from '../../../shared/edit-core/report';
import { mostChangedBone, previewOverlay } from '../../../renderer/src/stores/fit-preview';

const ID = [0, 0, 0, 1];
/** A turn of `deg` degrees about X as a quaternion. */
const turnX = (deg: number) => [Math.sin((deg * Math.PI) / 360), 0, 0, Math.cos((deg * Math.PI) / 360)];

// The dance: センター and 髪 keyed, イヤリング not at all.
const before = buildTracks(buildVmd({
  bones: [
    { name: 'センター', frame: 0, position: [0, 0, 0], rotation: ID },
    { name: '髪', frame: 0, position: [0, 0, 0], rotation: turnX(5) },
    { name: '髪', frame: 30, position: [0, 0, 0], rotation: turnX(5) },
  ],
}));
// The bake: 髪 turned a little more, イヤリング swinging 40° and back.
const after = buildTracks(buildVmd({
  bones: [
    { name: 'センター', frame: 0, position: [0, 0, 0], rotation: ID },
    { name: '髪', frame: 0, position: [0, 0, 0], rotation: turnX(5) },
    { name: '髪', frame: 30, position: [0, 0, 0], rotation: turnX(8) },
    { name: 'イヤリング', frame: 0, position: [0, 0, 0], rotation: ID },
    { name: 'イヤリング', frame: 15, position: [0, 0, 0], rotation: turnX(40) },
    { name: 'イヤリング', frame: 30, position: [0, 0, 0], rotation: ID },
  ],
}));

describe('Bake physics plot', () => {
  it('plots a bone the original has no keys for: the original flat at its rest, the result its turn', () => {
    const o = previewOverlay({ before, after, report: newReport('bake'), factor: 1, span: { from: 0, to: 30 } }, 'bone', 'イヤリング', 3, 31);
    expect(o).not.toBeNull();
    expect(o!.original).toHaveLength(31);
    expect(o!.result).toHaveLength(31);
    expect(Array.from(o!.original)).toEqual(new Array(31).fill(0));
    expect(o!.result[15]).toBeCloseTo(40, 3);
    expect(o!.result[0]).toBeCloseTo(0, 6);
    // A bone in neither motion is still nothing to plot.
    expect(previewOverlay({ before, after, report: newReport('bake'), factor: 1, span: { from: 0, to: 30 } }, 'bone', '無い', 3, 31)).toBeNull();
  });

  it('shows by default the baked bone that changes most (not the first the dance has keys for)', () => {
    expect(mostChangedBone(before, after, ['髪', 'イヤリング'], 0, 30)).toBe('イヤリング');
    expect(mostChangedBone(before, after, ['髪'], 0, 30)).toBe('髪');
    expect(mostChangedBone(before, after, [], 0, 30)).toBeNull();
  });
});
