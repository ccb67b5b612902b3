/**
 * electron/services/access.ts: under Electron, main touches only what a person chose. The allow-list on
 * its own, the guarded handlers in front of recording stand-ins (a refused request never reaches the
 * service), and the batch engine's refusal of mapping files that are not .csv/.json.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { okValue, REQUEST_NAMES, type RequestHandlers } from '../../shared/ipc/contract';
import { createAccessList, guardHandlers, isRemoteOrDevicePath } from '../../electron/services/access';
import { createFileService } from '../../electron/services/file-service';
import { runBatch } from '../../electron/batch/engine';

/** Handlers that record calls; dialogs answer what `answers` says. */
function recording(answers: { pickFile?: string | null; pickSaveFile?: string | null; pickFolder?: string | null } = {}) {
  const calls: { name: string; args: unknown[] }[] = [];
  const h: Record<string, unknown> = {};
  for (const name of REQUEST_NAMES) {
    h[name] = async (...args: unknown[]) => {
      calls.push({ name, args });
      if (name in answers) return okValue(answers[name as keyof typeof answers] ?? null);
      if (name === 'listRecent') return okValue([{ path: '/recent/r.vmd', name: 'r.vmd', openedAt: 1 }]);
      return okValue('handled');
    };
  }
  return { handlers: h as unknown as RequestHandlers, calls };
}

const job = (inputDir: string, outputDir: string, options: Record<string, string> = {}, op: 'mirror' | 'rename' | 'inspect' = 'mirror') => ({ op, inputDir, outputDir, options });

describe('access list', () => {
  it('allows granted files, granted folders and what lies inside them, nothing else', () => {
    const a = createAccessList({ platform: 'linux' });
    a.grantFile('/m/dance.vmd');
    a.grantFolder('/work/batch');
    expect(a.allows('/m/dance.vmd')).toBe(true);
    expect(a.allows('/m/./x/../dance.vmd')).toBe(true);
    expect(a.allows('/m/other.vmd')).toBe(false);
    expect(a.allows('/m')).toBe(false); // a file's folder is not granted with it
    expect(a.allows('/work/batch')).toBe(true);
    expect(a.allows('/work/batch/deep/a.vmd')).toBe(true);
    expect(a.allows('/work/batch/../secret.vmd')).toBe(false);
    expect(a.allows('/work/batch-other/a.vmd')).toBe(false);
    expect(a.allows('/M/DANCE.VMD')).toBe(false); // Linux names are case-sensitive
    expect(a.allows('')).toBe(false);
    expect(a.allows('/m/dance.vmd\0')).toBe(false);
  });

  it('compares case-insensitively on Windows and macOS', () => {
    const w = createAccessList({ platform: 'win32' });
    w.grantFolder('C:\\Users\\Me\\Motions');
    expect(w.allows('c:\\users\\me\\motions\\A.vmd')).toBe(true);
    expect(w.allows('C:\\Users\\Me\\Other\\A.vmd')).toBe(false);
    const m = createAccessList({ platform: 'darwin' });
    m.grantFile('/Users/me/Dance.vmd');
    expect(m.allows('/users/me/dance.VMD')).toBe(true);
  });
});

describe('guarded handlers', () => {
  it('refuses every file request on a path nobody chose with E_IO_DENIED, before the service runs', async () => {
    const { handlers, calls } = recording();
    const g = guardHandlers(handlers, createAccessList({ platform: 'linux' }), { platform: 'linux' });
    const refused = [
      await g.openFile('/etc/secret.vmd'),
      await g.saveFile('/home/me/.bashrc.vmd', new Uint8Array([1]), { overwrite: true }),
      await g.listDirectory('/home/me'),
      await g.listDirectory(''),
      await g.readModelFile('/home/me/model.pmx'),
      await g.readAsset('/home/me/model.pmx', 'tex.png'),
      await g.startBatch(job('/in', '/out')),
      await g.setSettings({ previewModel: '/elsewhere/m.pmx' }),
      // Not even a file's size and times (the focus check's fileStamp) outside what was chosen.
      await g.fileStamp('/home/me/.ssh/id_ed25519.vmd'),
    ];
    for (const r of refused) expect(r).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
    expect(refused[0]).toMatchObject({ error: { file: '/etc/secret.vmd', message: expect.stringMatching(/^openFile: .*not chosen/) } });
    expect(calls).toEqual([]);
    // Requests without paths pass through.
    expect(await g.getSettings()).toEqual(okValue('handled'));
    expect(await g.setSettings({ locale: 'en', previewModel: null })).toEqual(okValue('handled'));
  });

  it('grants what the dialogs answer: a file for open and save, a folder with everything in it', async () => {
    const { handlers, calls } = recording({ pickFile: '/m/a.vmd', pickSaveFile: '/m/new.vmd', pickFolder: '/batch/in' });
    const g = guardHandlers(handlers, createAccessList({ platform: 'linux' }), { platform: 'linux' });
    expect((await g.openFile('/m/a.vmd')).ok).toBe(false);
    await g.pickFile({});
    await g.pickSaveFile({});
    await g.pickFolder({});
    expect(await g.openFile('/m/a.vmd')).toEqual(okValue('handled'));
    expect(await g.saveFile('/m/a.vmd', new Uint8Array([1]))).toEqual(okValue('handled')); // Save writes back what was opened
    expect(await g.saveFile('/m/new.vmd', new Uint8Array([1]))).toEqual(okValue('handled'));
    expect((await g.saveFile('/m/other.vmd', new Uint8Array([1]))).ok).toBe(false);
    // The focus check may stat the chosen file, not its neighbour.
    expect(await g.fileStamp('/m/a.vmd')).toEqual(okValue('handled'));
    expect((await g.fileStamp('/m/other.vmd')).ok).toBe(false);
    expect(await g.listDirectory('/batch/in/sub')).toEqual(okValue('handled'));
    expect((await g.listDirectory('/batch')).ok).toBe(false);
    // A batch needs both folders chosen.
    expect(await g.startBatch(job('/batch/in', '/m/out'))).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED', file: '/m/out', message: expect.stringMatching(/output folder/) } });
    expect(calls.map((c) => c.name)).toEqual(['pickFile', 'pickSaveFile', 'pickFolder', 'openFile', 'saveFile', 'saveFile', 'fileStamp', 'listDirectory']);
  });

  it('opening a chosen scene grants the files it names, and nothing else', async () => {
    const { handlers, calls } = recording({ pickFile: '/proj/duet.vmdscene' });
    const text =
      '{"format":"vmd-studio-scene","version":1,"actors":[{"model":"models/miku.pmx","motion":"dance.vmd"}],"camera":"../cam/camera.vmd","audio":{"path":"song.wav"}}';
    (handlers as unknown as Record<string, unknown>).openScene = async (p: string) => (calls.push({ name: 'openScene', args: [p] }), okValue({ path: p, name: 'duet.vmdscene', bytes: new TextEncoder().encode(text) }));
    const access = createAccessList({ platform: 'linux' });
    const g = guardHandlers(handlers, access, { platform: 'linux' });
    expect(await g.openScene('/proj/duet.vmdscene')).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
    expect(access.allows('/proj/dance.vmd')).toBe(false);
    await g.pickFile({});
    expect((await g.openScene('/proj/duet.vmdscene')).ok).toBe(true);
    for (const f of ['/proj/models/miku.pmx', '/proj/dance.vmd', '/cam/camera.vmd', '/proj/song.wav']) expect(access.allows(f), f).toBe(true);
    expect(access.allows('/proj/other.vmd')).toBe(false);
    expect(access.allows('/proj/models')).toBe(false);
    expect(await g.readAudioFile('/proj/song.wav')).toEqual(okValue('handled'));
  });

  it('a cancelled dialog grants nothing', async () => {
    const { handlers } = recording({ pickFile: null, pickFolder: null });
    const access = createAccessList({ platform: 'linux' });
    const g = guardHandlers(handlers, access, { platform: 'linux' });
    await g.pickFile({});
    await g.pickFolder({});
    expect(access.allows('/')).toBe(false);
  });

  it("reads a chosen model's textures from its own folder only", async () => {
    const { handlers, calls } = recording();
    const access = createAccessList({ platform: 'linux' });
    access.grantFile('/models/miku/miku.pmx');
    const g = guardHandlers(handlers, access, { platform: 'linux' });
    expect(await g.readModelFile('/models/miku/miku.pmx')).toEqual(okValue('handled'));
    expect(await g.readAsset('/models/miku/miku.pmx', 'tex\\body.png')).toEqual(okValue('handled'));
    expect(await g.readAsset('/models/miku/miku.pmx', 'sub/../toon.bmp')).toEqual(okValue('handled'));
    for (const rel of ['../other/skin.png', '..\\..\\home\\me\\photo.png', 'a/../../x.png']) {
      expect(await g.readAsset('/models/miku/miku.pmx', rel), rel).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
    }
    expect(await g.readAsset('/models/rin/rin.pmx', 'tex.png')).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
    expect(calls.filter((c) => c.name === 'readAsset')).toHaveLength(2);
  });

  it('checks the batch folders and the rename map; inspect --overwrite cannot reach a folder nobody chose', async () => {
    const { handlers, calls } = recording();
    const access = createAccessList({ platform: 'linux' });
    access.grantFolder('/in');
    access.grantFolder('/out');
    access.grantFile('/maps/bones.csv');
    const g = guardHandlers(handlers, access, { platform: 'linux' });
    expect(await g.startBatch({ ...job('/in', '/home/me/.config', {}, 'inspect'), overwrite: true })).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
    expect(await g.startBatch(job('/in', '/out', { map: '/etc/passwd.csv' }, 'rename'))).toMatchObject({
      ok: false,
      error: { code: 'E_IO_DENIED', file: '/etc/passwd.csv', message: expect.stringMatching(/--map file/) },
    });
    expect(await g.startBatch(job('/in', '/out', { map: '/maps/bones.csv' }, 'rename'))).toEqual(okValue('handled'));
    expect(await g.startBatch(job('/in/a', '/out/b'))).toEqual(okValue('handled'));
    expect(calls.map((c) => c.name)).toEqual(['startBatch', 'startBatch']);
  });

  it('grants the recent list it hands out (main alone writes it)', async () => {
    const { handlers } = recording();
    const g = guardHandlers(handlers, createAccessList({ platform: 'linux' }), { platform: 'linux' });
    expect((await g.openFile('/recent/r.vmd')).ok).toBe(false);
    await g.listRecent();
    expect(await g.openFile('/recent/r.vmd')).toEqual(okValue('handled'));
  });
});

describe('batch rename map', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'vmd-access-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('reads only a .csv or .json mapping file, and never quotes it in an error', async () => {
    mkdirSync(path.join(root, 'in'));
    writeFileSync(path.join(root, 'secret.txt'), 'old,new\nSECRET LINE WITHOUT A COMMA\n');
    writeFileSync(path.join(root, 'secret.csv'), 'old,new\nSECRET LINE WITHOUT A COMMA\n');
    const run = (map: string) => runBatch({ op: 'rename', inputDir: path.join(root, 'in'), outputDir: path.join(root, 'out'), options: { map } }, { workerPath: null });
    const txt = await run(path.join(root, 'secret.txt'));
    expect(txt).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT', option: 'map', problem: 'mapFormat', message: '--map must name a .csv or .json file' } });
    const csv = await run(path.join(root, 'secret.csv'));
    expect(csv).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT', option: 'map', problem: 'mapColumns', params: { line: 2, columns: 1 } } });
    expect(!csv.ok && csv.error.message).toBe('mapping line 2: expected two columns old,new, got 1 column');
    // Something that only looks like a map by its name (a folder, a device) is not read either.
    mkdirSync(path.join(root, 'folder.csv'));
    const folder = await run(path.join(root, 'folder.csv'));
    expect(folder).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT', message: 'mapping file: is a folder, not a file' } });
  });
});

describe('what a scene file may reach (by role, links resolved, no network paths)', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'vmd-scene-access-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const sceneText = (o: Record<string, unknown>) => JSON.stringify({ format: 'vmd-studio-scene', version: 1, ...o });

  /** Recording handlers whose openScene answers `text` for the scene at `scene`, a guard over a fresh list, and the dialog's next answer. */
  function withScene(scene: string, text: string, answers: { pickFile?: string; pickFolder?: string } = {}, realPath?: (p: string) => Promise<string>) {
    const { handlers, calls } = recording(answers);
    (handlers as unknown as Record<string, unknown>).openScene = async (p: string) => (calls.push({ name: 'openScene', args: [p] }), okValue({ path: p, name: path.basename(p), bytes: new TextEncoder().encode(text) }));
    const access = createAccessList({ platform: 'linux', realPath });
    access.grantFile(scene); // the person opened it
    return { g: guardHandlers(handlers, access, { platform: 'linux', realPath }), access, calls };
  }

  it('grants each path for its role only: a motion as a motion, a model as a model, the music as audio', async () => {
    const { g, calls } = withScene('/proj/duet.vmdscene', sceneText({ actors: [{ model: 'miku.pmx', motion: 'dance.vmd' }], camera: 'camera.vmd', audio: { path: 'song.wav' } }));
    expect((await g.openScene('/proj/duet.vmdscene')).ok).toBe(true);
    const ok = okValue('handled');
    expect(await g.openFile('/proj/dance.vmd')).toEqual(ok);
    expect(await g.saveFile('/proj/dance.vmd', new Uint8Array([1]), { overwrite: true })).toEqual(ok); // Save writes it back
    expect(await g.openFile('/proj/camera.vmd')).toEqual(ok);
    expect(await g.readModelFile('/proj/miku.pmx')).toEqual(ok);
    expect(await g.readAsset('/proj/miku.pmx', 'tex/skin.png')).toEqual(ok);
    expect(await g.readAudioFile('/proj/song.wav')).toEqual(ok);
    const refused = [
      await g.readModelFile('/proj/dance.vmd'),
      await g.readAudioFile('/proj/dance.vmd'),
      await g.openFile('/proj/miku.pmx'),
      await g.readAudioFile('/proj/miku.pmx'),
      await g.openFile('/proj/song.wav'),
      await g.saveFile('/proj/song.wav', new Uint8Array([1])),
      await g.saveScene('/proj/dance.vmd', new Uint8Array([1])),
      await g.readAsset('/proj/dance.vmd', 'x.png'),
      await g.setSettings({ previewModel: '/proj/dance.vmd' }),
    ];
    for (const r of refused) expect(r).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
    expect(calls.map((c) => c.name).filter((n) => n !== 'openScene')).toEqual(['openFile', 'saveFile', 'openFile', 'readModelFile', 'readAsset', 'readAudioFile']);
  });

  it('grants nothing as a folder: a scene naming ~ and ~/.ssh lists neither and sends no batch there; a chosen file is no folder either', async () => {
    const home = path.join(root, 'home');
    mkdirSync(path.join(home, '.ssh', 'work'), { recursive: true });
    const scene = path.join(root, 'dl', 'evil.vmdscene');
    const { g, access } = withScene(scene, sceneText({ actors: [{ model: null, motion: home }, { model: path.join(home, '.ssh'), motion: path.join(home, '.ssh', 'work') }], camera: path.join(home, '.ssh') }), { pickFile: path.join(root, 'm', 'a.vmd') });
    expect((await g.openScene(scene)).ok).toBe(true);
    for (const d of [home, path.join(home, '.ssh'), path.join(home, '.ssh', 'work')]) {
      expect(await g.listDirectory(d), d).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
      expect(access.allowsFolder(d)).toBe(false);
    }
    expect(await g.startBatch(job(home, path.join(home, '.ssh', 'work')))).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
    // A file the person chose is that file: not a folder to list or to batch into.
    await g.pickFile({});
    const chosen = path.join(root, 'm', 'a.vmd');
    expect(await g.listDirectory(chosen)).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
    expect(await g.startBatch(job(chosen, path.join(chosen, 'out')))).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
    expect(await g.openFile(chosen)).toEqual(okValue('handled'));
  });

  it('resolves links first: a link in a chosen folder that points out of it reaches nothing, and a scene path is judged by the file it reaches', async () => {
    const outside = path.join(root, 'outside');
    const chosen = path.join(root, 'chosen');
    mkdirSync(outside, { recursive: true });
    mkdirSync(chosen, { recursive: true });
    writeFileSync(path.join(outside, 'secret.vmd'), 'x');
    writeFileSync(path.join(outside, 'id_rsa'), 'KEY');
    writeFileSync(path.join(chosen, 'own.vmd'), 'x');
    symlinkSync(outside, path.join(chosen, 'link'));
    symlinkSync(path.join(outside, 'secret.vmd'), path.join(chosen, 'ldance.vmd'));
    const { handlers, calls } = recording({ pickFolder: chosen });
    const access = createAccessList({ platform: 'linux' });
    const g = guardHandlers(handlers, access, { platform: 'linux' });
    await g.pickFolder({});
    expect(await g.openFile(path.join(chosen, 'own.vmd'))).toEqual(okValue('handled'));
    for (const r of [
      await g.openFile(path.join(chosen, 'link', 'secret.vmd')),
      await g.openFile(path.join(chosen, 'ldance.vmd')),
      await g.listDirectory(path.join(chosen, 'link')),
      await g.saveFile(path.join(chosen, 'link', 'planted.vmd'), new Uint8Array([1])),
      await g.startBatch(job(chosen, path.join(chosen, 'link', 'out'))),
    ]) {
      expect(r).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
    }
    expect(calls.filter((c) => c.name !== 'pickFolder').map((c) => c.name)).toEqual(['openFile']);

    // A downloaded scene whose song is a link to a key: the file it reaches is no audio file.
    const dl = path.join(root, 'dl2');
    mkdirSync(dl, { recursive: true });
    symlinkSync(path.join(outside, 'id_rsa'), path.join(dl, 'song.wav'));
    symlinkSync(path.join(outside, 'secret.vmd'), path.join(dl, 'dance.vmd'));
    const s = withScene(path.join(dl, 's.vmdscene'), sceneText({ actors: [{ model: null, motion: 'dance.vmd' }], audio: { path: 'song.wav' } }));
    expect((await s.g.openScene(path.join(dl, 's.vmdscene'))).ok).toBe(true);
    expect(await s.g.readAudioFile(path.join(dl, 'song.wav'))).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
    expect(await s.g.openFile(path.join(outside, 'id_rsa'))).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
    // A link to another motion is that motion, readable as a motion (and only as one).
    expect(await s.g.openFile(path.join(dl, 'dance.vmd'))).toEqual(okValue('handled'));
    expect(await s.g.readModelFile(path.join(dl, 'dance.vmd'))).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
  });

  it('refuses network and device paths a scene names, without touching them, unless chosen in a dialog: E_IO_REMOTE', async () => {
    const resolved: string[] = [];
    const realPath = async (p: string) => (resolved.push(p), p);
    const remote = {
      model: '//host/share/m.pmx',
      motion: '\\\\host\\share\\d.vmd',
      audio: '\\\\host@SSL@443\\DavWWWRoot\\song.wav',
      long: '\\\\?\\C:\\Users\\me\\x.vmd',
      device: '\\\\.\\PhysicalDrive0\\y.vmd',
      con: 'C:\\dl\\CON.vmd',
    };
    const text = sceneText({
      actors: [{ model: remote.model, motion: remote.motion }, { model: null, motion: remote.long }, { model: null, motion: remote.device }, { model: null, motion: remote.con }],
      audio: { path: remote.audio },
    });
    const { g, calls } = withScene('/proj/evil.vmdscene', text, { pickFile: '\\\\host\\share\\d.vmd' }, realPath);
    expect((await g.openScene('/proj/evil.vmdscene')).ok).toBe(true);
    const asked: [string, () => Promise<unknown>][] = [
      ['model', () => g.readModelFile('\\\\host\\share\\m.pmx')],
      ['model as written', () => g.readModelFile(remote.model)],
      ['motion', () => g.openFile(remote.motion)],
      ['audio', () => g.readAudioFile(remote.audio)],
      ['long path', () => g.openFile(remote.long)],
      ['device', () => g.openFile(remote.device)],
      ['CON', () => g.openFile(remote.con)],
      ['texture', () => g.readAsset(remote.model, 'tex.png')],
    ];
    for (const [what, ask] of asked) {
      expect(await ask(), what).toMatchObject({ ok: false, error: { code: 'E_IO_REMOTE', message: expect.stringMatching(/network or device path/) } });
    }
    // Nothing was read, and nothing resolved: resolving a UNC path is a connection to its host.
    expect(calls.map((c) => c.name)).toEqual(['openScene']);
    expect(resolved.filter((p) => /^[\\/]{2}|CON/i.test(p))).toEqual([]);
    // Chosen in a dialog, the same path opens.
    await g.pickFile({});
    expect(await g.openFile('\\\\host\\share\\d.vmd')).toEqual(okValue('handled'));
  });

  it('a scene opened from a share may name files on that share, and no other host', async () => {
    const text = sceneText({ actors: [{ model: null, motion: 'dance.vmd' }, { model: null, motion: '\\\\other\\x\\d.vmd' }] });
    const { g } = withScene('\\\\nas\\proj\\duet.vmdscene', text, {}, async (p) => p);
    expect((await g.openScene('\\\\nas\\proj\\duet.vmdscene')).ok).toBe(true);
    expect(await g.openFile('\\\\nas\\proj\\dance.vmd')).toEqual(okValue('handled'));
    expect(await g.openFile('\\\\other\\x\\d.vmd')).toMatchObject({ ok: false, error: { code: 'E_IO_REMOTE' } });
    expect(await g.readModelFile('\\\\nas\\proj\\dance.vmd')).toMatchObject({ ok: false, error: { code: 'E_IO_REMOTE' } });
  });

  it('names network and device paths the same on every platform', () => {
    for (const p of ['//host/share/m.pmx', '\\\\host\\share\\d.vmd', '\\\\host@SSL@443\\DavWWWRoot\\song.wav', '\\\\?\\C:\\x.vmd', '\\\\.\\COM1', '\\??\\C:\\x', 'C:\\dl\\nul.vmd', '/home/me/con', 'aux.wav']) {
      expect(isRemoteOrDevicePath(p), p).toBe(true);
    }
    for (const p of ['/home/me/d.vmd', 'C:\\Users\\me\\d.vmd', 'relative/x.vmd', '/srv/console.vmd', 'C:\\a\\com10.vmd']) expect(isRemoteOrDevicePath(p), p).toBe(false);
  });
});

describe('readAsset through the real file service', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'vmd-asset-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("needs the model to be there, and reads only textures whose real file lies under the model's folder", async () => {
    const pictures = path.join(root, 'pictures');
    const models = path.join(root, 'models');
    mkdirSync(pictures, { recursive: true });
    mkdirSync(path.join(models, 'tex'), { recursive: true });
    writeFileSync(path.join(pictures, 'photo.png'), 'PRIVATE');
    writeFileSync(path.join(root, 'photo.png'), 'PRIVATE');
    writeFileSync(path.join(models, 'm.pmx'), 'PMX ');
    writeFileSync(path.join(models, 'tex', 'skin.png'), 'SKIN');
    symlinkSync(path.join(pictures, 'photo.png'), path.join(models, 'tex', 'leak.png'));
    symlinkSync(pictures, path.join(models, 'album'));
    const files = createFileService();
    const access = createAccessList({ platform: 'linux' });
    const g = guardHandlers({ readAsset: files.readAsset } as unknown as RequestHandlers, access, { platform: 'linux' });
    // A scene may name a model that is not there: its folder is not a way to every picture in it.
    access.grantFile(path.join(root, 'gone.pmx'), 'model');
    expect(await g.readAsset(path.join(root, 'gone.pmx'), 'photo.png')).toMatchObject({ ok: false, error: { code: 'E_IO_NOT_FOUND', message: expect.stringMatching(/^the model is not there/) } });
    access.grantFile(path.join(models, 'm.pmx'), 'model');
    const skin = await g.readAsset(path.join(models, 'm.pmx'), 'tex\\skin.png');
    expect(skin.ok && Buffer.from(skin.value.bytes).toString()).toBe('SKIN');
    for (const rel of ['tex/leak.png', 'album/photo.png']) {
      expect(await g.readAsset(path.join(models, 'm.pmx'), rel), rel).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
    }
  });
});
