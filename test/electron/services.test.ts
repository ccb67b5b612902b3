/** The service layer against real temp folders (no Electron). */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { corpusDir } from '../helpers/corpus';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BatchProgress, BatchSummary } from '../../shared/batch/types';
import type { Events } from '../../shared/ipc/contract';
import { createBatchService, type RunBatch } from '../../electron/services/batch-service';
import { createFileService } from '../../electron/services/file-service';
import { createRecentFiles } from '../../electron/services/recent-files';
import { createSettingsService } from '../../electron/services/settings-service';
import { createServices, dispatch } from '../../electron/services';
import { noDialogs } from '../../electron/services/dialog-service';

const CORPUS = corpusDir;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'vmd-services-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('file service', () => {
  it('opens a corpus VMD as its exact bytes and records it as recent', async () => {
    const recent = createRecentFiles(path.join(dir, 'settings'));
    const files = createFileService({ recent });
    const src = path.join(CORPUS, 'gene/motion/stand.vmd');
    const r = await files.openFile(src);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.name).toBe('stand.vmd');
    expect(Buffer.compare(Buffer.from(r.value.bytes), readFileSync(src))).toBe(0);
    expect((await recent.list()).map((x) => x.path)).toEqual([src]);
  });

  it('puts on the recent list only files that read as their format, and takes a file that is gone off it', async () => {
    const recent = createRecentFiles(path.join(dir, 'settings'));
    const files = createFileService({ recent });
    const good = path.join(CORPUS, 'gene/motion/stand.vmd');
    const pose = path.join(dir, 'pose.vpd');
    writeFileSync(pose, 'Vocaloid Pose Data file\r\n\r\nm.osm;\r\n0;\r\n');
    const noise = path.join(dir, 'noise.vmd');
    writeFileSync(noise, Uint8Array.from({ length: 300 }, (_, i) => (i * 37) & 255));
    const cut = path.join(dir, 'cut.vmd');
    writeFileSync(cut, readFileSync(good).subarray(0, 200));
    const badPose = path.join(dir, 'bad.vpd');
    writeFileSync(badPose, 'Vocaloid Pose Data file\r\n\r\nm.osm;\r\n1;\r\nBone0{センター\r\n1.0,abc,0;\r\n0,0,0,1;\r\n}\r\n');
    for (const f of [good, pose, noise, cut, badPose]) expect((await files.openFile(f)).ok, f).toBe(true); // the bytes come back either way
    expect((await recent.list()).map((x) => x.path)).toEqual([pose, good]);
    // The pose goes away: opening it fails and it leaves the list; the other stays.
    rmSync(pose);
    expect(await files.openFile(pose)).toMatchObject({ ok: false, error: { code: 'E_IO_NOT_FOUND' } });
    expect((await recent.list()).map((x) => x.path)).toEqual([good]);
    // A name not on the list: nothing changes.
    expect((await recent.remove(path.join(dir, 'never.vmd'))).map((x) => x.path)).toEqual([good]);
  });

  it('a motion read for a scene (recent: false) stays off the recent list; one opened by itself goes on it', async () => {
    const recent = createRecentFiles(path.join(dir, 'settings'));
    const files = createFileService({ recent });
    const motions = path.join(dir, 'motions');
    mkdirSync(motions);
    const walk = path.join(motions, 'walk.vmd');
    const idle = path.join(motions, 'idle.vmd');
    writeFileSync(walk, readFileSync(path.join(CORPUS, 'gene/motion/stand.vmd')));
    writeFileSync(idle, readFileSync(path.join(CORPUS, 'gene/motion/stand.vmd')));
    await recent.add(path.join(dir, 'stage.vmdscene'));
    // Read for the scene: the bytes come back, the list keeps only the scene.
    const r = await files.openFile(walk, { recent: false });
    if (!r.ok) throw new Error(r.error.message);
    expect(Buffer.compare(Buffer.from(r.value.bytes), readFileSync(walk))).toBe(0);
    expect((await recent.list()).map((x) => x.path)).toEqual([path.join(dir, 'stage.vmdscene')]);
    // Opened by the person (no option, or recent: true): it goes to the top.
    expect((await files.openFile(idle)).ok).toBe(true);
    expect((await files.openFile(walk, { recent: true })).ok).toBe(true);
    expect((await recent.list()).map((x) => x.path)).toEqual([walk, idle, path.join(dir, 'stage.vmdscene')]);
  });

  it('answers missing files, folders and other extensions with error values', async () => {
    const files = createFileService();
    expect(await files.openFile(path.join(dir, 'none.vmd'))).toMatchObject({ ok: false, error: { code: 'E_IO_NOT_FOUND' } });
    mkdirSync(path.join(dir, 'folder.vmd'));
    expect(await files.openFile(path.join(dir, 'folder.vmd'))).toMatchObject({ ok: false, error: { code: 'E_IO' } });
    writeFileSync(path.join(dir, 'secret.txt'), 'x');
    expect(await files.openFile(path.join(dir, 'secret.txt'))).toMatchObject({ ok: false, error: { code: 'E_UNSUPPORTED' } });
    // A 0-byte motion is said to be empty (issue 30), not a read or write failure.
    writeFileSync(path.join(dir, 'zero.vmd'), '');
    expect(await files.openFile(path.join(dir, 'zero.vmd'))).toMatchObject({ ok: false, error: { code: 'E_FILE_EMPTY' } });
  });

  it('saves atomically, refuses to replace without overwrite, and keeps a .bak when the save asks for one (the renderer asks on the first save after each open)', async () => {
    const files = createFileService();
    const target = path.join(dir, 'm.vmd');
    const v1 = new Uint8Array([1, 1, 1]);
    const v2 = new Uint8Array([2, 2]);
    const v3 = new Uint8Array([3]);
    let r = await files.saveFile(target, v1, { backup: true });
    expect(r).toMatchObject({ ok: true, value: { bytesWritten: 3, backupPath: null } });
    expect(existsSync(target + '.bak')).toBe(false); // nothing to back up for a new file
    expect(await files.saveFile(target, v2)).toMatchObject({ ok: false, error: { code: 'E_IO_EXISTS' } });
    expect([...readFileSync(target)]).toEqual([1, 1, 1]);

    r = await files.saveFile(target, v2, { overwrite: true, backup: true });
    expect(r).toMatchObject({ ok: true, value: { backupPath: target + '.bak' } });
    expect([...readFileSync(target)]).toEqual([2, 2]);
    expect([...readFileSync(target + '.bak')]).toEqual([1, 1, 1]);

    // A later save of the same opening asks for none: the .bak stays the version before it.
    r = await files.saveFile(target, v3, { overwrite: true, backup: false });
    expect(r).toMatchObject({ ok: true, value: { backupPath: null } });
    expect([...readFileSync(target)]).toEqual([3]);
    expect([...readFileSync(target + '.bak')]).toEqual([1, 1, 1]);

    // The first save after the file is opened again asks again, on the same service (one server run).
    await files.saveFile(target, v1, { overwrite: true, backup: true });
    expect([...readFileSync(target + '.bak')]).toEqual([3]);
    // No temp files left behind.
    expect(require('node:fs').readdirSync(dir).sort()).toEqual(['m.vmd', 'm.vmd.bak']);
  });

  it('a name too long for ".bak" (253 bytes of Japanese + .vmd) still gets its backup, under a shortened name that fits', async () => {
    // 83 three-byte characters + ".vmd" = 253 bytes: the file system takes it, NAME.bak (257) it would not.
    const name = 'あ'.repeat(83) + '.vmd';
    expect(Buffer.byteLength(name)).toBe(253);
    const files = createFileService();
    const target = path.join(dir, name);
    writeFileSync(target, new Uint8Array([1, 2, 3]));
    const r = await files.saveFile(target, new Uint8Array([4]), { overwrite: true, backup: true });
    expect(r.ok).toBe(true);
    const bak = r.ok ? r.value.backupPath! : '';
    expect(path.dirname(bak)).toBe(dir);
    expect(Buffer.byteLength(path.basename(bak))).toBeLessThanOrEqual(255);
    expect(path.basename(bak)).toMatch(/^あ+~[0-9a-f]{8}\.bak$/);
    expect([...readFileSync(bak)]).toEqual([1, 2, 3]);
    expect([...readFileSync(target)]).toEqual([4]);
    // Another long name with the same beginning keeps its own backup.
    const other = path.join(dir, 'あ'.repeat(83) + '.vpd');
    writeFileSync(other, 'x');
    const r2 = await files.saveFile(other, new TextEncoder().encode('y'), { overwrite: true, backup: true });
    expect(r2.ok && r2.value.backupPath).not.toBe(bak);
    expect([...readFileSync(bak)]).toEqual([1, 2, 3]);
  });

  it('refuses to save other extensions', async () => {
    expect(await createFileService().saveFile(path.join(dir, 'x.exe'), new Uint8Array(1))).toMatchObject({ ok: false, error: { code: 'E_UNSUPPORTED' } });
  });

  it('lists folders first, then matching files, hides dot files, and knows the parent', async () => {
    mkdirSync(path.join(dir, 'b-folder'));
    mkdirSync(path.join(dir, '.hidden'));
    for (const f of ['z.vmd', 'a10.vmd', 'a9.VPD', 'model.pmx', 'readme.txt', '.x.vmd']) writeFileSync(path.join(dir, f), 'x');
    const files = createFileService();
    const r = await files.listDirectory(dir);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.path).toBe(dir);
    expect(r.value.parent).toBe(path.dirname(dir));
    expect(r.value.entries.map((e) => `${e.kind}:${e.name}`)).toEqual(['dir:b-folder', 'file:a9.VPD', 'file:a10.vmd', 'file:z.vmd']);
    const models = await files.listDirectory(dir, { filter: 'model' });
    expect(models.ok && models.value.entries.filter((e) => e.kind === 'file').map((e) => e.name)).toEqual(['model.pmx']);
    const root = await files.listDirectory('/');
    expect(root.ok && root.value.parent).toBe(null);
    const home = await createFileService({ homeDir: dir }).listDirectory('');
    expect(home.ok && home.value.path).toBe(dir);
    expect(await files.listDirectory(path.join(dir, 'nope'))).toMatchObject({ ok: false, error: { code: 'E_IO_NOT_FOUND' } });
  });

  it('a model the person opened (recent) goes on the recent list when it reads as PMX/PMD; one read for anything else does not', async () => {
    const recent = createRecentFiles(path.join(dir, 'settings'));
    const files = createFileService({ recent });
    const opened = path.join(dir, 'opened.pmx');
    const quiet = path.join(dir, 'scene-model.pmx');
    const fake = path.join(dir, 'fake.pmd');
    // PMX's magic ("PMX " and the version 2.0 as a float).
    const pmx = Buffer.concat([Buffer.from('PMX '), Buffer.from(new Float32Array([2]).buffer)]);
    writeFileSync(opened, pmx);
    writeFileSync(quiet, pmx);
    writeFileSync(fake, 'not a model at all');
    expect((await files.readModelFile(opened, { recent: true })).ok).toBe(true);
    expect((await files.readModelFile(quiet)).ok).toBe(true);
    expect((await files.readModelFile(fake, { recent: true })).ok).toBe(true);
    expect((await recent.list()).map((x) => x.path)).toEqual([opened]);
  });

  it('reads a model and its textures relative to it, with Windows separators and case-insensitive fallback', async () => {
    mkdirSync(path.join(dir, 'model', 'Tex'), { recursive: true });
    writeFileSync(path.join(dir, 'model', 'm.pmx'), 'PMX ');
    writeFileSync(path.join(dir, 'model', 'Tex', 'Face.PNG'), 'png');
    const files = createFileService();
    const m = path.join(dir, 'model', 'm.pmx');
    expect(await files.readModelFile(m)).toMatchObject({ ok: true, value: { name: 'm.pmx' } });
    const t = await files.readAsset(m, 'tex\\face.png');
    expect(t.ok && Buffer.from(t.value.bytes).toString()).toBe('png');
    expect(await files.readAsset(m, 'Tex/missing.png')).toMatchObject({ ok: false, error: { code: 'E_IO_NOT_FOUND' } });
    expect(await files.readAsset(m, '../../etc/passwd')).toMatchObject({ ok: false, error: { code: 'E_UNSUPPORTED' } });
    expect(await files.readAsset(m, '/etc/x.png')).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT' } });
    expect(await files.readModelFile(path.join(dir, 'model', 'Tex', 'Face.PNG'))).toMatchObject({ ok: false, error: { code: 'E_UNSUPPORTED' } });
  });
});

describe('recent files and settings', () => {
  it('keeps the recent list most-recent-first, without duplicates, bounded, persisted, clearable', async () => {
    let t = 0;
    const r = createRecentFiles(dir, { max: 3, platform: 'linux', now: () => ++t });
    for (const f of ['/a.vmd', '/b.vmd', '/a.vmd', '/c.vpd', '/d.vmd']) await r.add(f);
    expect((await r.list()).map((x) => x.path)).toEqual(['/d.vmd', '/c.vpd', '/a.vmd']);
    const again = createRecentFiles(dir, { max: 3 });
    expect((await again.list()).map((x) => x.name)).toEqual(['d.vmd', 'c.vpd', 'a.vmd']);
    expect(await again.clear()).toEqual([]);
    expect(await createRecentFiles(dir).list()).toEqual([]);
  });

  it('persists settings, merges window and ui key by key, and survives a corrupt file', async () => {
    const s = createSettingsService(dir);
    expect((await s.get()).locale).toBe(null);
    await s.set({ locale: 'ja', ui: { timelineZoom: 2 } });
    await s.set({ window: { width: 1000, height: 700, maximized: true }, ui: { curveSnap: true } });
    const fresh = await createSettingsService(dir).get();
    expect(fresh.locale).toBe('ja');
    expect(fresh.window).toEqual({ width: 1000, height: 700, maximized: true });
    expect(fresh.ui).toEqual({ timelineZoom: 2, curveSnap: true });
    writeFileSync(path.join(dir, 'settings.json'), '{ not json');
    const broken = await createSettingsService(dir).get();
    expect(broken.locale).toBe(null);
    expect(broken.window.width).toBeGreaterThanOrEqual(400);
  });

  it('serialises concurrent updates so none is lost', async () => {
    const s = createSettingsService(dir);
    await Promise.all(Array.from({ length: 20 }, (_, i) => s.set({ ui: { [`k${i}`]: i } })));
    expect(Object.keys((await createSettingsService(dir).get()).ui)).toHaveLength(20);
  });
});

describe('batch service', () => {
  const summary = (jobId: string, cancelled: boolean, n: number): BatchSummary => ({ jobId, total: n, ok: cancelled ? 0 : n, failed: 0, skipped: 0, cancelled, results: [], ms: 1 });

  it('runs a job, pushes throttled progress with the job id and the summary, one job at a time', async () => {
    const events: { e: keyof Events; p: unknown }[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const run: RunBatch = async (_job, o) => {
      await gate; // still running while the test tries a second start
      for (let i = 1; i <= 50; i++) o.onProgress?.({ jobId: 'engine', done: i, total: 50, failed: 0, currentFile: `f${i}`, bytesDone: i, bytesTotal: 50, elapsedMs: i });
      return { ok: true, value: summary(o.jobId!, false, 50) };
    };
    const svc = createBatchService({ runBatch: run, emit: (e, p) => events.push({ e, p }), progressIntervalMs: 10_000 });
    const job = { op: 'mirror' as const, inputDir: dir, outputDir: path.join(dir, 'out'), options: {} };
    const started = await svc.start(job);
    if (!started.ok) throw new Error(started.error.message);
    const busy = await svc.start(job);
    expect(busy).toMatchObject({ ok: false, error: { code: 'E_BUSY' } });
    release();
    await svc.idle();
    const progress = events.filter((x) => x.e === 'batchProgress').map((x) => x.p as BatchProgress);
    // Throttled: the first, then the final one (done === total), not all 50.
    expect(progress.map((p) => p.done)).toEqual([1, 50]);
    expect(progress.every((p) => p.jobId === started.value.jobId)).toBe(true);
    const done = events.filter((x) => x.e === 'batchDone');
    expect(done).toHaveLength(1);
    expect(done[0].p).toMatchObject({ jobId: started.value.jobId, total: 50, cancelled: false });
    expect((await svc.start(job)).ok).toBe(true); // free again
  });

  it('cancels through the AbortSignal and reports the cancelled summary', async () => {
    const events: { e: keyof Events; p: unknown }[] = [];
    const run: RunBatch = (_job, o) =>
      new Promise((resolve) => o.signal!.addEventListener('abort', () => resolve({ ok: true, value: summary(o.jobId!, true, 3) })));
    const svc = createBatchService({ runBatch: run, emit: (e, p) => events.push({ e, p }) });
    const s = await svc.start({ op: 'trim', inputDir: dir, outputDir: dir + '-out', options: { from: 0, to: 10 } });
    if (!s.ok) throw new Error('start failed');
    expect(await svc.cancel('someone-else')).toEqual({ ok: true, value: false });
    expect(await svc.cancel(s.value.jobId)).toEqual({ ok: true, value: true });
    await svc.idle();
    expect(events.find((x) => x.e === 'batchDone')?.p).toMatchObject({ jobId: s.value.jobId, cancelled: true });
  });

  it('reports an engine that throws as a failed summary instead of losing the job', async () => {
    const events: { e: keyof Events; p: unknown }[] = [];
    const svc = createBatchService({ runBatch: async () => Promise.reject(new Error('no workers')), emit: (e, p) => events.push({ e, p }) });
    await svc.start({ op: 'mirror', inputDir: dir, outputDir: dir + '-o', options: {} });
    await svc.idle();
    expect(events.find((x) => x.e === 'batchDone')?.p).toMatchObject({ failed: 1, results: [{ ok: false, error: { message: 'no workers' } }] });
  });

  it('reports a job the engine refused to start as a failed summary carrying its error value', async () => {
    const events: { e: keyof Events; p: unknown }[] = [];
    const error = { code: 'E_ARGUMENT' as const, message: '--from is required', option: 'from' };
    const svc = createBatchService({ runBatch: async () => ({ ok: false, error }), emit: (e, p) => events.push({ e, p }) });
    await svc.start({ op: 'trim', inputDir: dir, outputDir: dir + '-o', options: {} });
    await svc.idle();
    expect(events.find((x) => x.e === 'batchDone')?.p).toMatchObject({ failed: 1, results: [{ ok: false, input: dir, error }] });
  });
});

describe('createServices + dispatch', () => {
  it('answers the contract through one dispatcher, validating first', async () => {
    const s = createServices({
      settingsDir: dir,
      dialogs: noDialogs,
      emit: () => undefined,
      runBatch: async () => ({ ok: true, value: summary0() }),
      appInfo: { name: 'VMD Studio', version: '9.9.9', mode: 'browser', versions: { node: process.versions.node } },
      homeDir: dir,
    });
    const info = await dispatch(s.handlers, 'appInfo', []);
    expect(info).toMatchObject({ ok: true, value: { version: '9.9.9', nativeDialogs: false, homeDir: dir } });
    expect(await dispatch(s.handlers, 'pickFile', [])).toMatchObject({ ok: false, error: { code: 'E_UNSUPPORTED' } });
    expect(await dispatch(s.handlers, 'closeWindow', [])).toMatchObject({ ok: false, error: { code: 'E_UNSUPPORTED' } });
    expect(await dispatch(s.handlers, 'openFile', [{ path: '/x' }])).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT' } });
    await dispatch(s.handlers, 'setDocumentState', [{ path: '/a.vmd', name: 'a.vmd', dirty: true }]);
    expect(s.documentState()).toEqual({ path: '/a.vmd', name: 'a.vmd', dirty: true });
    await dispatch(s.handlers, 'setDocumentState', [{ path: '/s.vmdscene', name: 'a.vmd', dirty: true, unsaved: ['a.vmd', 'cam.vmd'], scene: 's.vmdscene', nameDirty: true }]);
    expect(s.documentState()).toEqual({ path: '/s.vmdscene', name: 'a.vmd', dirty: true, unsaved: ['a.vmd', 'cam.vmd'], scene: 's.vmdscene', nameDirty: true });
  });
});

function summary0(): BatchSummary {
  return { jobId: 'x', total: 0, ok: 0, failed: 0, skipped: 0, cancelled: false, results: [], ms: 0 };
}

describe('batch service on the real engine', () => {
  it('mirrors temp copies of corpus files into a mirrored tree, with progress, a per-file failure and a summary', async () => {
    const { runBatch } = await import('../../electron/batch/engine');
    const input = path.join(dir, 'in');
    mkdirSync(path.join(input, 'sub'), { recursive: true });
    const fs = await import('node:fs');
    fs.copyFileSync(path.join(CORPUS, 'mc-mmd-rust/default_anim/walk.vmd'), path.join(input, 'walk.vmd'));
    fs.copyFileSync(path.join(CORPUS, 'mc-mmd-rust/default_anim/idle.vmd'), path.join(input, 'sub', 'idle.vmd'));
    writeFileSync(path.join(input, 'broken.vmd'), 'not a vmd');
    const events: { e: keyof Events; p: any }[] = [];
    const svc = createBatchService({ runBatch, emit: (e, p) => events.push({ e, p }), progressIntervalMs: 0 });
    const out = path.join(dir, 'out');
    const s = await svc.start({ op: 'mirror', inputDir: input, outputDir: out, options: {}, recursive: true, jobs: 1 });
    if (!s.ok) throw new Error(s.error.message);
    await svc.idle();
    const done = events.find((x) => x.e === 'batchDone')!.p as BatchSummary;
    expect(done).toMatchObject({ jobId: s.value.jobId, total: 3, ok: 2, failed: 1, cancelled: false });
    expect(done.results.find((r) => !r.ok)?.input).toContain('broken.vmd');
    expect(existsSync(path.join(out, 'walk.vmd'))).toBe(true);
    expect(existsSync(path.join(out, 'sub', 'idle.vmd'))).toBe(true);
    // Mirrored: same size as the source, different bytes.
    const a = readFileSync(path.join(input, 'walk.vmd'));
    const b = readFileSync(path.join(out, 'walk.vmd'));
    expect(b.length).toBe(a.length);
    expect(Buffer.compare(a, b)).not.toBe(0);
    const last = events.filter((x) => x.e === 'batchProgress').pop()!.p as BatchProgress;
    expect(last).toMatchObject({ jobId: s.value.jobId, done: 3, total: 3 });
  });
});
