// The editor's retarget (renderer/src/fit/retarget-protocol.ts, what the worker runs): on a corpus motion
// and the two corpus models, with a map, it writes byte for byte what `vmd-studio retarget --map` writes
// (the CLI run in-process as the independent path); and when the editor offers it (stores/retarget.ts).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runRetargetTask } from '../../../renderer/src/fit/retarget-protocol';
import { namesAnotherModel } from '../../../renderer/src/stores/retarget';
import { runCli } from '../../../electron/cli/main';
import { writeVmd } from '../../../shared/vmd';
import { corpusPath, corpusPresent } from '../../helpers/corpus';

const GENE = corpusPath('gene/Gene_light.pmx');
const MIKU = corpusPath('mmd-viewer-js/model/low_miku/miku.pmd');
const STAND = corpusPath('gene/motion/stand.vmd');
const dir = mkdtempSync(path.join(os.tmpdir(), 'vmd-rt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const bytes = (f: string) => new Uint8Array(readFileSync(f));

describe.skipIf(!corpusPresent)('the editor retargets as the CLI does', () => {
  for (const scale of [true, false]) {
    it(`Gene's stand.vmd onto the low-poly Miku with a map${scale ? '' : ', --no-scale'}: the same bytes`, async () => {
      const map = path.join(dir, `map-${scale}.csv`);
      writeFileSync(map, 'old,new\n両目,前髪１\n');
      const out = path.join(dir, `cli-${scale}.vmd`);
      let err = '';
      const code = await runCli(['retarget', STAND, '--from', GENE, '--to', MIKU, '-o', out, '--map', map, ...(scale ? [] : ['--no-scale'])], { stdout: () => undefined, stderr: (s) => (err += s), cwd: dir, isTTY: false });
      expect(code, err).toBe(0);
      let calls = 0;
      const r = runRetargetTask({ motion: bytes(STAND), source: bytes(GENE), target: bytes(MIKU), sourceFile: GENE, targetFile: MIKU, bones: [['両目', '前髪１']], morphs: [], scale }, () => calls++);
      if (!r.ok) throw new Error(r.error.message);
      const mine = writeVmd(r.value.doc), cli = bytes(out);
      expect(mine.length).toBe(cli.length);
      expect(Buffer.compare(Buffer.from(mine), Buffer.from(cli))).toBe(0);
      expect(r.value.details.unmatched.map((u) => u.bone)).not.toContain('両目');
      expect(r.value.details.legRatio === 1).toBe(!scale);
      expect(calls).toBeGreaterThan(0);
    }, 120_000);
  }

  it('a model file that is not a model is an error naming it, not a throw', () => {
    const r = runRetargetTask({ motion: bytes(STAND), source: bytes(STAND), target: bytes(MIKU), sourceFile: '/m/not-a-model.pmx', targetFile: MIKU, bones: [], morphs: [], scale: true });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.file).toBe('/m/not-a-model.pmx');
  });
});

describe('when the editor offers to fit a motion to the model', () => {
  it('a motion naming another model: offered; its own model, none, or its name cut to the header field: not', () => {
    expect(namesAnotherModel('初音ミク', 'ジェネ / Gene')).toBe(true);
    expect(namesAnotherModel('ジェネ / Gene', 'ジェネ / Gene')).toBe(false);
    expect(namesAnotherModel('', 'ジェネ / Gene')).toBe(false);
    expect(namesAnotherModel('初音ミク', '')).toBe(false);
    // A 22-byte name stored cut at 20 bytes (a character boundary) is the same model.
    expect(namesAnotherModel('初音ミクVer2改良版で', '初音ミクVer2改良版です')).toBe(false);
    expect(namesAnotherModel('初音ミクVer2改良', '初音ミクVer2改良版です')).toBe(true);
    // A short name that only begins another is another model.
    expect(namesAnotherModel('初音', '初音ミク')).toBe(true);
  });
});
