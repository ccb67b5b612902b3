import { describe, expect, it } from 'vitest';
import { BoneNameIndex, boneKeys, canonicalBoneName, matchBones, morphKey, normalizeName, splitSide } from '../../../shared/retarget/bone-names';

describe('bone name normalisation', () => {
  it('folds full- and half-width forms', () => {
    expect(normalizeName('上半身２')).toBe('上半身2');
    expect(normalizeName('左足ＩＫ')).toBe('左足ik');
    expect(normalizeName('ｸﾞﾙｰﾌﾞ')).toBe('グルーブ');
    expect(normalizeName('左親指０')).toBe('左親指0');
    expect(canonicalBoneName('右つま先ＩＫ')).toBe(canonicalBoneName('右つま先IK'));
    expect(canonicalBoneName('上半身２')).toBe(canonicalBoneName('上半身2'));
    // a cut last character (U+FFFD from a 15-byte field) does not count
    expect(normalizeName('左スカート\uFFFD')).toBe('左スカート');
  });

  it('reads the side from 左/右 and L/R spellings', () => {
    expect(splitSide(normalizeName('左腕'))).toEqual({ side: 'L', base: '腕' });
    expect(splitSide(normalizeName('arm_R'))).toEqual({ side: 'R', base: 'arm' });
    expect(splitSide(normalizeName('L_Arm'))).toEqual({ side: 'L', base: 'arm' });
    expect(splitSide(normalizeName('Arm.L'))).toEqual({ side: 'L', base: 'arm' });
    expect(splitSide(normalizeName('LeftThumb1'))).toEqual({ side: 'L', base: 'thumb1' });
    // a name that merely ends in l or r is not a side
    expect(splitSide(normalizeName('mother'))).toEqual({ side: '', base: 'mother' });
    expect(canonicalBoneName('arm_L')).toBe('左腕');
    expect(canonicalBoneName('Arm.R')).toBe('右腕');
    expect(canonicalBoneName('leg IK_L')).toBe('左足ik');
    expect(canonicalBoneName('elbow_R')).toBe('右ひじ');
  });

  it('maps English names and semi-standard spellings to the Japanese names', () => {
    expect(canonicalBoneName('upper body')).toBe('上半身');
    expect(canonicalBoneName('upper body2')).toBe(canonicalBoneName('上半身2'));
    expect(canonicalBoneName('groove')).toBe('グルーブ');
    expect(canonicalBoneName('center')).toBe('センター');
    expect(canonicalBoneName('右肘')).toBe('右ひじ');
    expect(canonicalBoneName('左腕捻')).toBe('左腕捩');
    expect(canonicalBoneName('左人差指１')).toBe('左人指1');
    expect(canonicalBoneName('thumb0_L')).toBe(canonicalBoneName('左親指０'));
    expect(boneKeys('左腕', 'arm_L')).toEqual(['左腕']);
    expect(boneKeys('Bone.001', 'elbow_L')).toEqual(['bone.001', '左ひじ']);
    expect(morphKey('あ ')).toBe(morphKey('あ'));
  });

  it('matches a source skeleton onto a target one: exact, normalised, English, then a map', () => {
    const target = [{ name: '全ての親' }, { name: 'センター' }, { name: '上半身2' }, { name: '左腕', nameEn: 'arm_L' }, { name: '右足ＩＫ' }, { name: 'ボーン' }];
    const source = [{ name: 'センター' }, { name: '上半身２' }, { name: 'LeftArm', nameEn: 'arm_L' }, { name: '右足IK' }, { name: 'bone7' }, { name: '髪' }];
    const m = matchBones(source, target);
    expect(Array.from(m.target)).toEqual([1, 2, 3, 4, -1, -1]);
    expect(m.how).toEqual(['exact', 'normalized', 'normalized', 'normalized', 'none', 'none']);
    const mapped = matchBones(source, target, new Map([['bone7', 'ボーン']]));
    expect(mapped.target[4]).toBe(5);
    expect(mapped.how[4]).toBe('map');
    const idx = new BoneNameIndex(target);
    expect(idx.find('center')).toBe(1);
    expect(idx.find('xyz', 'arm_L')).toBe(3);
    expect(idx.find('xyz')).toBe(-1);
  });
});
