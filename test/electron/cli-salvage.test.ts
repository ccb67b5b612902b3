/**
 * `vmd-studio salvage` on a real dance cut short (wavefile_v2.vmd cut 40 bytes into its 1,000th bone record): the
 * output is worked out here from the original's bytes (the 50-byte header and name, a count of 999, the first 999
 * bone records as they were, five empty blocks), the line says where the damage is and how much was kept, an intact
 * file and a missing -o are refused, and the other commands' error on a damaged VMD points to salvage.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../helpers/cli-in-process';
import { corpusPath, corpusPresent } from '../helpers/corpus';

const dir = mkdtempSync(path.join(os.tmpdir(), 'vmd-salvage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!corpusPresent)('vmd-studio salvage', () => {
  const whole = readFileSync(corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd'));
  const cutAt = 50 + 4 + 999 * 111;
  writeFileSync(path.join(dir, 'cut.vmd'), whole.subarray(0, cutAt + 40));

  it('writes the records before the cut, byte for byte, and says what it kept', async () => {
    const r = await runCliCaptured(['salvage', 'cut.vmd', '-o', 'kept.vmd'], dir);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toBe(`salvage: kept.vmd: damaged at byte ${cutAt}, in the bone block: kept 999 of its 14,160 keys; 999 keys in all; the blocks after it cannot be read\n`);
    const count = Buffer.alloc(4);
    count.writeUInt32LE(999);
    const want = Buffer.concat([whole.subarray(0, 50), count, whole.subarray(54, cutAt), Buffer.alloc(20)]);
    expect(readFileSync(path.join(dir, 'kept.vmd')).equals(want)).toBe(true);
    // Not over an existing file without --overwrite.
    expect((await runCliCaptured(['salvage', 'cut.vmd', '-o', 'kept.vmd'], dir)).code).toBe(1);
    const j = await runCliCaptured(['salvage', 'cut.vmd', '-o', 'kept.vmd', '--overwrite', '--json'], dir);
    expect(j.code).toBe(0);
    expect(JSON.parse(j.out)).toMatchObject({ damagedAt: cutAt, kept: 999, blocks: [{ block: 'bone', kept: 999, promised: 14160 }] });
  });

  it('refuses a file that is not damaged, and the other commands point to it for one that is', async () => {
    const intact = await runCliCaptured(['salvage', corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd'), '-o', 'x.vmd'], dir);
    expect(intact.code).toBe(1);
    expect(intact.err).toContain('it is not damaged: it reads as it is (nothing to salvage)');
    expect((await runCliCaptured(['salvage', 'cut.vmd'], dir)).code).toBe(2);
    const mirror = await runCliCaptured(['mirror', 'cut.vmd', '-o', 'm.vmd'], dir);
    expect(mirror.code).toBe(1);
    expect(mirror.err).toContain('vmd-studio: the keys before the damage can be read: vmd-studio salvage cut.vmd -o OUT.vmd');
    const inspect = await runCliCaptured(['inspect', 'cut.vmd'], dir);
    expect(inspect.out).toContain('the keys before the damage can be read: vmd-studio salvage cut.vmd -o OUT.vmd');
  });
});
