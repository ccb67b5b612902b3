// `vmd-studio ik-bake` in-process: writes OUT whose report (--json) matches what the file holds (re-read here: the
// baked bones' keys, the IK block), the same bytes every run and in either argument order; --raw, --bones, --from/--to;
// refuses an existing OUT without --overwrite, bad options with status 2, and nothing to bake (a model without IK, IK
// off everywhere) with status 1 and a line naming the file, writing nothing; --help.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readVmd, buildTracks, encodeIkRecord, ikBlockFromRecords, withBlocks, writeVmd } from '../../shared/vmd';
import { readModel } from '../../shared/pmx';
import { ikSwitchesOf, ikEnabledAt } from '../../shared/skeleton';
import { useTempDirs } from './batch-helpers';
import { runCliCaptured as run } from '../helpers/cli-in-process';
import { corpusPath, corpusPresent } from '../helpers/corpus';

const mk = useTempDirs();
const c = corpusPresent ? it : it.skip;

const MIKU = 'mmd-viewer-js/model/low_miku/miku.pmd';
const WAVE = 'mmd-viewer-js/vmd/wavefile_v2.vmd';

describe('vmd-studio ik-bake', () => {
  c('low-poly Miku × wavefile_v2 legs, frames 100–300: the report matches the file; same bytes in either order and each run; --raw; --overwrite', async () => {
    const dir = mk('ikbake');
    const model = corpusPath(MIKU), motion = corpusPath(WAVE);
    const args = ['--from', '100', '--to', '300', '--bones', '左足ＩＫ,右足ＩＫ,左つま先ＩＫ,右つま先ＩＫ'];
    const r = await run(['ik-bake', model, motion, '-o', 'out.vmd', ...args, '--json'], dir);
    expect(r.code, r.err).toBe(0);
    const rep = JSON.parse(r.out);
    expect(rep.ikOff).toEqual(['左足ＩＫ', '右足ＩＫ', '左つま先ＩＫ', '右つま先ＩＫ']);
    expect(rep.bones).toEqual(['左足', '左ひざ', '左足首', '右足', '右ひざ', '右足首']);
    expect(rep.rawKeys).toBe(6 * 201);
    expect(rep.maxRotationErrorDeg).toBeLessThanOrEqual(0.1 + 1e-3);
    const doc = readVmd(new Uint8Array(readFileSync(path.join(dir, 'out.vmd'))));
    expect(doc.ok).toBe(true);
    if (!doc.ok) return;
    const tr = buildTracks(doc.value);
    const t = tr.bones;
    let inRange = 0;
    for (const name of rep.bones as string[]) {
      const i = t.index.get(name)!;
      for (let k = t.start[i]; k < t.start[i + 1]; k++) if (t.frames[k] >= 100 && t.frames[k] <= 300) inRange++;
    }
    expect(inRange).toBe(rep.keptKeys);
    const sw = ikSwitchesOf(doc.value, tr);
    for (const ik of rep.ikOff as string[]) {
      expect(ikEnabledAt(sw, ik, 99)).toBe(true);
      expect(ikEnabledAt(sw, ik, 100)).toBe(false);
      expect(ikEnabledAt(sw, ik, 300)).toBe(false);
      expect(ikEnabledAt(sw, ik, 301)).toBe(true);
    }
    // The hair's IK is not named: left on.
    expect(ikEnabledAt(sw, '左髪ＩＫ', 200)).toBe(true);
    // The motion first, the model as --model: the same bytes.
    const b2 = await run(['ik-bake', motion, '--model', model, '-o', 'out2.vmd', ...args, '--quiet'], dir);
    expect(b2.code, b2.err).toBe(0);
    expect(b2.out).toBe('');
    expect(readFileSync(path.join(dir, 'out.vmd')).equals(readFileSync(path.join(dir, 'out2.vmd')))).toBe(true);
    // An existing OUT is kept without --overwrite.
    const before = readFileSync(path.join(dir, 'out.vmd'));
    const again = await run(['ik-bake', model, motion, '-o', 'out.vmd', '--raw', ...args], dir);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/out\.vmd/);
    expect(readFileSync(path.join(dir, 'out.vmd')).equals(before)).toBe(true);
    const over = await run(['ik-bake', model, motion, '-o', 'out.vmd', '--raw', ...args], dir);
    expect(over.code).toBe(1);
    const raw = await run(['ik-bake', model, motion, '-o', 'out.vmd', '--raw', '--overwrite', ...args], dir);
    expect(raw.code, raw.err).toBe(0);
    // The text report names the bones, the counts and the error.
    expect(raw.out).toMatch(/^ik-bake: out\.vmd: 6 bones baked \(左足, 左ひざ, 左足首, 右足, 右ひざ, 右足首\) over frames 100–300, keys 1,206 raw → 1,206 kept/);
    expect(raw.out).toMatch(/IK off over the range: 左足ＩＫ, 右足ＩＫ, 左つま先ＩＫ, 右つま先ＩＫ; played back with that IK off against the IK pose: max rotation error/);
  }, 300_000);

  c('nothing to bake: a model without IK, IK off over the whole range, an unknown IK name: status 1, the file named, nothing written', async () => {
    const dir = mk('ikbake-none');
    const motion = corpusPath(WAVE);
    // A PMX without IK bones from the corpus (babylon-mmd's bone_flag_test.pmx: its bones, read here, have no IK).
    const noIkModel = corpusPath('babylon-mmd/res/model/bone_flag_test.pmx');
    const m = readModel(new Uint8Array(readFileSync(noIkModel)));
    expect(m.ok && m.value.bones.every((b) => !b.ik)).toBe(true);
    const r1 = await run(['ik-bake', noIkModel, motion, '-o', 'a.vmd'], dir);
    expect(r1.code).toBe(1);
    expect(r1.err).toMatch(/bone_flag_test\.pmx: .*has no IK bones/);
    expect(existsSync(path.join(dir, 'a.vmd'))).toBe(false);

    // wavefile with one IK key turning every IK bone of the low-poly Miku off at frame 0.
    const mk2 = readModel(new Uint8Array(readFileSync(corpusPath(MIKU))));
    const d = readVmd(new Uint8Array(readFileSync(motion)));
    if (!mk2.ok || !d.ok) throw new Error('corpus');
    const off = encodeIkRecord({ frame: 0, visible: 1, iks: mk2.value.bones.filter((b) => b.ik).map((b) => ({ name: b.name, enabled: 0 })) });
    writeFileSync(path.join(dir, 'off.vmd'), writeVmd(withBlocks(d.value, { ik: ikBlockFromRecords([off]) })));
    const r2 = await run(['ik-bake', corpusPath(MIKU), 'off.vmd', '-o', 'b.vmd', '--json'], dir);
    expect(r2.code).toBe(1);
    const j = JSON.parse(r2.out);
    expect(j.error.code).toBe('E_IK');
    expect(j.file).toBe(path.join(dir, 'off.vmd'));
    expect(existsSync(path.join(dir, 'b.vmd'))).toBe(false);

    const r3 = await run(['ik-bake', corpusPath(MIKU), motion, '-o', 'c.vmd', '--bones', '左腕ＩＫ'], dir);
    expect(r3.code).toBe(1);
    expect(r3.err).toMatch(/miku\.pmd: .*has no IK bone "左腕ＩＫ" \(its IK bones: .*左足ＩＫ/);
  }, 120_000);

  it('bad command lines: status 2, nothing read; --help', async () => {
    const dir = mk('ikbake-usage');
    for (const argv of [['ik-bake', 'm.pmx', 'a.vmd'], ['ik-bake', 'm.pmx', '-o', 'o.vmd'], ['ik-bake', 'm.pmx', 'a.vmd', '-o', 'o.vmd', '--rot-tol', '0'], ['ik-bake', 'm.pmx', 'a.vmd', '-o', 'o.vmd', '--from', '10', '--to', '5'], ['ik-bake', 'm.pmx', 'a.vmd', '-o', 'o.vmd', '--bones', ',']]) {
      const r = await run(argv, dir);
      expect(r.code, argv.join(' ')).toBe(2);
    }
    const h = await run(['ik-bake', '--help'], dir);
    expect(h.code).toBe(0);
    expect(h.out).toMatch(/vmd-studio ik-bake MODEL\.pmx\|\.pmd MOTION\.vmd -o OUT\.vmd/);
    expect(h.out).toMatch(/--bones LIST/);
    // A missing model is named.
    const r = await run(['ik-bake', 'nope.pmx', corpusPresent ? corpusPath(WAVE) : 'a.vmd', '-o', 'o.vmd'], dir);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/nope\.pmx/);
  });
});
