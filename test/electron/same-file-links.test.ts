// The same file by two paths (finding 5 of the files-across-sessions pass): a symbolic link to a motion, or a
// linked folder on the way, is one file. openFile and saveFile say the real path beside the one opened by, so
// the renderer's one-file-one-owner rule holds for the link too, and the recent list keeps one entry per file.
// Real links in a temp folder.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileService } from '../../electron/services/file-service';
import { createRecentFiles } from '../../electron/services/recent-files';
import { buildVmd, writeVmd } from '../../shared/vmd';

const VMD = writeVmd(buildVmd({ model: '', bones: [{ name: 'センター', frame: 0, position: [1, 0, 0], rotation: [0, 0, 0, 1] }] }));

let dir: string;
beforeEach(() => {
  // Resolved: the temp folder itself may be reached by a link (macOS's /var → /private/var).
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'vmd-links-')));
  mkdirSync(path.join(dir, 'work'));
  writeFileSync(path.join(dir, 'work', 'walk.vmd'), VMD);
  symlinkSync(path.join(dir, 'work', 'walk.vmd'), path.join(dir, 'work', 'walk-link.vmd'));
  symlinkSync('work', path.join(dir, 'linked-folder'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(process.platform === 'win32')('the same file by two paths', () => {
  it('openFile keeps the path opened by and says the real one: the link, a linked folder, .. segments', async () => {
    const files = createFileService();
    const real = path.join(dir, 'work', 'walk.vmd');
    for (const p of [real, path.join(dir, 'work', 'walk-link.vmd'), path.join(dir, 'linked-folder', 'walk.vmd'), path.join(dir, 'linked-folder', '..', 'work', 'walk-link.vmd')]) {
      const r = await files.openFile(p);
      if (!r.ok) throw new Error(r.error.message);
      expect(r.value.path).toBe(path.resolve(p));
      expect(r.value.realPath).toBe(real);
    }
  });

  it('saveFile over the link writes the target (the link stays a link) and says the real path', async () => {
    const files = createFileService();
    const link = path.join(dir, 'work', 'walk-link.vmd');
    const r = await files.saveFile(link, VMD, { overwrite: true });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.realPath).toBe(path.join(dir, 'work', 'walk.vmd'));
  });

  it('the recent list keeps one entry per file: the link opened after its target replaces it, and the other way round', async () => {
    let t = 0;
    const recent = createRecentFiles(path.join(dir, 'settings'), { platform: 'linux', now: () => ++t });
    const files = createFileService({ recent });
    const real = path.join(dir, 'work', 'walk.vmd');
    const link = path.join(dir, 'work', 'walk-link.vmd');
    const viaFolder = path.join(dir, 'linked-folder', 'walk.vmd');
    writeFileSync(path.join(dir, 'work', 'run.vmd'), VMD);
    expect((await files.openFile(real)).ok).toBe(true);
    expect((await files.openFile(path.join(dir, 'work', 'run.vmd'))).ok).toBe(true);
    expect((await files.openFile(link)).ok).toBe(true);
    expect((await recent.list()).map((r) => r.path)).toEqual([link, path.join(dir, 'work', 'run.vmd')]);
    expect((await files.openFile(viaFolder)).ok).toBe(true);
    expect((await recent.list()).map((r) => r.path)).toEqual([viaFolder, path.join(dir, 'work', 'run.vmd')]);
    expect((await files.openFile(real)).ok).toBe(true);
    expect((await recent.list()).map((r) => r.path)).toEqual([real, path.join(dir, 'work', 'run.vmd')]);
    // The file is untouched by all this.
    expect(readFileSync(real).equals(Buffer.from(VMD))).toBe(true);
  });
});
