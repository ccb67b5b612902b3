/** Scene and audio file requests against real temp folders (no Electron), through the one dispatcher too. */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSceneService } from '../../electron/services/scene-service';
import { createFileService } from '../../electron/services/file-service';
import { createRecentFiles } from '../../electron/services/recent-files';
import { createServices, dispatch } from '../../electron/services';
import { noDialogs } from '../../electron/services/dialog-service';
import { filesFromArgv } from '../../electron/argv';
import { parseScene } from '../../shared/scene/scene-file';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'vmd-scene-svc-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const SCENE_TEXT = '{"format":"vmd-studio-scene","version":1,"actors":[{"model":null,"motion":"dance.vmd"}],"audio":{"path":"song.wav"}}\n';
const enc = (s: string) => new TextEncoder().encode(s);

describe('scene service', () => {
  it('opens a scene file as its exact bytes, recorded as recent; the bytes parse with paths beside the scene', async () => {
    const recent = createRecentFiles(path.join(dir, 'settings'));
    const svc = createSceneService({ recent });
    const file = path.join(dir, 'duet.vmdscene');
    writeFileSync(file, SCENE_TEXT);
    const r = await svc.openScene(file);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value).toMatchObject({ path: file, name: 'duet.vmdscene' });
    expect(Buffer.from(r.value.bytes).toString('utf8')).toBe(SCENE_TEXT);
    expect((await recent.list()).map((x) => x.path)).toEqual([file]);
    const scene = parseScene(r.value.bytes, r.value.path);
    expect(scene.ok && scene.value.actors[0].motion).toBe(path.join(dir, 'dance.vmd'));
    expect(scene.ok && scene.value.audio?.path).toBe(path.join(dir, 'song.wav'));
  });

  it('answers a missing scene, a folder, an empty file and other extensions with error values', async () => {
    const svc = createSceneService();
    expect(await svc.openScene(path.join(dir, 'none.vmdscene'))).toMatchObject({ ok: false, error: { code: 'E_IO_NOT_FOUND' } });
    mkdirSync(path.join(dir, 'folder.vmdscene'));
    expect(await svc.openScene(path.join(dir, 'folder.vmdscene'))).toMatchObject({ ok: false, error: { code: 'E_IO' } });
    writeFileSync(path.join(dir, 'empty.vmdscene'), '');
    expect(await svc.openScene(path.join(dir, 'empty.vmdscene'))).toMatchObject({ ok: false, error: { code: 'E_FILE_EMPTY', message: expect.stringContaining('empty') } });
    writeFileSync(path.join(dir, 'a.vmd'), 'x');
    expect(await svc.openScene(path.join(dir, 'a.vmd'))).toMatchObject({ ok: false, error: { code: 'E_UNSUPPORTED' } });
  });

  it('saves atomically, refuses to replace without overwrite, keeps a .bak when the save asks for one', async () => {
    const svc = createSceneService();
    const file = path.join(dir, 's.vmdscene');
    const first = await svc.saveScene(file, enc(SCENE_TEXT));
    expect(first).toMatchObject({ ok: true, value: { path: file, bytesWritten: SCENE_TEXT.length, backupPath: null } });
    expect(readFileSync(file, 'utf8')).toBe(SCENE_TEXT);
    expect(await svc.saveScene(file, enc(SCENE_TEXT))).toMatchObject({ ok: false, error: { code: 'E_IO_EXISTS' } });
    const v2 = SCENE_TEXT.replace('dance.vmd', 'dance2.vmd');
    expect(await svc.saveScene(file, enc(v2), { overwrite: true, backup: true })).toMatchObject({ ok: true, value: { backupPath: file + '.bak' } });
    expect(readFileSync(file + '.bak', 'utf8')).toBe(SCENE_TEXT);
    const v3 = SCENE_TEXT.replace('dance.vmd', 'dance3.vmd');
    // A later save of the same opening asks for none (the renderer's rule): the .bak stays the file as it was opened.
    expect(await svc.saveScene(file, enc(v3), { overwrite: true, backup: false })).toMatchObject({ ok: true, value: { backupPath: null } });
    expect(readFileSync(file, 'utf8')).toBe(v3);
    expect(readFileSync(file + '.bak', 'utf8')).toBe(SCENE_TEXT);
    // No temp file is left beside it.
    expect(readdirSync(dir).sort()).toEqual(['s.vmdscene', 's.vmdscene.bak']);
  });

  it('never writes bytes that would not open again as a scene, nor under another extension', async () => {
    const svc = createSceneService();
    const file = path.join(dir, 'bad.vmdscene');
    expect(await svc.saveScene(file, enc('{"format":"vmd-studio-scene",'))).toMatchObject({ ok: false, error: { code: 'E_SCENE_JSON', file } });
    expect(await svc.saveScene(file, enc('{"format":"other","version":1}'))).toMatchObject({ ok: false, error: { code: 'E_SCENE_FORMAT' } });
    expect(existsSync(file)).toBe(false);
    expect(await svc.saveScene(path.join(dir, 'x.vmd'), enc(SCENE_TEXT))).toMatchObject({ ok: false, error: { code: 'E_UNSUPPORTED' } });
    expect(existsSync(path.join(dir, 'x.vmd'))).toBe(false);
  });

  it("reads an audio file's bytes exactly, for the renderer to decode; refuses non-audio and missing files", async () => {
    const svc = createSceneService();
    const wav = path.join(dir, 'Song.WAV');
    const bytes = Buffer.from([0x52, 0x49, 0x46, 0x46, 1, 2, 3, 4, 0x57, 0x41, 0x56, 0x45]);
    writeFileSync(wav, bytes);
    const r = await svc.readAudioFile(wav);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.name).toBe('Song.WAV');
    expect(Buffer.compare(Buffer.from(r.value.bytes), bytes)).toBe(0);
    for (const ext of ['mp3', 'ogg', 'flac', 'm4a', 'aac']) {
      writeFileSync(path.join(dir, `a.${ext}`), 'xx');
      expect((await svc.readAudioFile(path.join(dir, `a.${ext}`))).ok, ext).toBe(true);
    }
    writeFileSync(path.join(dir, 'notes.txt'), 'x');
    expect(await svc.readAudioFile(path.join(dir, 'notes.txt'))).toMatchObject({ ok: false, error: { code: 'E_UNSUPPORTED' } });
    expect(await svc.readAudioFile(path.join(dir, 'gone.mp3'))).toMatchObject({ ok: false, error: { code: 'E_IO_NOT_FOUND', file: path.join(dir, 'gone.mp3') } });
  });
});

describe('scene and audio files in listings, dispatch and the command line', () => {
  it('the in-app dialog lists scenes with the scene filter and songs with the audio filter', async () => {
    for (const f of ['a.vmd', 'b.vmdscene', 'c.wav', 'd.MP3', 'e.txt']) writeFileSync(path.join(dir, f), 'x');
    const files = createFileService();
    const names = async (filter: 'scene' | 'audio' | 'motion') => {
      const r = await files.listDirectory(dir, { filter });
      if (!r.ok) throw new Error(r.error.message);
      return r.value.entries.map((e) => e.name);
    };
    expect(await names('scene')).toEqual(['b.vmdscene']);
    expect(await names('audio')).toEqual(['c.wav', 'd.MP3']);
    expect(await names('motion')).toEqual(['a.vmd']);
  });

  it('the dispatcher validates and routes openScene, saveScene and readAudioFile', async () => {
    const s = createServices({
      settingsDir: path.join(dir, 'settings'),
      dialogs: noDialogs,
      emit: () => undefined,
      runBatch: async () => ({ ok: true, value: { jobId: 'x', total: 0, ok: 0, failed: 0, skipped: 0, cancelled: false, results: [], ms: 0 } }),
      appInfo: { name: 'VMD Studio', version: '0', mode: 'browser', versions: { node: process.versions.node } },
      homeDir: dir,
    });
    const file = path.join(dir, 'x.vmdscene');
    expect(await dispatch(s.handlers, 'saveScene', [file, enc(SCENE_TEXT)])).toMatchObject({ ok: true });
    expect(await dispatch(s.handlers, 'openScene', [file])).toMatchObject({ ok: true, value: { name: 'x.vmdscene' } });
    expect(await dispatch(s.handlers, 'saveScene', [file, 'text'])).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT' } });
    expect(await dispatch(s.handlers, 'saveScene', [file, enc(SCENE_TEXT), { force: true }])).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT' } });
    expect(await dispatch(s.handlers, 'openScene', [])).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT' } });
    expect(await dispatch(s.handlers, 'readAudioFile', [42])).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT' } });
    expect(await dispatch(s.handlers, 'listDirectory', [dir, { filter: 'scene' }])).toMatchObject({ ok: true });
    expect(await dispatch(s.handlers, 'listDirectory', [dir, { filter: 'songs' }])).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT' } });
  });

  it('a double-clicked .vmdscene reaches the window like a .vmd', () => {
    expect(filesFromArgv(['app', '/m/duet.vmdscene', '/m/a.vmd', '/m/x.json'], { packaged: true, platform: 'linux', cwd: '/' })).toEqual([
      '/m/duet.vmdscene',
      '/m/a.vmd',
    ]);
    expect(filesFromArgv(['app', 'file:///C:/MMD/Duet.VMDSCENE'], { packaged: true, platform: 'win32', cwd: 'C:\\' })).toEqual(['C:\\MMD\\Duet.VMDSCENE']);
  });
});
