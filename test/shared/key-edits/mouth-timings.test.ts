/**
 * Mouth timings (shared/key-edits/mouth-timings.ts): a plain `FRAME VOWEL` list and a Julius / HTK .lab file read to
 * timings (by frame), with errors naming the file and line; and keyMouthTimings, which keys them as the tap mode's
 * keys (lip-sync.ts). Every input is written here by hand and every expected timing and key worked out by hand.
 */
import { describe, expect, it } from 'vitest';
import { buildTracks, buildVmd, writeVmd } from '../../../shared/vmd';
import { decodeTimingText, keyMouthTimings, mouthTimingKeys, parseMouthTimings, revertDiff } from '../../../shared/key-edits';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import { formatError } from '../../../shared/vmd/errors';
import { errorPlainLine } from '../../../shared/i18n/error-line';

function parsed(text: string, fps = 30) {
  const r = parseMouthTimings(text, 'song.txt', fps);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
const pairs = (text: string, fps = 30) => parsed(text, fps).timings.map((t) => `${t.frame}${t.shape}`);
function refused(text: string, file = 'song.txt') {
  const r = parseMouthTimings(text, file);
  if (r.ok) throw new Error('read');
  return r.error;
}

/** (name@frame) → weight of every morph key of `d`. */
function keys(d: VmdDocument): Map<string, number> {
  const t = buildTracks(d).morphs, out = new Map<string, number>();
  t.names.forEach((n, i) => {
    for (let k = t.start[i]; k < t.start[i + 1]; k++) out.set(`${n}@${t.frames[k]}`, t.weight[k]);
  });
  return out;
}

describe('the plain list', () => {
  it('reads FRAME VOWEL lines in Latin, hiragana, katakana (half-width too), closed as n ん ン -, with comments and blank lines', () => {
    const text = '# 歌詞: あいうえお\n\n12 a\n30\tO  # long\r\n45 n\n50 い\n60 ｳ\n70 エ\n80 -\n90 ん\n100 ン\n110 お\n';
    expect(pairs(text)).toEqual(['12a', '30o', '45closed', '50i', '60u', '70e', '80closed', '90closed', '100closed', '110o']);
    const v = parsed(text);
    expect(v.format).toBe('list');
    expect(v.unit).toBeUndefined();
    expect(v.timings[1].line).toBe(4);
  });

  it('sorts by frame, and the later of two lines on one frame wins', () => {
    const v = parsed('30 o\n10 a\n30 i\n');
    expect(v.timings.map((t) => `${t.frame}${t.shape}@${t.line}`)).toEqual(['10a@2', '30i@3']);
    expect(v.merged).toBe(1);
  });

  it('refuses a bad line naming the file, the line and what is wrong', () => {
    const shape = refused('12 a\n# c\n20 q\n');
    expect(shape).toMatchObject({ code: 'E_TIMINGS', problem: 'shape', line: 3, file: 'song.txt' });
    expect(formatError(shape)).toBe('song.txt: "q" is not a vowel (a i u e o, あいうえお, アイウエオ, or n ん - for the mouth closed) (line 3)');
    expect(errorPlainLine(shape, 'ja')).toBe('「q」は母音ではありません（a i u e o、あいうえお、アイウエオ、口を閉じるのは n ん -）');
    expect(refused('12 a\n1.5 i\n')).toMatchObject({ problem: 'frame', line: 2, params: { value: '1.5' } });
    expect(refused('12 a\n-3 i\n')).toMatchObject({ problem: 'frame', line: 2 });
    expect(refused('1000000 a\n')).toMatchObject({ problem: 'frame', line: 1 });
    expect(refused('12 a\n14\n')).toMatchObject({ problem: 'listFields', line: 2 });
    expect(refused('12 a i\n')).toMatchObject({ problem: 'listFields', line: 1 });
    const empty = refused('# nothing\n\n');
    expect(empty).toMatchObject({ problem: 'empty' });
    expect(formatError(empty)).toMatch(/^song\.txt: holds no timing/);
    expect(refused('12 a\u0000')).toMatchObject({ problem: 'notText' });
    expect(refused('1 a\n'.repeat(200_001))).toMatchObject({ problem: 'tooLong' });
  });
});

describe('the .lab file', () => {
  // Julius's segmentation kit: seconds. "konnichiwa" (k o N n i ch i w a) between silences.
  const julius = [
    '0.0000000 0.3250000 silB',
    '0.3250000 0.3850000 k',
    '0.3850000 0.4650000 o',
    '0.4650000 0.5350000 N',
    '0.5350000 0.5850000 n',
    '0.5850000 0.6550000 i',
    '0.6550000 0.7350000 ch',
    '0.7350000 0.8050000 i',
    '0.8050000 0.8550000 w',
    '0.8550000 1.0150000 a',
    '1.0150000 1.2000000 silE',
  ].join('\n');

  it('reads Julius seconds: vowels keyed at their start, N and silences close, other consonants hold, a repeat makes no key', () => {
    const v = parsed(julius);
    expect(v.format).toBe('lab');
    expect(v.unit).toBe('seconds');
    // silB 0 → 0; o 0.385 s → 11.55 → 12; N 0.465 → 13.95 → 14; i 0.585 → 17.55 → 18; the second i repeats (no key);
    // a 0.855 → 25.65 → 26; silE 1.015 → 30.45 → 30.
    expect(pairs(julius)).toEqual(['0closed', '12o', '14closed', '18i', '26a', '30closed']);
    // At 60 fps: 0, 23.1 → 23, 27.9 → 28, 35.1 → 35, 51.3 → 51, 60.9 → 61.
    expect(pairs(julius, 60)).toEqual(['0closed', '23o', '28closed', '35i', '51a', '61closed']);
  });

  it('reads HTK 100 ns units (whole numbers, the largest ≥ 100,000), long and devoiced vowels, and the lip consonants closing', () => {
    const htk = '0 2000000 sil\n2000000 2500000 m\n2500000 4000000 a:\n4000000 4500000 s\n4500000 5000000 U\n5000000 6000000 pau\n6000000 6600000 b\n6600000 7000000 e\n';
    const v = parsed(htk);
    expect(v.unit).toBe('htk');
    // sil 0 → 0 closed; m 0.2 s → 6 closed (a repeat of closed: no key); a: 0.25 s → 7.5 → 8; s holds; U 0.45 s → 13.5 → 14 u;
    // pau 0.5 s → 15 closed; b closes again (a repeat); e 0.66 s → 19.8 → 20.
    expect(pairs(htk)).toEqual(['0closed', '8a', '14u', '15closed', '20e']);
    // Whole numbers that stay small are seconds: 3 s → frame 90.
    const small = parsed('0 3 sil\n3 4 a\n');
    expect(small.unit).toBe('seconds');
    expect(small.timings.map((t) => t.frame)).toEqual([0, 90]);
  });

  it('refuses a bad .lab line naming the file and the line', () => {
    const ph = refused('0.0 0.2 sil\n0.2 0.3 xx\n', 'voice.lab');
    expect(ph).toMatchObject({ code: 'E_TIMINGS', problem: 'phoneme', line: 2, file: 'voice.lab', params: { value: 'xx' } });
    expect(formatError(ph)).toMatch(/^voice\.lab: "xx" is not a phoneme this reader knows .*\(line 2\)$/);
    expect(errorPlainLine(ph, 'ja')).toContain('「xx」は読める音素ではありません');
    expect(refused('0.0 0.2 sil\n0.2 a\n')).toMatchObject({ problem: 'labFields', line: 2 });
    expect(refused('0.0 0.2 sil\n0.2 zz a\n')).toMatchObject({ problem: 'time', line: 2, params: { value: 'zz' } });
    expect(refused('0.0 0.2 sil\n0.5 0.3 a\n')).toMatchObject({ problem: 'timeOrder', line: 2 });
  });
});

describe('decodeTimingText', () => {
  it('reads UTF-8 (its BOM dropped), UTF-16 LE with its BOM, and Shift_JIS', () => {
    expect(decodeTimingText(new Uint8Array([0xef, 0xbb, 0xbf, 0x31, 0x20, 0xe3, 0x81, 0x82]))).toBe('1 あ');
    expect(decodeTimingText(new Uint8Array([0xff, 0xfe, 0x31, 0, 0x20, 0, 0x42, 0x30]))).toBe('1 あ');
    // あ in Shift_JIS is 82 A0.
    expect(decodeTimingText(new Uint8Array([0x31, 0x20, 0x82, 0xa0]))).toBe('1 あ');
  });
});

describe('keyMouthTimings', () => {
  const FOUND = { a: 'あ', i: 'い', u: 'う', e: 'え', o: 'お' };

  it('keys each timing as a tap does: its vowel at the weight, the others 0, the first vowel 0 at frame 0; one edit that undoes', () => {
    const d = buildVmd({ morphs: [{ name: '笑い', frame: 5, weight: 0.5 }] });
    const tracks = buildTracks(d);
    const timings = parsed('12 a\n20 o\n30 -\n').timings;
    // 3 timings × 5 vowels, and あ 0 at frame 0 (no あ key before 12).
    expect(mouthTimingKeys(tracks, timings, FOUND, 0.8)).toHaveLength(16);
    const r = keyMouthTimings(d, tracks, timings, FOUND, 0.8);
    if (!r.ok) throw new Error(r.error.message);
    const k = keys(r.value.doc);
    const f32 = (x: number) => Math.fround(x);
    const want = new Map<string, number>([['笑い@5', f32(0.5)], ['あ@0', 0]]);
    for (const [frame, vowel] of [[12, 'あ'], [20, 'お'], [30, '']] as const) {
      for (const v of ['あ', 'い', 'う', 'え', 'お']) want.set(`${v}@${frame}`, v === vowel ? f32(0.8) : 0);
    }
    expect(k).toEqual(want);
    expect(r.value.diff.label).toBe('lip sync');
    const back = revertDiff(r.value.doc, r.value.diff);
    expect(writeVmd(back)).toEqual(writeVmd(d));
  });

  it('a vowel the model lacks closes the mouth there; a timing list starting at 0, or a track keyed before, adds no frame-0 key', () => {
    const d = buildVmd({ morphs: [{ name: 'い', frame: 2, weight: 0.3 }] });
    const tracks = buildTracks(d);
    const found = { a: 'あ', i: 'い' };
    const r = keyMouthTimings(d, tracks, parsed('10 i\n20 u\n').timings, found, 1);
    if (!r.ok) throw new Error(r.error.message);
    expect(keys(r.value.doc)).toEqual(new Map([['い@2', Math.fround(0.3)], ['い@10', 1], ['あ@10', 0], ['い@20', 0], ['あ@20', 0]]));
    const z = keyMouthTimings(d, tracks, parsed('0 a\n5 a\n').timings, found, 1);
    if (!z.ok) throw new Error(z.error.message);
    expect(keys(z.value.doc)).toEqual(new Map([['い@2', Math.fround(0.3)], ['あ@0', 1], ['い@0', 0], ['あ@5', 1], ['い@5', 0]]));
    expect(keyMouthTimings(d, tracks, [], found, 1).ok).toBe(false);
    expect(keyMouthTimings(d, tracks, parsed('1 a\n').timings, {}, 1).ok).toBe(false);
  });
});
