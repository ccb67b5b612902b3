// Shift_JIS file names (finding 8 of the files-across-sessions pass): a zip made on Japanese Windows, unpacked on
// Linux by a tool that keeps the bytes, gives names that are not UTF-8. The Open dialog's listing shows their
// real size (stat by the name's bytes) and their name read as Shift_JIS with a mark, a folder so named is listed,
// and opening one (the app, the CLI) names the file by its Shift_JIS reading and says how to fix it. Real files
// in a temp folder, named by bytes.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Encoding from 'encoding-japanese';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileService } from '../../electron/services/file-service';
import { listMotionFiles } from '../../electron/fs/files';
import { runCli } from '../../electron/cli/main';
import { buildVmd, writeVmd } from '../../shared/vmd';

const VMD = writeVmd(buildVmd({ model: '', bones: [{ name: 'センター', frame: 0, position: [1, 0, 0], rotation: [0, 0, 0, 1] }] }));
/** `text` in Shift_JIS bytes (encoding-japanese, not the decoder under test). */
const sjis = (text: string) => Buffer.from(Encoding.convert(Encoding.stringToCode(text), { to: 'SJIS', from: 'UNICODE' }));
const FIX = 'convmv -f sjis -t utf8 --notest';

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'vmd-sjis-')));
  const d = Buffer.from(dir + '/');
  // 立ち.vmd and sjis_ダンス/笑い.vmd, named in Shift_JIS bytes.
  writeFileSync(Buffer.concat([d, sjis('立ち.vmd')]), VMD);
  mkdirSync(Buffer.concat([d, sjis('sjis_ダンス')]));
  writeFileSync(Buffer.concat([d, sjis('sjis_ダンス'), Buffer.from('/'), sjis('笑い.vmd')]), VMD);
  writeFileSync(path.join(dir, 'ok.vmd'), VMD);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

// Linux file names are bytes; macOS and Windows file systems refuse names that are not Unicode.
describe.skipIf(process.platform !== 'linux')('Shift_JIS file names', () => {
  it('the listing shows the real size and the name read as Shift_JIS, marked; a folder so named lists', async () => {
    const files = createFileService();
    const r = await files.listDirectory(dir);
    if (!r.ok) throw new Error(r.error.message);
    const shown = r.value.entries.map((e) => ({ name: e.notUtf8?.shownName ?? e.name, kind: e.kind, size: e.size, as: e.notUtf8?.as ?? null }));
    expect(shown).toEqual([
      { name: 'sjis_ダンス', kind: 'dir', size: 0, as: 'sjis' },
      { name: 'ok.vmd', kind: 'file', size: VMD.length, as: null },
      { name: '立ち.vmd', kind: 'file', size: VMD.length, as: 'sjis' },
    ]);
    const folder = r.value.entries[0];
    const inside = await files.listDirectory(folder.path);
    if (!inside.ok) throw new Error(inside.error.message);
    expect(inside.value.entries.map((e) => [e.notUtf8?.shownName, e.size])).toEqual([['笑い.vmd', VMD.length]]);
  });

  it('opening one names it by its Shift_JIS reading and says how to fix it (the file, and one in a folder so named)', async () => {
    const files = createFileService();
    const r = await files.listDirectory(dir);
    if (!r.ok) throw new Error(r.error.message);
    const tachi = r.value.entries.find((e) => e.notUtf8?.shownName === '立ち.vmd')!;
    const o = await files.openFile(tachi.path);
    expect(o.ok).toBe(false);
    if (o.ok) return;
    expect(o.error.code).toBe('E_IO_NAME_NOT_UTF8');
    expect(o.error.message).toContain('"立ち.vmd"');
    expect(o.error.message).toContain(FIX);
    expect(o.error.message).toContain('unzip -O cp932');
    expect(o.error.params).toEqual({ name: '立ち.vmd', sjis: 1 });

    const inside = await files.listDirectory(r.value.entries[0].path);
    if (!inside.ok) throw new Error(inside.error.message);
    const warai = await files.openFile(inside.value.entries[0].path);
    expect(!warai.ok && warai.error.params).toEqual({ name: '笑い.vmd', sjis: 1 });
  });

  it('the CLI names them too: a folder listed, and a path given', async () => {
    const { errors } = await listMotionFiles([dir]);
    expect(errors.map((e) => e.params)).toEqual([{ name: '立ち.vmd', sjis: 1 }]);
    let err = '';
    const io = { stdout: () => undefined, stderr: (s: string) => void (err += s), cwd: dir, isTTY: false };
    expect(await runCli(['inspect', dir], io)).toBe(1);
    expect(err).toContain('"立ち.vmd"');
    expect(err).toContain(FIX);
    err = '';
    expect(await runCli(['inspect', path.join(dir, Buffer.from(sjis('立ち.vmd')).toString('utf8'))], io)).toBe(1);
    expect(err).toContain('"立ち.vmd"');
  });
});
