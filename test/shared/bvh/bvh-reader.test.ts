// The BVH reader: the CMU capture read in full, files written here (another channel order, two roots,
// End Sites, 30 fps), and bad files refused with their code and line, before anything is allocated.
import { describe, expect, it } from 'vitest';
import { readBvh, MAX_BVH_VALUES } from '../../../shared/bvh/bvh-reader';
import { formatError } from '../../../shared/vmd/errors';
import { bvhWorldAt } from '../../../shared/bvh/bvh-pose';
import { corpusPresent, readCorpus } from '../../helpers/corpus';

const SMALL = `HIERARCHY
ROOT Pelvis
{
  OFFSET 1 2 3
  CHANNELS 6 Xrotation Zposition Yrotation Xposition Zrotation Yposition
  JOINT Leg
  {
    OFFSET 0 -5 0
    CHANNELS 3 Xrotation Yrotation Zrotation
    End Site
    {
      OFFSET 0 -4 0
    }
  }
}
ROOT Prop
{
  OFFSET 10 0 0
  CHANNELS 3 Xposition Yposition Zposition
}
MOTION
Frames: 2
Frame Time: 0.0333333
0 3 0 1 0 2  90 0 0  0 0 0
0 0 0 0 0 0  0 0 90  1 1 1
`;

describe('readBvh', () => {
  it('reads channels in the order written, two roots and End Sites', () => {
    const r = readBvh(SMALL);
    if (!r.ok) throw new Error(r.error.message);
    const m = r.value;
    expect(m.joints.map((j) => j.name)).toEqual(['Pelvis', 'Leg', 'Leg_End', 'Prop']);
    expect(m.roots).toEqual([0, 3]);
    expect(m.channelCount).toBe(12);
    expect(m.frameCount).toBe(2);
    expect(m.frameTime).toBeCloseTo(1 / 30, 6);
    expect(m.joints[0].channels).toEqual(['Xrotation', 'Zposition', 'Yrotation', 'Xposition', 'Zrotation', 'Yposition']);
    expect(m.joints[3].channelStart).toBe(9);
    // Frame 0: the pelvis at its position channels (x 1, y 2, z 3), which replace its OFFSET (1 2 3 here
    // too: Blender writes the OFFSET as the rest position and the channels as the position), (1, 2, −3) in
    // MMD; the leg 5 below it, turned 90° about X, so its End Site (4 below the leg) swings toward −Z (BVH) =
    // +Z (MMD): BVH (1, −3, 3 − 4).
    const w = bvhWorldAt(m, 0);
    expect(Array.from(w.position.subarray(0, 3))).toEqual([1, 2, -3]);
    const end = Array.from(w.position.subarray(6, 9));
    expect(end[0]).toBeCloseTo(1, 9);
    expect(end[1]).toBeCloseTo(-3, 9);
    expect(end[2]).toBeCloseTo(-(3 - 4), 9);
    // Frame 1: the pelvis at (0, 0, 0), not at its OFFSET; 90° about Z on the leg: the End Site swings
    // toward +X (BVH and MMD alike). The prop (OFFSET 10 0 0) at its channels (1, 1, 1), not 10 further.
    const w1 = bvhWorldAt(m, 1);
    expect(Array.from(w1.position.subarray(0, 3)).map((x) => x + 0)).toEqual([0, 0, 0]);
    expect(w1.position[6]).toBeCloseTo(4, 9);
    expect(w1.position[7]).toBeCloseTo(-5, 9);
    expect(Array.from(w1.position.subarray(9, 12))).toEqual([1, 1, -1]);
    // The rest pose is the OFFSETs alone.
    const rest = bvhWorldAt(m, -1);
    expect(Array.from(rest.position.subarray(0, 3))).toEqual([1, 2, -3]);
    expect(Array.from(rest.position.subarray(9, 12)).map((x) => x + 0)).toEqual([10, 0, 0]);
  });

  it.skipIf(!corpusPresent)('reads the CMU walk (3ds Max-friendly release, 120 fps)', () => {
    const r = readBvh(readCorpus('bvh11/resources/131_01.bvh'));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.joints.filter((j) => !j.endSite)).toHaveLength(31);
    expect(r.value.channelCount).toBe(96);
    expect(r.value.frameCount).toBe(994);
    expect(r.value.frameTime).toBeCloseTo(1 / 120, 6);
    expect(r.value.values[0]).toBeCloseTo(5.23, 6);
    expect(r.value.values[95]).toBeCloseTo(-0.2728, 6);
  });

  const bad: [string, string, string, number][] = [
    ['truncated hierarchy', SMALL.slice(0, SMALL.indexOf('End Site') + 12), 'E_BVH_TRUNCATED', 11],
    // Frames: 2 with one frame's text after it: refused at the Frames line, from the text's length.
    ['truncated frames', SMALL.replace(/0 0 0 0 0 0  0 0 90  1 1 1\n/, ''), 'E_BVH_TRUNCATED', 22],
    ['a CHANNELS count that disagrees with its names', SMALL.replace('CHANNELS 3 Xrotation Yrotation Zrotation', 'CHANNELS 4 Xrotation Yrotation Zrotation'), 'E_BVH_CHANNELS', 9],
    ['a frame with one value too few', SMALL.replace('0 0 0 0 0 0  0 0 90  1 1 1', '0 0 0 0 0 0  0 0 90  1 1'), 'E_BVH_CHANNELS', 25],
    ['NaN in the motion', SMALL.replace('0 0 0 0 0 0  0 0 90', '0 0 0 NaN 0 0  0 0 90'), 'E_BVH_NUMBER', 25],
    ['Infinity in an OFFSET', SMALL.replace('OFFSET 0 -5 0', 'OFFSET 0 Infinity 0'), 'E_BVH_NUMBER', 8],
    // Finite, but the import's scaled and summed positions would be Infinity in a VMD's float32 keys.
    ['1e308 in the motion', SMALL.replace('0 0 0 0 0 0  0 0 90', '0 1e308 0 0 0 0  0 0 90'), 'E_BVH_NUMBER', 25],
    ['-2e7 in an OFFSET', SMALL.replace('OFFSET 0 -5 0', 'OFFSET 0 -2e7 0'), 'E_BVH_NUMBER', 8],
    ['an unknown channel', SMALL.replace('Xrotation Yrotation Zrotation', 'Xrotation Yrotation Wrotation'), 'E_BVH_CHANNELS', 9],
    ['more frame lines than declared', SMALL + '0 0 0 0 0 0 0 0 0 0 0 0\n', 'E_BVH_CHANNELS', 26],
    ['not BVH', 'Vocaloid Motion Data 0002', 'E_BVH_SYNTAX', 1],
  ];
  for (const [what, text, code, line] of bad) {
    it(`refuses ${what} with ${code} at line ${line}`, () => {
      const r = readBvh(text);
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error.code).toBe(code);
      expect(r.error.line).toBe(line);
      expect(formatError(r.error)).toMatch(new RegExp(` \\(line ${line}\\)$`));
    });
  }

  it('a Frame Time that is not a number of seconds in (0, 60] is refused at its line, naming --fps; with a frame rate given it is ignored, with a warning', () => {
    for (const ft of ['0', '-0.0083', 'abc', '61']) {
      const text = SMALL.replace('Frame Time: 0.0333333', `Frame Time: ${ft}`);
      const r = readBvh(text);
      expect(r.ok, ft).toBe(false);
      if (r.ok) return;
      expect(r.error.code).toBe('E_BVH_NUMBER');
      expect(r.error.line).toBe(23);
      expect(r.error.message).toContain('--fps N');
      const g = readBvh(text, { fps: 120 });
      if (!g.ok) throw new Error(g.error.message);
      expect(g.value.frameTime).toBe(1 / 120);
      expect(g.value.frameCount).toBe(2);
      expect(g.diagnostics.map((d) => d.code)).toEqual(['W_BVH_FRAME_TIME']);
      expect(g.diagnostics[0].message).toMatch(/\(line 23\): ignored, the frames taken at the 120 fps given$/);
    }
    // A Frame Time that is one is read as it is, the rate given or not (the import takes the rate given); a
    // rate given over it is said (W_BVH_FPS_OVERRIDE: --fps is for a wrong one), the file's own rate is not.
    const v = readBvh(SMALL, { fps: 120 });
    if (!v.ok) throw new Error(v.error.message);
    expect(v.value.frameTime).toBe(0.0333333);
    expect(v.diagnostics.map((d) => [d.code, d.message, d.params])).toEqual([
      ['W_BVH_FPS_OVERRIDE', "--fps 120 overrides the file's Frame Time (30 fps): it plays 4× faster than captured (--fps is for a Frame Time that is wrong)", { fps: 120, fileFps: 30, frameTime: '0.0333333', line: 23, times: '4×', slower: 0 }],
    ]);
    const own = readBvh(SMALL, { fps: 30 });
    expect(own.ok && own.diagnostics).toEqual([]);
  });

  it('refuses 10 million frames declared before allocating them', () => {
    // 10,000,000 × 12 values would be 960 MB of float64; the text holds two frames. The refusal comes
    // from the counts alone: the same file with the frames declared as fit reads.
    const text = SMALL.replace('Frames: 2', 'Frames: 10000000');
    const r = readBvh(text);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('E_BVH_TOO_LARGE');
      expect(r.error.line).toBe(22);
    }
    // Within the importer's limit but more than the text holds: truncated, still before allocating.
    const r2 = readBvh(SMALL.replace('Frames: 2', `Frames: ${Math.floor(MAX_BVH_VALUES / 12)}`));
    expect(!r2.ok && r2.error.code).toBe('E_BVH_TRUNCATED');
    expect(!r2.ok && r2.error.message).toMatch(/holds at most \d+/);
  });
});
