import { describe, expect, it } from 'vitest';
import {
  decodeName,
  detectKind,
  encodeNameField,
  eulerDegreesToQuaternion,
  mmdToThreePosition,
  mmdToThreeQuaternion,
  quaternionToEulerDegrees,
  countCameraCuts,
  buildVmd,
  writeVmd,
  readVmd,
  boneName,
} from '../../shared/vmd';
import { SJIS } from '../helpers/vmd-fixtures';

describe('names', () => {
  it('decodes up to the NUL and ignores what follows it', () => {
    const f = new Uint8Array(15);
    f.set(SJIS.左腕);
    f[5] = 0x41; // garbage after the NUL
    expect(decodeName(f)).toBe('左腕');
  });
  it('refuses to encode a name longer than its field instead of cutting it', () => {
    const r = encodeNameField('左ひじ補助ボーンテスト', 15);
    expect(!r.ok && r.error.code).toBe('E_NAME_TOO_LONG');
    expect(!r.ok && r.error.message).toBe('name "左ひじ補助ボーンテスト" is 22 bytes in Shift_JIS; the field holds 15');
    const bad = encodeNameField('腕🎵', 15);
    expect(!bad.ok && bad.error.code).toBe('E_NAME_ENCODING');
    const ok = encodeNameField('左腕', 15);
    expect(ok.ok && Array.from(ok.value.subarray(0, 5))).toEqual([...SJIS.左腕, 0]);
  });
  it('building a document with a too-long bone name fails with E_NAME_TOO_LONG', () => {
    expect(() => buildVmd({ bones: [{ name: 'とても長いボーンの名前', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] }] })).toThrowError(/15/);
    const doc = buildVmd({ model: '初音ミク', bones: [{ name: '右腕', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] }] });
    const back = readVmd(writeVmd(doc));
    expect(back.ok && boneName(back.value.bone, 0)).toBe('右腕');
  });
});

describe('kind detection', () => {
  const k = (bone: number, morph: number, camera: number, light: number) => detectKind({ bone, morph, camera, light });
  it('follows the documented thresholds', () => {
    expect(k(11, 0, 0, 0)).toBe('motion');
    expect(k(10, 11, 0, 0)).toBe('morph');
    expect(k(10, 10, 11, 0)).toBe('camera');
    expect(k(0, 0, 10, 1)).toBe('light');
    expect(k(3, 0, 0, 0)).toBe('unknown');
    expect(k(11, 500, 500, 5)).toBe('motion');
  });
  it('calls morph keys alone a facial motion whatever their count; a few bone, camera or light keys beside them still make it unknown or light', () => {
    expect(k(0, 6, 0, 0)).toBe('morph');
    expect(k(0, 1, 0, 0)).toBe('morph');
    expect(k(2, 6, 0, 0)).toBe('unknown');
    expect(k(0, 6, 1, 0)).toBe('unknown');
    expect(k(0, 6, 0, 1)).toBe('light');
    expect(k(0, 0, 0, 0)).toBe('unknown');
  });
  it('counts camera cuts as adjacent frames exactly one apart', () => {
    expect(countCameraCuts(Uint32Array.from([0, 10, 11, 30, 31, 32, 60]))).toBe(3);
  });
});

describe('coordinates', () => {
  it('MMD → three.js: positions negate Z, quaternions negate X and Y', () => {
    expect(mmdToThreePosition([1, 2, 3])).toEqual([1, 2, -3]);
    expect(mmdToThreeQuaternion([0.1, 0.2, 0.3, 0.9])).toEqual([-0.1, -0.2, 0.3, 0.9]);
  });
  it('Euler degrees ⇄ quaternion round-trips', () => {
    for (const e of [[10, 20, 30], [-45, 80, 5], [0, 0, 90], [30, -120, -60]]) {
      const back = quaternionToEulerDegrees(eulerDegreesToQuaternion(e));
      back.forEach((v, i) => expect(v).toBeCloseTo(e[i], 6));
    }
  });
});
