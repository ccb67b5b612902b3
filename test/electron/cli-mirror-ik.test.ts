// `vmd-studio mirror --model` on a motion with 表示・IK keys for Gene_light, whose arm IK 右腕xcIK is on the right
// only: the leg IK switches swap sides and the summary names them; 右腕xcIK keeps its name (before, every key was
// written with 左腕xcIK, a bone Gene lacks, and the summary said nothing of IK). Without --model, no model to ask:
// 左/右 swap everywhere, as before.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeIkRecord, ikBlockFromRecords, readVmd, withBlocks, writeVmd, decodeName } from '../../shared/vmd';
import { runCliCaptured } from '../helpers/cli-in-process';
import { corpusMotion, corpusPath, corpusPresent } from '../helpers/corpus';

const dir = mkdtempSync(path.join(os.tmpdir(), 'vmd-mirror-ik-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The IK switch names of each display/IK key of a file, read field by field (frame 4 | visible 1 | n 4 | n × (name 20 | on 1)). */
function ikNames(file: string): string[][] {
  const r = readVmd(new Uint8Array(readFileSync(file)));
  if (!r.ok) throw new Error(r.error.message);
  const b = r.value.ik.bytes, v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out: string[][] = [];
  for (let o = 0; o < b.length; ) {
    const n = v.getUint32(o + 5, true);
    out.push(Array.from({ length: n }, (_, j) => decodeName(b, o + 9 + 21 * j, 20)));
    o += 9 + 21 * n;
  }
  return out;
}

describe.skipIf(!corpusPresent)('mirror --model: IK switches of a one-sided IK bone', () => {
  it('swaps the leg IKs, keeps 右腕xcIK, and says which IK names it swapped', async () => {
    const stand = corpusMotion('gene/motion/stand.vmd');
    const iks = ['右足ＩＫ', '右つま先ＩＫ', '左足ＩＫ', '左つま先ＩＫ', '右腕xcIK'];
    const rec = (frame: number, off: string[]) => encodeIkRecord({ frame, visible: 1, iks: iks.map((name) => ({ name, enabled: off.includes(name) ? 0 : 1 })) });
    const input = path.join(dir, 'standik.vmd');
    writeFileSync(input, writeVmd(withBlocks(stand, { ik: ikBlockFromRecords([rec(0, []), rec(10, ['右足ＩＫ', '右腕xcIK'])]) })));
    const r = await runCliCaptured(['mirror', input, '-o', 'm.vmd', '--model', corpusPath('gene/Gene_light.pmx')], dir);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('IK switches swapped: 右足ＩＫ ⇄ 左足ＩＫ, 右つま先ＩＫ ⇄ 左つま先ＩＫ');
    const mirrored = ['左足ＩＫ', '左つま先ＩＫ', '右足ＩＫ', '右つま先ＩＫ', '右腕xcIK'];
    expect(ikNames(path.join(dir, 'm.vmd'))).toEqual([mirrored, mirrored]);
    const bare = await runCliCaptured(['mirror', input, '-o', 'bare.vmd'], dir);
    expect(bare.code, bare.err).toBe(0);
    expect(bare.out).toContain('IK switches swapped: 右足ＩＫ ⇄ 左足ＩＫ, 右つま先ＩＫ ⇄ 左つま先ＩＫ, 右腕xcIK → 左腕xcIK');
  });
});
