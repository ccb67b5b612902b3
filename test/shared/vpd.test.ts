import { describe, expect, it } from 'vitest';
import Encoding from 'encoding-japanese';
import { buildTracks, readVmd, readVpd, samplePose, vmdToVpd, vpdToVmd, writeVmd, writeVpd } from '../../shared/vmd';

const sjis = (s: string) => Uint8Array.from(Encoding.convert(Encoding.stringToCode(s), { to: 'SJIS', from: 'UNICODE' }) as number[]);

const sample = [
  'Vocaloid Pose Data file',
  '',
  '初音ミク.osm;\t\t// 親ファイル名',
  '5;\t\t\t\t// 総ポーズボーン数 (wrong on purpose: two sections follow)',
  '',
  'Bone0{センター',
  '  0.000000,1.250000,-0.500000;\t\t\t\t// trans x,y,z',
  '  0.000000,0.000000,0.000000,1.000000;\t\t// Quaternion x,y,z,w',
  '}',
  '',
  'Bone1{左腕',
  '  0.000000,0.000000,0.000000;',
  '  0.100000,-0.200000,0.300000,0.927362;',
  '}',
  '',
  'Morph0{まばたき',
  '  1.000000;\t\t\t\t// weight',
  '}',
  '',
];

describe('VPD', () => {
  it('reads Shift_JIS with CRLF, counting the sections rather than trusting the header', () => {
    const r = readVpd(sjis(sample.join('\r\n')));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.model).toBe('初音ミク.osm');
    expect(r.value.bones.map((b) => b.name)).toEqual(['センター', '左腕']);
    expect(r.value.bones[0].position).toEqual([0, 1.25, -0.5]);
    expect(r.value.bones[1].rotation).toEqual([0.1, -0.2, 0.3, 0.927362]);
    expect(r.value.morphs).toEqual([{ name: 'まばたき', weight: 1 }]);
    expect(r.value.declaredBones).toBe(5);
    expect(r.diagnostics.map((d) => d.code)).toContain('W_VPD_COUNT');
  });

  it('reads LF line endings and UTF-8 with a BOM the same way', () => {
    const lf = readVpd(sjis(sample.join('\n')));
    const utf8 = readVpd(Uint8Array.from([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(sample.join('\n'))]));
    expect(lf.ok && utf8.ok).toBe(true);
    if (lf.ok && utf8.ok) {
      expect(utf8.value.bones).toEqual(lf.value.bones);
      expect(utf8.value.encoding).toBe('utf-8');
    }
  });

  it('reports garbage with a code and the byte offset of the bad line', () => {
    const text = sample.slice(0, 7).join('\r\n') + '\r\n  0.1,zz,0.3,1;\r\n}\r\n';
    const bytes = sjis(text);
    const r = readVpd(bytes);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('E_VPD_SYNTAX');
    const lineStart = sjis(sample.slice(0, 7).join('\r\n') + '\r\n').length;
    expect(r.error.offset).toBe(lineStart);
    expect(readVpd(new Uint8Array([1, 2, 3])).ok).toBe(false);
    expect(readVpd(new Uint8Array(0)).ok).toBe(false);
  });

  it('writes Shift_JIS, CRLF and six decimals, and reads back the same values', () => {
    const r = readVpd(sjis(sample.join('\r\n')));
    if (!r.ok) throw new Error('fixture');
    const out = writeVpd(r.value);
    const text = new TextDecoder('shift_jis').decode(out);
    expect(text).toContain('Bone1{左腕\r\n');
    expect(text).toContain('0.100000,-0.200000,0.300000,0.927362;');
    expect(text.split('\n').every((l, i, a) => i === a.length - 1 || l.endsWith('\r'))).toBe(true);
    const back = readVpd(out);
    expect(back.ok && back.value.bones).toEqual(r.value.bones);
  });

  it('converts to a one-frame VMD whose pose equals the VPD, and back', () => {
    const r = readVpd(sjis(sample.join('\r\n')));
    if (!r.ok) throw new Error('fixture');
    const v = vpdToVmd(r.value);
    expect(v.ok).toBe(true);
    if (!v.ok) return;
    const doc = readVmd(writeVmd(v.value));
    if (!doc.ok) throw new Error(doc.error.message);
    const pose = samplePose(buildTracks(doc.value), 0);
    expect(pose.bones['左腕'].rotation[3]).toBeCloseTo(0.927362, 6);
    expect(pose.bones['センター'].position).toEqual([0, 1.25, -0.5]);
    expect(pose.morphs['まばたき']).toBe(1);
    const vpd = vmdToVpd(doc.value, buildTracks(doc.value), 0);
    expect(vpd.bones.find((b) => b.name === '左腕')!.rotation[0]).toBeCloseTo(0.1, 6);
  });

  it('refuses bone names longer than 15 bytes, or skips and reports them when asked', () => {
    const long = sample.map((l) => l.replace('Bone1{左腕', 'Bone1{とても長いボーンの名前です'));
    const r = readVpd(sjis(long.join('\r\n')));
    if (!r.ok) throw new Error('fixture');
    const strict = vpdToVmd(r.value);
    expect(strict.ok).toBe(false);
    if (!strict.ok) expect(strict.error.code).toBe('E_NAME_TOO_LONG');
    const lenient = vpdToVmd(r.value, { skipLongNames: true });
    expect(lenient.ok).toBe(true);
    if (lenient.ok) {
      expect(lenient.value.bone.count).toBe(1);
      expect(lenient.diagnostics[0].code).toBe('W_NAME_SKIPPED');
    }
  });
});
