// Register on the Light row (report nulight, finding 1): the new key holds the light as it is at that frame,
// linear between the keys around it (as the preview and `sample` show it, and as MMD's 照明 → 登録 stores it),
// not a copy of the key before. The fixture is written field by field (test/helpers/vmd-fixtures.ts).
import { describe, expect, it } from 'vitest';
import { buildTracks, writeVmd } from '../../../shared/vmd';
import { insertKey, revertDiff } from '../../../shared/key-edits';
import { buildFixture } from '../../helpers/vmd-fixtures';
import { accepted as ok, readOk as parse } from '../../helpers/key-edit';

// Keys at 0, 100 and 300 (file order 100, 0, 300: the track is sorted by frame, the file is not).
const BYTES = buildFixture({
  lights: [
    { frame: 100, color: [0.6, 0, 1], direction: [1, -1, 0] },
    { frame: 0, color: [0.2, 0.4, 0.6], direction: [-1, 0, 0] },
    { frame: 300, color: [1, 1, 1], direction: [0, -1, -1] },
  ],
});
/** The light record i read straight from file bytes: header 50, bone/morph/camera counts 0, light count, 28 bytes each. */
function light(bytes: Uint8Array, i: number): { frame: number; color: number[]; direction: number[] } {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const o = 50 + 4 + 4 + 4 + 4 + 28 * i;
  const f = (k: number) => v.getFloat32(o + 4 + 4 * k, true);
  return { frame: v.getUint32(o, true), color: [f(0), f(1), f(2)], direction: [f(3), f(4), f(5)] };
}
function close(got: number[], want: number[]) {
  expect(got.length).toBe(want.length);
  got.forEach((g, i) => expect(g).toBeCloseTo(want[i], 6));
}

describe('register on the Light row', () => {
  const doc = parse(BYTES);
  const tracks = buildTracks(doc);

  it('between two keys stores the linear light at that frame', () => {
    // Frame 25 is a quarter of the way from 0 to 100: colour 0.2 + 0.4/4, 0.4 − 0.4/4, 0.6 + 0.4/4; direction −1 + 2/4, −1/4, 0.
    const e = ok(insertKey(doc, tracks, { kind: 'light' }, 25));
    expect(e.record).toBe(3);
    const out = writeVmd(e.doc);
    const k = light(out, 3);
    expect(k.frame).toBe(25);
    close(k.color, [0.3, 0.3, 0.7]);
    close(k.direction, [-0.5, -0.25, 0]);
    // Frame 250 is three quarters of the way from 100 to 300: colour 0.6 + 0.4·¾, 0 + ¾, 1; direction 1 − ¾, −1, −¾.
    const k2 = light(writeVmd(ok(insertKey(doc, tracks, { kind: 'light' }, 250)).doc), 3);
    close(k2.color, [0.9, 0.75, 1]);
    close(k2.direction, [0.25, -1, -0.75]);
    // The other records keep their bytes and the step undoes to the original file.
    expect(out.subarray(50 + 16, 50 + 16 + 3 * 28)).toEqual(BYTES.subarray(50 + 16, 50 + 16 + 3 * 28));
    expect(writeVmd(revertDiff(e.doc, e.diff))).toEqual(BYTES);
  });

  it('after the last key holds the last key; on an empty track MMD’s default light', () => {
    const k = light(writeVmd(ok(insertKey(doc, tracks, { kind: 'light' }, 400)).doc), 3);
    close(k.color, [1, 1, 1]);
    close(k.direction, [0, -1, -1]);
    const empty = parse(buildFixture({ cameras: [{ frame: 0, distance: -45, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 }] }));
    const e = ok(insertKey(empty, buildTracks(empty), { kind: 'light' }, 12));
    const v = e.doc.light.view;
    expect(v.getUint32(0, true)).toBe(12);
    close([1, 2, 3, 4, 5, 6].map((c) => v.getFloat32(4 * c, true)), [0.602, 0.602, 0.602, -0.5, -1, 0.5]);
  });
});
