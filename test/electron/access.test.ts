/**
 * electron/services/access.ts: under Electron, main touches only what a person chose. The allow-list on
 * its own, the guarded handlers in front of recording stand-ins (a refused request never reaches the
 * service), and the batch engine's refusal of mapping files that are not .csv/.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { okValue, REQUEST_NAMES, type RequestHandlers } from '../../shared/ipc/contract';
import { createAccessList, guardHandlers } from '../../electron/services/access';
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
    expect(await g.listDirectory('/batch/in/sub')).toEqual(okValue('handled'));
    expect((await g.listDirectory('/batch')).ok).toBe(false);
    // A batch needs both folders chosen.
    expect(await g.startBatch(job('/batch/in', '/m/out'))).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED', file: '/m/out', message: expect.stringMatching(/output folder/) } });
    expect(calls.map((c) => c.name)).toEqual(['pickFile', 'pickSaveFile', 'pickFolder', 'openFile', 'saveFile', 'saveFile', 'listDirectory']);
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
