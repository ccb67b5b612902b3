import { describe, expect, it } from 'vitest';
import Encoding from 'encoding-japanese';
import { buildTracks, readVmd, readVpd, samplePose, saveVpd, vmdToVpd, vpdToVmd, writeVmd, writeVpd } from '../../shared/vmd';
import { lcg } from '../helpers/rng';

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

describe('VPD written over its own text (saveVpd)', () => {
  // A pose as a document holds it: read, made a one-frame motion, sampled at frame 0.
  const asDocument = (bytes: Uint8Array) => {
    const r = readVpd(bytes);
    if (!r.ok) throw new Error(r.error.message);
    const v = vpdToVmd(r.value, { skipLongNames: true });
    if (!v.ok) throw new Error(v.error.message);
    return vmdToVpd(v.value, buildTracks(v.value), 0);
  };
  const text = (b: Uint8Array) => new TextDecoder('shift_jis').decode(b);

  it('writes −0 as MMD does ("-0.000000", C printf), and a blank line after the last section', () => {
    const out = text(writeVpd({ model: 'm.osm', bones: [{ name: 'センター', position: [-0, 0, -0.0000001], rotation: [0, -0, 0, 1] }], morphs: [] }));
    expect(out).toContain('\r\n  -0.000000,0.000000,-0.000000;\t\t\t\t// trans x,y,z\r\n');
    expect(out).toContain('\r\n  0.000000,-0.000000,0.000000,1.000000;\t\t// Quaternion x,y,z,w\r\n');
    expect(out.endsWith('\r\n}\r\n\r\n')).toBe(true);
  });

  it('adds a new bone after the last bone section and a new morph after the last morph, with the header count; takes a removed one out', () => {
    const file = sjis(sample.join('\n'));
    const pose = asDocument(file);
    pose.bones = pose.bones.filter((b) => b.name !== 'センター');
    pose.bones.push({ name: '頭', position: [0, 0, 0], rotation: [0, 0.5, 0, 0.75] });
    pose.morphs.push({ name: 'あ', weight: 0.25 });
    const want = [
      'Vocaloid Pose Data file',
      '',
      '初音ミク.osm;\t\t// 親ファイル名',
      // Two sections before (the header's 5 was wrong), one taken out and one added: 2.
      '2;\t\t\t\t// 総ポーズボーン数 (wrong on purpose: two sections follow)',
      '',
      'Bone1{左腕',
      '  0.000000,0.000000,0.000000;',
      '  0.100000,-0.200000,0.300000,0.927362;',
      '}',
      '',
      'Bone2{頭',
      '  0.000000,0.000000,0.000000;\t\t\t\t// trans x,y,z',
      '  0.000000,0.500000,0.000000,0.750000;\t\t// Quaternion x,y,z,w',
      '}',
      '',
      'Morph0{まばたき',
      '  1.000000;\t\t\t\t// weight',
      '}',
      '',
      'Morph1{あ',
      '  0.250000;\t\t\t\t// weight',
      '}',
      '',
    ];
    expect(text(saveVpd(file, pose))).toBe(want.join('\n'));
  });

  it('keeps a UTF-8 file UTF-8, its BOM and its CR LF, and a section whose name a VMD cannot hold', () => {
    const long = sample.map((l) => l.replace('Bone1{左腕', 'Bone1{とても長いボーンの名前です'));
    const file = Uint8Array.from([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(long.join('\r\n'))]);
    const pose = asDocument(file);
    expect(pose.bones.map((b) => b.name)).toEqual(['センター']);
    pose.morphs[0].weight = 0.5;
    const want = long.map((l) => l.replace('  1.000000;', '  0.500000;'));
    const out = saveVpd(file, pose);
    expect([...out.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder('utf-8').decode(out.subarray(3))).toBe(want.join('\r\n'));
  });
});

/**
 * The reader as it was before it was made fast (one decoder call per line, every line collected first):
 * the reference the fast one must agree with, value for value and error for error.
 */
function referenceReadVpd(bytes: Uint8Array) {
  const utf8 = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const lines: { text: string; offset: number }[] = [];
  const dec = new TextDecoder(utf8 ? 'utf-8' : 'shift_jis');
  let s = utf8 ? 3 : 0;
  for (let i = s; i <= bytes.length; i++) {
    if (i === bytes.length || bytes[i] === 0x0a) {
      let e = i;
      if (e > s && bytes[e - 1] === 0x0d) e--;
      const t = dec.decode(bytes.subarray(s, e)).split('//', 1)[0].trim();
      if (t) lines.push({ text: t, offset: s });
      s = i + 1;
    }
  }
  const fail = (code: string, message: string, offset: number) => ({ ok: false as const, error: { code, message, offset } });
  const nums = (l: { text: string }, n: number, what: string): number[] | string => {
    const parts = l.text.replace(/;\s*$/, '').split(',').map((p) => p.trim());
    if (parts.length !== n) return `${what}: expected ${n} numbers, found "${l.text}"`;
    const v = parts.map(Number);
    if (v.some((x, i) => parts[i] === '' || !Number.isFinite(x))) return `${what}: not a number in "${l.text}"`;
    return v;
  };
  if (lines.length === 0 || !lines[0].text.startsWith('Vocaloid Pose Data file')) return fail('E_VPD_MAGIC', 'not a VPD file: it does not start with "Vocaloid Pose Data file"', 0);
  let model = '';
  let declaredBones: number | null = null;
  let i = 1;
  if (i < lines.length && !/^(Bone|Morph)\d*\{/.test(lines[i].text)) model = lines[i++].text.replace(/;\s*$/, '');
  if (i < lines.length && /^\d+;?$/.test(lines[i].text)) declaredBones = parseInt(lines[i++].text, 10);
  const bones: { name: string; position: number[]; rotation: number[] }[] = [];
  const morphs: { name: string; weight: number }[] = [];
  while (i < lines.length) {
    const l = lines[i];
    const bone = /^Bone\d*\{(.*)$/.exec(l.text);
    const morph = bone ? null : /^Morph\d*\{(.*)$/.exec(l.text);
    if (bone) {
      const p = lines[i + 1] ? nums(lines[i + 1], 3, `bone "${bone[1]}" position`) : 'missing position';
      if (typeof p === 'string') return fail('E_VPD_SYNTAX', p, lines[i + 1]?.offset ?? l.offset);
      const r = lines[i + 2] ? nums(lines[i + 2], 4, `bone "${bone[1]}" rotation`) : 'missing rotation';
      if (typeof r === 'string') return fail('E_VPD_SYNTAX', r, lines[i + 2]?.offset ?? l.offset);
      bones.push({ name: bone[1].trim(), position: p, rotation: r });
      i += 3;
      if (i < lines.length && lines[i].text === '}') i++;
      else return fail('E_VPD_SYNTAX', `bone section "${bone[1]}" has no closing "}"`, lines[i]?.offset ?? bytes.length);
    } else if (morph) {
      const w = lines[i + 1] ? nums(lines[i + 1], 1, `morph "${morph[1]}" weight`) : 'missing weight';
      if (typeof w === 'string') return fail('E_VPD_SYNTAX', w, lines[i + 1]?.offset ?? l.offset);
      morphs.push({ name: morph[1].trim(), weight: w[0] });
      i += 2;
      if (i < lines.length && lines[i].text === '}') i++;
      else return fail('E_VPD_SYNTAX', `morph section "${morph[1]}" has no closing "}"`, lines[i]?.offset ?? bytes.length);
    } else return fail('E_VPD_SYNTAX', `unexpected line "${l.text.slice(0, 40)}"`, l.offset);
  }
  return { ok: true as const, value: { model, bones, morphs, declaredBones, encoding: utf8 ? 'utf-8' : 'shift_jis' } };
}

describe('VPD reader: the fast one agrees with the reference', () => {
  /** What two reads are compared on: the value, or the error's code, message and offset. */
  const outcome = (r: { ok: boolean; value?: unknown; error?: { code: string; message: string; offset?: number } }) =>
    r.ok ? { ok: true, value: r.value } : { ok: false, error: { code: r.error!.code, message: r.error!.message, offset: r.error!.offset } };

  it('on the sample, on numbers Number() reads its own way, and on lines cut, joined and garbled (2,000 mutations)', () => {
    const numbers = ['1', '-0', '-0.000000', '0.1', '.5', '5.', '1e3', '-1.5E-2', '+2', '0x1f', 'Infinity', 'NaN', '', ' 7 ', '1.2.3', '123456789012345678', '0.123456789012345678', '00012', '-', '.', '1,5'];
    const texts: Uint8Array[] = [sjis(sample.join('\r\n')), sjis(sample.join('\n')), sjis(sample.join('\r'))];
    for (const a of numbers) for (const b of ['0', a]) texts.push(sjis(sample.join('\r\n').replace('0.000000,1.250000,-0.500000', `${a},${b},1`)));
    const rand = lcg(20240613);
    const pieces = ['0', '9', '.', ',', ';', '-', 'e', ' ', '\t', '\r', '\n', '/', '//', '{', '}', 'Bone', 'Morph', 'センター', '\u3000', 'x'];
    const base = sample.join('\r\n');
    for (let k = 0; k < 2000; k++) {
      let t = base;
      const edits = 1 + Math.floor(rand() * 4);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(rand() * t.length);
        const what = rand();
        if (what < 0.4) t = t.slice(0, at) + pieces[Math.floor(rand() * pieces.length)] + t.slice(at);
        else if (what < 0.8) t = t.slice(0, at) + t.slice(at + 1 + Math.floor(rand() * 3));
        else t = t.slice(0, at) + t.slice(Math.floor(rand() * t.length));
      }
      texts.push(rand() < 0.2 ? Uint8Array.from([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(t)]) : sjis(t));
    }
    // Bytes that are not Shift_JIS: a lead byte before the line end, 0xFF, a lone trail byte.
    texts.push(Uint8Array.from([...sjis(base.slice(0, 60)), 0x81, 0x0d, 0x0a, 0xff, 0x40, ...sjis(base.slice(60))]));
    let agreed = 0;
    for (const bytes of texts) {
      expect(outcome(readVpd(bytes))).toEqual(outcome(referenceReadVpd(bytes)));
      agreed++;
    }
    expect(agreed).toBe(texts.length);
  });
});
