// `vmd-studio batch ik-bake` (the batch engine, as the Batch dialog runs it): a folder of motions onto one model, each
// output byte for byte what the one-file `vmd-studio ik-bake` writes for the same options (run here too); a motion with
// the chosen IK off over the whole range fails alone with E_IK while the others are written; --to before --from is a
// usage error; the op is listed with its options in `batch --help`.
import { describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { encodeIkRecord, ikBlockFromRecords, readVmd, withBlocks, writeVmd } from '../../shared/vmd';
import { useTempDirs } from './batch-helpers';
import { runCliCaptured as run } from '../helpers/cli-in-process';
import { corpusPath, corpusPresent } from '../helpers/corpus';
import { appendKneeMotion, appendKneePmx } from '../helpers/pmx-append-knee';
import { warningLines } from '../../shared/i18n/warning-line';

const mk = useTempDirs();
const c = corpusPresent ? it : it.skip;

const MIKU = corpusPath('mmd-viewer-js/model/low_miku/miku.pmd');
const WAVE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
const WALK = corpusPath('mc-mmd-rust/default_anim/walk.vmd');
const LEGS = '左足ＩＫ,右足ＩＫ,左つま先ＩＫ,右つま先ＩＫ';

describe('vmd-studio batch ik-bake', () => {
  c('a folder onto low-poly Miku, legs over 10–60: each file is the one-file command’s bytes; a motion with the legs’ IK off fails alone', async () => {
    const dir = mk('ikbatch');
    mkdirSync(path.join(dir, 'in'));
    copyFileSync(WAVE, path.join(dir, 'in', 'wave.vmd'));
    copyFileSync(WALK, path.join(dir, 'in', 'walk.vmd'));
    // A motion with 左足ＩＫ and 右足ＩＫ, 左つま先ＩＫ and 右つま先ＩＫ off from frame 0: nothing to bake for the legs.
    const w = readVmd(new Uint8Array(readFileSync(WAVE)));
    if (!w.ok) throw new Error(w.error.message);
    const off = encodeIkRecord({ frame: 0, visible: 1, iks: LEGS.split(',').map((name) => ({ name, enabled: 0 })) });
    writeFileSync(path.join(dir, 'in', 'off.vmd'), writeVmd(withBlocks(w.value, { ik: ikBlockFromRecords([off]) })));
    const opts = ['--from', '10', '--to', '60', '--bones', LEGS, '--rot-tol', '0.2'];
    const b = await run(['batch', 'ik-bake', 'in', '--model', MIKU, '-o', 'out', ...opts, '--json'], dir);
    expect(b.code, b.err).toBe(1);
    for (const name of ['wave.vmd', 'walk.vmd']) {
      const one = await run(['ik-bake', MIKU, path.join('in', name), '-o', `one-${name}`, ...opts, '--quiet'], dir);
      expect(one.code, one.err).toBe(0);
      const batched = readFileSync(path.join(dir, 'out', name));
      expect(batched.equals(readFileSync(path.join(dir, `one-${name}`))), name).toBe(true);
      expect(batched.equals(readFileSync(path.join(dir, 'in', name))), name).toBe(false);
    }
    expect(existsSync(path.join(dir, 'out', 'off.vmd'))).toBe(false);
    const summary = JSON.parse(b.out) as { results: { input: string; ok: boolean; error?: { code: string; message: string }; report?: Record<string, unknown> }[] };
    const byName = new Map(summary.results.map((r) => [path.basename(r.input), r]));
    expect(byName.get('off.vmd')?.ok).toBe(false);
    expect(byName.get('off.vmd')?.error?.code).toBe('E_IK');
    expect(byName.get('off.vmd')?.error?.message).toContain('off over all of frames 10–60');
    const wave = byName.get('wave.vmd')!;
    expect(wave.ok).toBe(true);
    expect(wave.report).toMatchObject({ edit: 'ik-bake', from: 10, to: 60, ikOff: '左足ＩＫ, 右足ＩＫ, 左つま先ＩＫ, 右つま先ＩＫ', bakedBones: 6, rawKeys: 6 * 51 });
  }, 180_000);

  it('chains a VMD cannot name are warnings of the row (coded, said in English and Japanese), the others baked', async () => {
    // The hand-built model's right leg: a link named over 15 bytes, an IK bone named over 20 (test/helpers/pmx-append-knee.ts).
    const dir = mk('ikbatch3');
    mkdirSync(path.join(dir, 'in'));
    writeFileSync(path.join(dir, 'long.pmx'), appendKneePmx({ ratio: 0.5, longNames: true }));
    writeFileSync(path.join(dir, 'in', 'walk.vmd'), writeVmd(appendKneeMotion()));
    const b = await run(['batch', 'ik-bake', 'in', '--model', 'long.pmx', '-o', 'out', '--json'], dir);
    expect(b.code, b.err).toBe(0);
    const summary = JSON.parse(b.out) as { results: { ok: boolean; report?: { ikOff: string; notBaked?: string; warnings?: string[]; warningCodes?: { code: string; message: string; params?: Record<string, string> }[] } }[] };
    const report = summary.results[0].report!;
    expect(summary.results[0].ok).toBe(true);
    expect(report.ikOff).toBe('左足ＩＫ');
    expect(report.notBaked).toBeUndefined();
    expect(report.warnings).toEqual([
      'IK bone "とても長い名前の右足ＩＫボーン" not baked (its IK left on): its name is over 20 bytes',
      'IK link "右ひざの長い名前です" not baked (its chain\'s IK left on): its name is over 15 bytes',
    ]);
    expect(report.warningCodes!.map((w) => w.code)).toEqual(['W_IK_BAKE_IK_NAME_LONG', 'W_IK_BAKE_LINK_NAME_LONG']);
    expect(warningLines({ warnings: report.warnings!, warningCodes: report.warningCodes! }, 'ja')).toEqual([
      'IK ボーン「とても長い名前の右足ＩＫボーン」は名前が 20 バイトを超えるため焼き込んでいません（その IK はオンのまま）',
      'IK のリンク「右ひざの長い名前です」は名前が 15 バイトを超えるため焼き込んでいません（その IK はオンのまま）',
    ]);
  });

  c('--to before --from is refused before any file is read (status 2); the op and its options are in batch --help', async () => {
    const dir = mk('ikbatch2');
    mkdirSync(path.join(dir, 'in'));
    copyFileSync(WALK, path.join(dir, 'in', 'walk.vmd'));
    const bad = await run(['batch', 'ik-bake', 'in', '--model', MIKU, '-o', 'out', '--from', '50', '--to', '40'], dir);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--to');
    expect(existsSync(path.join(dir, 'out', 'walk.vmd'))).toBe(false);
    const help = await run(['batch', '--help'], dir);
    expect(help.out).toMatch(/ik-bake[^\n]*--model MODEL\.pmx\|\.pmd/);
    expect(help.out).toContain('--bones IK,IK');
  });
});
