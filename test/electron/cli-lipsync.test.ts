/**
 * `vmd-studio lipsync`: a hand-written timing list and .lab file keyed into a new face motion — the written bytes read
 * back with the codec's reader, every key worked out by hand — with the standard あ い う え お and with Gene's morphs
 * and name (corpus); a bad line refused naming the file and line (English and Japanese), a model without vowels and
 * bad options refused, --help.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../helpers/cli-in-process';
import { corpusPath, corpusPresent } from '../helpers/corpus';
import { buildTracks, readVmd } from '../../shared/vmd';
import { decodeName } from '../../shared/vmd/sjis';

const dir = mkdtempSync(path.join(os.tmpdir(), 'vmd-lipsync-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cli = (...argv: string[]) => runCliCaptured(argv, dir);

/** name@frame → weight of every morph key in the VMD at `file`, and its header's model name. */
function keysOf(file: string): { keys: Map<string, number>; model: string } {
  const d = readVmd(new Uint8Array(readFileSync(path.join(dir, file))));
  if (!d.ok) throw new Error(d.error.message);
  const t = buildTracks(d.value).morphs, keys = new Map<string, number>();
  t.names.forEach((n, i) => {
    for (let k = t.start[i]; k < t.start[i + 1]; k++) keys.set(`${n}@${t.frames[k]}`, t.weight[k]);
  });
  return { keys, model: decodeName(d.value.modelName) };
}

/** The keys a timing makes, by hand: `vowel` at `w`, the other names 0. */
function at(frame: number, vowel: string | null, names: string[], w = 1): [string, number][] {
  return names.map((n) => [`${n}@${frame}`, n === vowel ? Math.fround(w) : 0]);
}
const AIUEO = ['あ', 'い', 'う', 'え', 'お'];

describe('vmd-studio lipsync', () => {
  writeFileSync(path.join(dir, 'song.txt'), '# ありがとう\n10 a\n14 i\n20 -\n26 お\n');

  it('keys a list onto あ い う え お at the weight, the first vowel 0 at frame 0, and says what it made', async () => {
    const r = await cli('lipsync', 'song.txt', '-o', 'lips.vmd', '--weight', '0.75');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    // 4 timings × 5 vowels + あ 0 at 0.
    expect(r.out).toBe('lipsync: lips.vmd: 4 timings (a list) → 21 keys on あ い う え お, frames 10–26\n');
    const { keys, model } = keysOf('lips.vmd');
    expect(model).toBe('');
    expect(keys).toEqual(new Map([['あ@0', 0], ...at(10, 'あ', AIUEO, 0.75), ...at(14, 'い', AIUEO, 0.75), ...at(20, null, AIUEO), ...at(26, 'お', AIUEO, 0.75)]));
    // One timing is "1 timing" (it said "1 timings"): 5 vowels at 3, and お 0 at 0.
    writeFileSync(path.join(dir, 'one.txt'), '3 o\n');
    expect((await cli('lipsync', 'one.txt', '-o', 'one.vmd')).out).toBe('lipsync: one.vmd: 1 timing (a list) → 6 keys on あ い う え お, frames 3–3\n');
    // Not over an existing file without --overwrite; --json says what it made.
    expect((await cli('lipsync', 'song.txt', '-o', 'lips.vmd')).code).toBe(1);
    const j = await cli('lipsync', 'song.txt', '-o', 'lips.vmd', '--overwrite', '--json');
    expect(j.code).toBe(0);
    expect(JSON.parse(j.out)).toMatchObject({ ok: true, format: 'list', timings: 4, merged: 0, keys: 21, frames: [10, 26], weight: 1, missing: [] });
  });

  it('reads a .lab file in HTK units, says which unit it assumed, and keys at --fps', async () => {
    // sil 0; k holds; a 0.3 s; N 0.5 s; o 0.6 s — at 60 fps frames 0, 18, 30, 36.
    writeFileSync(path.join(dir, 'voice.lab'), '0 2000000 sil\n2000000 3000000 k\n3000000 5000000 a\n5000000 6000000 N\n6000000 9000000 o\n');
    const r = await cli('lipsync', 'voice.lab', '-o', 'voice.vmd', '--fps', '60');
    expect(r.code).toBe(0);
    expect(r.out).toBe("lipsync: voice.vmd: 4 timings (a .lab file, times read as HTK's 100 ns units at 60 fps) → 20 keys on あ い う え お, frames 0–36\n");
    // The first timing is at frame 0 (closed): no extra frame-0 key.
    expect(keysOf('voice.vmd').keys).toEqual(new Map([...at(0, null, AIUEO), ...at(18, 'あ', AIUEO), ...at(30, null, AIUEO), ...at(36, 'お', AIUEO)]));
    const j = await cli('lipsync', 'voice.lab', '-o', 'voice2.vmd', '--json');
    expect(JSON.parse(j.out)).toMatchObject({ format: 'lab', unit: 'htk', fps: 30, frames: [0, 18] });
  });

  it.skipIf(!corpusPresent)('keys a model’s own morphs (Gene: あ い う え お and ワ) and writes its name', async () => {
    const r = await cli('lipsync', 'song.txt', '-o', 'gene.vmd', '--model', corpusPath('gene/Gene_light.pmx'));
    expect(r.code).toBe(0);
    expect(r.out).toContain('→ 25 keys on あ い う え お ワ, frames 10–26');
    const { keys, model } = keysOf('gene.vmd');
    const names = [...AIUEO, 'ワ'];
    expect(keys).toEqual(new Map([['あ@0', 0], ...at(10, 'あ', names), ...at(14, 'い', names), ...at(20, null, names), ...at(26, 'お', names)]));
    expect(model).not.toBe('');
    // The low Miku has no vowel morph: refused, nothing written.
    const miku = await cli('lipsync', 'song.txt', '-o', 'miku.vmd', '--model', corpusPath('mmd-viewer-js/model/low_miku/miku.pmd'));
    expect(miku.code).toBe(1);
    expect(miku.err).toContain('the model has no vowel morph');
    const mikuJa = await cli('lipsync', 'song.txt', '-o', 'miku.vmd', '--model', corpusPath('mmd-viewer-js/model/low_miku/miku.pmd'), '--lang', 'ja');
    expect(mikuJa.err).toContain('このモデルには母音の表情（あ い う え お、a i u e o）がありません');
    expect(existsSync(path.join(dir, 'miku.vmd'))).toBe(false);
  });

  it('refuses a bad line naming the file and the line, in English and Japanese; bad options are usage errors', async () => {
    writeFileSync(path.join(dir, 'bad.txt'), '10 a\n\n14 x\n');
    const r = await cli('lipsync', 'bad.txt', '-o', 'bad.vmd');
    expect(r.code).toBe(1);
    expect(r.err).toBe('vmd-studio: bad.txt: "x" is not a vowel (a i u e o, あいうえお, アイウエオ, or n ん - for the mouth closed) (line 3)\n');
    expect(existsSync(path.join(dir, 'bad.vmd'))).toBe(false);
    const ja = await cli('lipsync', 'bad.txt', '-o', 'bad.vmd', '--lang', 'ja');
    expect(ja.err).toBe('vmd-studio: bad.txt: 「x」は母音ではありません（a i u e o、あいうえお、アイウエオ、口を閉じるのは n ん -）（3 行目）\n');
    const j = await cli('lipsync', 'bad.txt', '-o', 'bad.vmd', '--json');
    expect(JSON.parse(j.out)).toMatchObject({ ok: false, error: { code: 'E_TIMINGS', line: 3 } });
    expect((await cli('lipsync', 'song.txt', '-o', 'w.vmd', '--weight', '2')).code).toBe(2);
    expect((await cli('lipsync', 'song.txt', '-o', 'w.vmd', '--fps', '0')).code).toBe(2);
    expect((await cli('lipsync', 'song.txt', '-o', 'w.txt')).code).toBe(2);
    expect((await cli('lipsync', 'song.txt')).code).toBe(2);
    const help = await cli('lipsync', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('vmd-studio lipsync TIMINGS -o OUT.vmd');
    expect((await cli('--help')).out).toMatch(/\n {2}lipsync +lip sync from a timing list/);
  });
});
