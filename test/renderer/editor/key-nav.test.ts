// Previous/next key and range select over a small hand-built motion: bone A at 0, 10, 40; bone B at 5,
// 25; camera at 0, 60. Expected frames and records are read off that table.
import { describe, expect, it } from 'vitest';
import { buildTracks } from '../../../shared/vmd';
import { twoBoneMotion } from './two-bone-fixture';
import { adjacentKeyFrame, allTracks, frameSpan, keysInRange, tracksOfKeys } from '../../../renderer/src/editor/key-nav';

// Camera keys in file order 60, 0.
const doc = twoBoneMotion([60, 0]);
const tracks = buildTracks(doc);
const A = tracks.bones.names.indexOf('A'), B = tracks.bones.names.indexOf('B');
const counts = { bone: doc.bone.count, morph: doc.morph.count, camera: doc.camera.count, light: doc.light.count, shadow: doc.shadow.count, ik: doc.ik.count };

describe('previous / next key', () => {
  it('of one track', () => {
    const a = [{ kind: 'bone' as const, track: A }];
    expect(adjacentKeyFrame(tracks, a, 0, 1)).toBe(10);
    expect(adjacentKeyFrame(tracks, a, 10, 1)).toBe(40);
    expect(adjacentKeyFrame(tracks, a, 40, 1)).toBeNull();
    expect(adjacentKeyFrame(tracks, a, 40, -1)).toBe(10);
    expect(adjacentKeyFrame(tracks, a, 12.5, -1)).toBe(10);
    expect(adjacentKeyFrame(tracks, a, 9.5, 1)).toBe(10);
    expect(adjacentKeyFrame(tracks, a, 0, -1)).toBeNull();
  });
  it('of several tracks and of every track', () => {
    const ab = [{ kind: 'bone' as const, track: A }, { kind: 'bone' as const, track: B }];
    expect(adjacentKeyFrame(tracks, ab, 10, 1)).toBe(25);
    expect(adjacentKeyFrame(tracks, ab, 10, -1)).toBe(5);
    const all = allTracks(tracks);
    expect(all).toHaveLength(3);
    expect(adjacentKeyFrame(tracks, all, 40, 1)).toBe(60);
    expect(adjacentKeyFrame(tracks, all, 60, -1)).toBe(40);
  });
  it('the selected tracks: the active one and those of the selected keys', () => {
    // Record 4 is B@5; active track the camera.
    const ids = tracksOfKeys(tracks, [{ kind: 'bone', record: 4 }, { kind: 'bone', record: 1 }], counts, { kind: 'camera', track: 0 });
    expect(ids).toEqual([{ kind: 'camera', track: 0 }, { kind: 'bone', track: B }]);
  });
});

describe('range select', () => {
  it('keys of the chosen tracks between two frames, inclusive', () => {
    const a = [{ kind: 'bone' as const, track: A }];
    expect(keysInRange(tracks, a, 10, 40).map((r) => r.record)).toEqual([3, 0]);
    expect(keysInRange(tracks, a, 40, 10).map((r) => r.record)).toEqual([3, 0]);
    expect(keysInRange(tracks, a, 11, 39)).toEqual([]);
    const all = keysInRange(tracks, allTracks(tracks), 0, 30);
    expect(all.map((r) => `${r.kind}${r.record}`).sort()).toEqual(['bone1', 'bone2', 'bone3', 'bone4', 'camera1']);
  });
  it('the frame span of a selection', () => {
    expect(frameSpan(tracks, [{ kind: 'bone', record: 4 }, { kind: 'camera', record: 0 }], counts)).toEqual([5, 60]);
    expect(frameSpan(tracks, [], counts)).toBeNull();
  });
});
