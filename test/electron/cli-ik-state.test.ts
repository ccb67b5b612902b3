// `sample` and `inspect` say what the display/IK (表示・IK) keys do. Before, sample printed bones, morphs, camera and
// light only, and inspect counted "ik 5" and no more: a motion with its leg IK off (mc-mmd-rust's Drink.vmd, every
// leg IK off at frame 0, a dance for FK legs) read like any other. Expected lines are written by hand from the keys.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeIkRecord, ikBlockFromRecords, withBlocks, writeVmd } from '../../shared/vmd';
import { runCliCaptured } from '../helpers/cli-in-process';
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
});
