// `vmd-studio mirror` on the corpus dance says which morph tracks it renamed: MMD's wink pairs ウィンク ⇄ ウィンク右
// and ウィンク２ ⇄ ｳｨﾝｸ２右 (no 左 form of them is written), in the report line and in --json.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../helpers/cli-in-process';
import { corpusPath, corpusPresent } from '../helpers/corpus';

const dir = mkdtempSync(path.join(os.tmpdir(), 'vmd-mirror-morphs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!corpusPresent)('mirror: the morphs it swapped', () => {
  const dance = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');

  it('names the wink pairs in the report line and in --json', async () => {
    const r = await runCliCaptured(['mirror', dance, '-o', 'mir.vmd'], dir);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('; morphs swapped: ウィンク ⇄ ウィンク右, ウィンク２ ⇄ ｳｨﾝｸ２右\n');
    const j = await runCliCaptured(['mirror', dance, '-o', 'mir.vmd', '--overwrite', '--json'], dir);
    expect(j.code, j.err).toBe(0);
    expect(JSON.parse(j.out).morphsSwapped).toEqual(['ウィンク ⇄ ウィンク右', 'ウィンク２ ⇄ ｳｨﾝｸ２右']);
    const inspect = await runCliCaptured(['inspect', path.join(dir, 'mir.vmd'), '--json'], dir);
    expect(inspect.out).not.toContain('ウィンク左');
  });
});
