/** Where a motion's 表示・IK keys turn IK bones off or hide the model (shared/skeleton/ik-switches.ts ikSpansOf), for the timeline's shading. */
import { describe, expect, it } from 'vitest';
import { buildTracks, readVmd } from '../../../shared/vmd';
import { encodeSjis } from '../../../shared/vmd/sjis';
import { ikSpansOf } from '../../../shared/skeleton/ik-switches';
import { buildFixture } from '../../helpers/vmd-fixtures';

const sj = (s: string) => Array.from(encodeSjis(s));
const R = sj('右足ＩＫ'), L = sj('左足ＩＫ');

function spans(ik: Parameters<typeof buildFixture>[0]['ik']) {
  const r = readVmd(buildFixture({ ik }));
  if (!r.ok) throw new Error('fixture');
  return ikSpansOf(r.value, buildTracks(r.value));
}

describe('ikSpansOf', () => {
  it('the report’s keys: 右足ＩＫ off at 10, 左足ＩＫ also off at 50, all on at 70; display off 40–49', () => {
    const got = spans([
      { frame: 0, visible: 1, iks: [{ name: R, enabled: 1 }, { name: L, enabled: 1 }] },
      { frame: 10, visible: 1, iks: [{ name: R, enabled: 0 }, { name: L, enabled: 1 }] },
      { frame: 40, visible: 0, iks: [{ name: R, enabled: 0 }, { name: L, enabled: 1 }] },
      { frame: 50, visible: 1, iks: [{ name: R, enabled: 0 }, { name: L, enabled: 0 }] },
      { frame: 70, visible: 1, iks: [{ name: R, enabled: 1 }, { name: L, enabled: 1 }] },
    ]);
    // 10–49 右 only (the display key at 40 leaves IK as it was: one span), 50–69 both.
    expect(got.off).toEqual([
      { from: 10, to: 50, names: ['右足ＩＫ'] },
      { from: 50, to: 70, names: ['右足ＩＫ', '左足ＩＫ'] },
    ]);
    expect(got.hidden).toEqual([{ from: 40, to: 50 }]);
  });

  it('a key naming one IK keeps the others as they were; off to the end when no key turns it back on', () => {
    const got = spans([
      { frame: 0, visible: 0, iks: [{ name: L, enabled: 0 }] },
      { frame: 20, visible: 0, iks: [{ name: R, enabled: 0 }] },
    ]);
    expect(got.off).toEqual([
      { from: 0, to: 20, names: ['左足ＩＫ'] },
      { from: 20, to: Infinity, names: ['左足ＩＫ', '右足ＩＫ'] },
    ]);
    expect(got.hidden).toEqual([{ from: 0, to: Infinity }]);
  });

  it('no key turns anything off: no spans', () => {
    expect(spans([{ frame: 0, visible: 1, iks: [{ name: R, enabled: 1 }] }])).toEqual({ off: [], hidden: [] });
    expect(spans([])).toEqual({ off: [], hidden: [] });
  });
});
