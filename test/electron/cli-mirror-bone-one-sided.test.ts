// `vmd-studio mirror --model` on a motion with bone keys for Gene_light's one-sided arm IK 右腕xcIK (Gene has no
// 左腕xcIK): the track is left as it is, as mirror paste leaves it, and the summary (text and --json) says so.
// Before, its keys were written for 左腕xcIK, a bone Gene lacks, and the summary said nothing. Without --model, no
// model to ask: 右腕xcIK → 左腕xcIK as before. Expected values by hand: X and rotation Y, Z negated (exact in float32).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { blockFromRecords, decodeName, encodeBoneRecord, readVmd, withBlocks, writeVmd } from '../../shared/vmd';
import { runCliCaptured } from '../helpers/cli-in-process';
import { corpusMotion, corpusPath, corpusPresent } from '../helpers/corpus';

const dir = mkdtempSync(path.join(os.tmpdir(), 'vmd-mirror-one-sided-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each bone key of a file as name, position, rotation, read field by field (name 15 | frame 4 | 3 × f32 | 4 × f32 | 64). */
function boneKeys(file: string): [string, number[], number[]][] {
  const r = readVmd(new Uint8Array(readFileSync(file)));
  if (!r.ok) throw new Error(r.error.message);
  const b = r.value.bone.bytes, v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out: [string, number[], number[]][] = [];
  for (let o = 0; o < b.length; o += 111) {
    const f = (at: number, n: number) => Array.from({ length: n }, (_, i) => v.getFloat32(o + at + 4 * i, true));
    out.push([decodeName(b, o, 15), f(19, 3), f(31, 4)]);
  }
  return out;
}

describe.skipIf(!corpusPresent)('mirror --model: a one-sided bone of the model', () => {
  it('leaves 右腕xcIK as it is, mirrors 右腕 onto 左腕, and lists the bone left', async () => {
    const stand = corpusMotion('gene/motion/stand.vmd');
    const input = path.join(dir, 'xc.vmd');
    writeFileSync(input, writeVmd(withBlocks(stand, { bone: blockFromRecords('bone', [
      encodeBoneRecord({ name: '右腕', frame: 0, position: [0, 0, 0], rotation: [0.5, 0.5, 0.5, 0.5] }),
      encodeBoneRecord({ name: '右腕xcIK', frame: 0, position: [1.25, 2, 3], rotation: [0.5, 0.5, -0.5, 0.5] }),
    ]) })));
    const model = corpusPath('gene/Gene_light.pmx');
    const r = await runCliCaptured(['mirror', input, '-o', 'm.vmd', '--model', model], dir);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('one-sided bones left as they are: 右腕xcIK');
    expect(boneKeys(path.join(dir, 'm.vmd'))).toEqual([
      ['左腕', [0, 0, 0], [0.5, -0.5, -0.5, 0.5]],
      ['右腕xcIK', [1.25, 2, 3], [0.5, 0.5, -0.5, 0.5]],
    ]);
    const j = await runCliCaptured(['mirror', input, '-o', 'm.vmd', '--overwrite', '--model', model, '--json'], dir);
    expect(j.code, j.err).toBe(0);
    expect(JSON.parse(j.out).oneSidedBones).toEqual(['右腕xcIK']);
    // Mirrored twice with the model: the input's bytes.
    const twice = await runCliCaptured(['mirror', 'm.vmd', '-o', 'mm.vmd', '--model', model], dir);
    expect(twice.code, twice.err).toBe(0);
    expect(readFileSync(path.join(dir, 'mm.vmd'))).toEqual(readFileSync(input));
    const bare = await runCliCaptured(['mirror', input, '-o', 'bare.vmd'], dir);
    expect(bare.code, bare.err).toBe(0);
    expect(bare.out).not.toContain('one-sided');
    expect(boneKeys(path.join(dir, 'bare.vmd'))[1]).toEqual(['左腕xcIK', [-1.25, 2, 3], [0.5, -0.5, 0.5, 0.5]]);
  });
});
