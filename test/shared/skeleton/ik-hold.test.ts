/** Which IK holds a bone at a frame (shared/skeleton/ik-switches.ts), from a motion's 表示・IK keys and a model's IK chains. */
import { describe, expect, it } from 'vitest';
import { buildTracks, readVmd } from '../../../shared/vmd';
import { encodeSjis } from '../../../shared/vmd/sjis';
import type { ModelBone } from '../../../shared/pmx/model-types';
import { ikChainsOf, ikEnabledAt, iksHoldingAt, ikSwitchesOf } from '../../../shared/skeleton/ik-switches';
import { buildFixture } from '../../helpers/vmd-fixtures';

const sj = (s: string) => Array.from(encodeSjis(s));
const bone = (name: string, ik: ModelBone['ik'] = null) => ({ name, ik }) as unknown as ModelBone;
/** 0 右足, 1 右ひざ, 2 右足首, 3 右足ＩＫ (links 右ひざ, 右足), 4 右つま先ＩＫ (link 右足首), 5 センター. */
const BONES = [
  bone('右足'),
  bone('右ひざ'),
  bone('右足首'),
  bone('右足ＩＫ', { target: 2, loopCount: 40, limitAngle: 2, links: [{ bone: 1, limits: null }, { bone: 0, limits: null }] }),
  bone('右つま先ＩＫ', { target: 2, loopCount: 3, limitAngle: 4, links: [{ bone: 2, limits: null }] }),
  bone('センター'),
];

function switches() {
  // 右足ＩＫ: on at 0 (named), off at 30, on at 60; 右つま先ＩＫ named only at 30, off.
  const bytes = buildFixture({
    ik: [
      { frame: 0, visible: 1, iks: [{ name: sj('右足ＩＫ'), enabled: 1 }] },
      { frame: 30, visible: 1, iks: [{ name: sj('右足ＩＫ'), enabled: 0 }, { name: sj('右つま先ＩＫ'), enabled: 0 }] },
      { frame: 60, visible: 1, iks: [{ name: sj('右足ＩＫ'), enabled: 1 }] },
    ],
  });
  const r = readVmd(bytes);
  if (!r.ok) throw new Error('fixture');
  return ikSwitchesOf(r.value, buildTracks(r.value));
}

describe('iksHoldingAt', () => {
  it('chains: each IK bone with its links by name, bones without IK left out', () => {
    expect(ikChainsOf(BONES)).toEqual([
      { ik: '右足ＩＫ', links: ['右ひざ', '右足'] },
      { ik: '右つま先ＩＫ', links: ['右足首'] },
    ]);
  });

  it('steps at the keys: off from 30 until the on key at 60; a name first listed at 30 is on before it', () => {
    const sw = switches();
    expect([0, 29, 30, 59, 60, 100].map((f) => ikEnabledAt(sw, '右足ＩＫ', f))).toEqual([true, true, false, false, true, true]);
    expect([0, 29, 30, 100].map((f) => ikEnabledAt(sw, '右つま先ＩＫ', f))).toEqual([true, true, false, false]);
    expect(ikEnabledAt(sw, '左足ＩＫ', 40)).toBe(true);
  });

  it('the knee and the thigh follow 右足ＩＫ where it is on; the ankle 右つま先ＩＫ; センター nothing', () => {
    const sw = switches(), chains = ikChainsOf(BONES);
    expect(iksHoldingAt(chains, sw, '右ひざ', 10)).toEqual(['右足ＩＫ']);
    expect(iksHoldingAt(chains, sw, '右足', 10)).toEqual(['右足ＩＫ']);
    expect(iksHoldingAt(chains, sw, '右ひざ', 45)).toEqual([]);
    expect(iksHoldingAt(chains, sw, '右ひざ', 60)).toEqual(['右足ＩＫ']);
    expect(iksHoldingAt(chains, sw, '右足首', 10)).toEqual(['右つま先ＩＫ']);
    expect(iksHoldingAt(chains, sw, '右足首', 45)).toEqual([]);
    expect(iksHoldingAt(chains, sw, 'センター', 10)).toEqual([]);
  });
});
