// `sample` and `inspect` say what the display/IK (表示・IK) keys do. Before, sample printed bones, morphs, camera and
// light only, and inspect counted "ik 5" and no more: a motion with its leg IK off (mc-mmd-rust's Drink.vmd, every
// leg IK off at frame 0, a dance for FK legs) read like any other. Expected lines are written by hand from the keys.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeIkRecord, ikBlockFromRecords, withBlocks, writeVmd } from '../../shared/vmd';
import { runCliCaptured } from '../helpers/cli-in-process';
import { runBatch } from '../../electron/batch/engine';
import { warningLines } from '../../shared/i18n/warning-line';
import { ensureBuilt } from './batch-helpers';
import { corpusMotion, corpusPath, corpusPresent } from '../helpers/corpus';

const dir = mkdtempSync(path.join(os.tmpdir(), 'vmd-ik-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const IKS = ['右腕xcIK', '左足ＩＫ', '左つま先ＩＫ', '右足ＩＫ', '右つま先ＩＫ'];
const key = (frame: number, visible: number, off: string[]) => encodeIkRecord({ frame, visible, iks: IKS.map((name) => ({ name, enabled: off.includes(name) ? 0 : 1 })) });

describe.skipIf(!corpusPresent)('sample and inspect: display and IK switches', () => {
  // stand.vmd with keys: 0 all on; 10 右足ＩＫ and 右腕xcIK off; 40 hidden, 右足ＩＫ on again (右腕xcIK still off).
  const file = path.join(dir, 'standik.vmd');
  writeFileSync(file, writeVmd(withBlocks(corpusMotion('gene/motion/stand.vmd'), { ik: ikBlockFromRecords([key(0, 1, []), key(10, 1, ['右足ＩＫ', '右腕xcIK']), key(40, 0, ['右腕xcIK'])]) })));

  it('sample prints display and the IK bones off at the frame, and --json gives them', async () => {
    const at = async (frame: string) => (await runCliCaptured(['sample', file, '--frame', frame], dir)).out.trim().split('\n').at(-1);
    expect(await at('5')).toBe('display on  IK all on');
    expect(await at('15.5')).toBe('display on  IK off: 右腕xcIK 右足ＩＫ');
    expect(await at('45')).toBe('display off  IK off: 右腕xcIK');
    const j = await runCliCaptured(['sample', file, '--frame', '15', '--json'], dir);
    expect(j.code, j.err).toBe(0);
    const pose = JSON.parse(j.out);
    expect(pose.display).toBe(true);
    expect(pose.ikOff).toEqual(['右腕xcIK', '右足ＩＫ']);
  });

  it('sample of a motion without display/IK keys says nothing of them', async () => {
    const r = await runCliCaptured(['sample', corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd'), '--frame', '0', '--json'], dir);
    expect(JSON.parse(r.out)).not.toHaveProperty('display');
  });

  it('inspect says where IK is off, leg IK apart, in English and Japanese; --json lists the spans', async () => {
    const r = await runCliCaptured(['inspect', file], dir);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('  warning IK off from frame 10: 右腕xcIK\n');
    expect(r.out).toContain('  warning leg IK off at frames 10–39 (FK legs): 右足ＩＫ\n');
    const j = JSON.parse((await runCliCaptured(['inspect', file, '--json'], dir)).out);
    expect(j.ikOff).toEqual([{ name: '右腕xcIK', spans: [[10, null]] }, { name: '右足ＩＫ', spans: [[10, 39]] }]);
    const drink = corpusPath('mc-mmd-rust/default_anim/Drink.vmd');
    const en = await runCliCaptured(['inspect', drink], dir);
    expect(en.out).toContain('  warning leg IK off from frame 0 (FK legs): 右足ＩＫ, 右つま先ＩＫ, 左足ＩＫ, 左つま先ＩＫ\n');
    const ja = await runCliCaptured(['inspect', '--lang', 'ja', drink], dir);
    expect(ja.out).toContain('  警告 フレーム 0 から足 IK がオフです（足は FK）: 右足ＩＫ, 右つま先ＩＫ, 左足ＩＫ, 左つま先ＩＫ\n');
  });

  it('inspect says where the display keys hide the model, in English and Japanese; --json lists the spans', async () => {
    // standik.vmd: hidden from 40 (its last key). hideshow.vmd: hidden at 10, shown again at 20, hidden at 30, shown at 35.
    const r = await runCliCaptured(['inspect', file], dir);
    expect(r.out).toContain('  warning model hidden from frame 40 (display off)\n');
    expect((await runCliCaptured(['inspect', '--lang', 'ja', file], dir)).out).toContain('  警告 フレーム 40 からモデルが非表示です（表示オフ）\n');
    expect(JSON.parse((await runCliCaptured(['inspect', file, '--json'], dir)).out).displayOff).toEqual([[40, null]]);
    const both = path.join(dir, 'hideshow.vmd');
    const show = (frame: number, visible: number) => encodeIkRecord({ frame, visible, iks: [] });
    writeFileSync(both, writeVmd(withBlocks(corpusMotion('gene/motion/stand.vmd'), { ik: ikBlockFromRecords([show(0, 1), show(10, 0), show(20, 1), show(30, 0), show(35, 1)]) })));
    expect((await runCliCaptured(['inspect', both], dir)).out).toContain('  warning model hidden at frames 10–19, 30–34 (display off)\n');
    expect((await runCliCaptured(['inspect', '--lang', 'ja', both], dir)).out).toContain('  警告 フレーム 10–19, 30–34 でモデルが非表示です（表示オフ）\n');
    const j = JSON.parse((await runCliCaptured(['inspect', both, '--json'], dir)).out);
    expect(j.displayOff).toEqual([[10, 19], [30, 34]]);
    expect(j).not.toHaveProperty('ikOff');
    // A motion that never hides the model: no displayOff.
    expect(JSON.parse((await runCliCaptured(['inspect', corpusPath('mc-mmd-rust/default_anim/Drink.vmd'), '--json'], dir)).out)).not.toHaveProperty('displayOff');
  });

  it('the batch inspect writes what inspect --json says, IK and display notes included, and its report says them (Batch dialog rows, in Japanese too)', async () => {
    ensureBuilt(['node']);
    const input = path.join(dir, 'batch-in');
    mkdirSync(input, { recursive: true });
    copyFileSync(file, path.join(input, 'standik.vmd'));
    copyFileSync(corpusPath('mc-mmd-rust/default_anim/Drink.vmd'), path.join(input, 'Drink.vmd'));
    const out = path.join(dir, 'batch-out');
    const s = await runBatch({ op: 'inspect', inputDir: input, outputDir: out, options: {}, recursive: false, jobs: 1 });
    expect(s.ok, s.ok ? '' : s.error.message).toBe(true);
    if (!s.ok) return;
    expect(s.value.failed).toBe(0);
    for (const name of ['standik', 'Drink']) {
      const cli = await runCliCaptured(['inspect', '--json', path.join(input, `${name}.vmd`)], dir);
      const { file: _f, ok: _ok, ...said } = JSON.parse(cli.out);
      expect(JSON.parse(readFileSync(path.join(out, `${name}.json`), 'utf8')), name).toEqual(said);
    }
    const report = (name: string) => {
      const r = s.value.results.find((x) => path.basename(x.input) === `${name}.vmd`)!;
      return r.ok ? r.value.report : null;
    };
    expect(JSON.parse(readFileSync(path.join(out, 'standik.json'), 'utf8')).displayOff).toEqual([[40, null]]);
    // After the reader's notes (stand.vmd repeats some keys), those of the display/IK keys.
    expect(warningLines(report('standik'), 'en', 'app').slice(-3)).toEqual(['IK off from frame 10: 右腕xcIK', 'leg IK off at frames 10–39 (FK legs): 右足ＩＫ', 'model hidden from frame 40 (display off)']);
    expect(warningLines(report('Drink'), 'ja', 'app')).toContain('フレーム 0 から足 IK がオフです（足は FK）: 右足ＩＫ, 右つま先ＩＫ, 左足ＩＫ, 左つま先ＩＫ');
  });
});

