// The import dialog's pure parts: a saved joint map is read back by the command line's own --map parser
// (shared/motion-ops/rename.ts parseMapping) as the same rows, odd names included; a file's format from its
// name; a BVH error phrased with its line in both languages.
import { describe, expect, it } from 'vitest';
import { mappingCsv, parseMapping } from '../../shared/motion-ops/rename';
import { mocapFormatOf } from '../../renderer/src/stores/mocap';
import { describeError } from '../../renderer/src/stores/notify';

describe('mocap import helpers', () => {
  it('writes map rows that --map reads back as the same rows (quotes, commas, tabs, line breaks and inner spaces kept; the BVH reader trims the ends of a joint name)', () => {
    const rows: [string, string][] = [
      ['Hips', 'hips'],
      ['LeftCollar', '-'],
      ['mixamorig:Left Arm', 'leftUpperArm'],
      ['odd,name', '左腕'],
      ['say "hi"', 'rightHand'],
      ['tab\there', 'leftHand'],
      ['two\nlines', 'head'],
    ];
    const text = mappingCsv(rows);
    const back = parseMapping(text);
    expect(back.ok, JSON.stringify(!back.ok && back.error)).toBe(true);
    if (back.ok) expect([...back.value.bones]).toEqual(rows);
  });

  it('knows a capture by its extension, in any case', () => {
    expect(mocapFormatOf('/m/131_01.BVH')).toBe('bvh');
    expect(mocapFormatOf('C:\\x\\dance.vrma')).toBe('vrma');
    expect(mocapFormatOf('dance.vmd')).toBeNull();
    expect(mocapFormatOf('bvh')).toBeNull();
  });

  it("says a BVH error's file and line, in English and in Japanese", () => {
    const e = { code: 'E_BVH_CHANNELS' as const, message: 'frame 5 has 95 values; the hierarchy has 96 channels', file: '/data/walk.bvh', line: 12 };
    expect(describeError(e, 'en')).toEqual({ message: 'walk.bvh: frame 5 has 95 values; the hierarchy has 96 channels (line 12)', detail: 'E_BVH_CHANNELS' });
    const ja = describeError(e, 'ja');
    expect(ja.message).toBe('walk.bvh: BVH の関節またはフレームのチャンネル数が合いません（12 行目）');
    expect(ja.detail).toContain('frame 5 has 95 values');
  });
});
