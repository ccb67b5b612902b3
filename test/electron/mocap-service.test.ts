// The editor's motion capture requests (electron/services/mocap-service.ts) on the corpus, through the same
// dispatch both transports use: importMocap's VMD is byte for byte what the command line's import-bvh writes
// with the same options and map (the CLI run here is the independent path), in the worker thread and in
// process; Cancel stops a running conversion; a bad BVH is an error naming the file and line; exportMocap
// writes what export-vrma / export-bvh write, atomically, never over a file unless asked; the access list
// refuses a model nobody chose.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCliCaptured } from '../helpers/cli-in-process';
import { createServices, dispatch } from '../../electron/services';
import { createAccessList, guardHandlers } from '../../electron/services/access';
import { findWorkerScript } from '../../electron/batch/engine';
import type { DialogService } from '../../electron/services/dialog-service';
import type { IpcResult, MocapImportResult, RequestHandlers, SavedFile } from '../../shared/ipc/contract';
import { corpusPath, corpusPresent } from '../helpers/corpus';
import { ensureBuilt } from '../helpers/build';

const MIKU = corpusPath('mmd-viewer-js/model/low_miku/miku.pmd');
const WALK = corpusPath('bvh11/resources/131_01.bvh');
const DANCE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
function mk(): string {
  const d = mkdtempSync(path.join(os.tmpdir(), 'vmds-mocap-svc-'));
  dirs.push(d);
  return d;
}

const cli = (argv: string[], cwd: string) => runCliCaptured(argv, cwd);

const noDialogs: DialogService = {
  native: false,
  pickFile: async () => ({ ok: false, error: { code: 'E_UNSUPPORTED', message: 'no dialogs' } }),
  pickSaveFile: async () => ({ ok: false, error: { code: 'E_UNSUPPORTED', message: 'no dialogs' } }),
  pickFolder: async () => ({ ok: false, error: { code: 'E_UNSUPPORTED', message: 'no dialogs' } }),
};

type Pushed = { event: string; payload: { id: string; done: number; total: number } };

function services(mocapWorkerPath: string | null | undefined, pushed: Pushed[] = []): RequestHandlers {
  return createServices({
    settingsDir: mk(),
    dialogs: noDialogs,
    emit: (event, payload) => pushed.push({ event, payload: payload as Pushed['payload'] }),
    runBatch: async () => ({ ok: false, error: { code: 'E_UNSUPPORTED', message: 'no batch here' } }) as never,
    appInfo: { name: 'test', version: '0', mode: 'browser', versions: { node: process.versions.node } },
    mocapWorkerPath,
  }).handlers;
}

const call = <T>(h: RequestHandlers, name: string, ...args: unknown[]) => dispatch(h, name, args) as Promise<IpcResult<T>>;
const bytesOf = (f: string) => new Uint8Array(readFileSync(f));

describe.skipIf(!corpusPresent)('mocap service', () => {
  it('imports the CMU walk in a worker thread: the VMD equals import-bvh\'s with the same options; the map table lists every joint', async () => {
    await ensureBuilt(['node']);
    const worker = findWorkerScript('mocap-worker.mjs');
    expect(worker).not.toBeNull();
    const pushed: Pushed[] = [];
    const h = services(worker, pushed);
    const dir = mk();
    const c = await cli(['import-bvh', WALK, '--model', MIKU, '-o', 'walk.vmd', '--rot-tol', '0.8', '--no-foot-ik'], dir);
    expect(c.code, c.err).toBe(0);
    const t0 = performance.now();
    const r = await call<MocapImportResult>(h, 'importMocap', { id: 'walk-1', format: 'bvh', name: WALK, bytes: bytesOf(WALK), model: MIKU, options: { rotationTolDeg: 0.8, footIk: false } });
    const ms = performance.now() - t0;
    expect(r.ok, JSON.stringify(!r.ok && r.error)).toBe(true);
    if (!r.ok) return;
    console.log(`[perf] importMocap CMU 131_01 (994 frames at 120 fps) in a worker: ${ms.toFixed(0)} ms (${r.value.ms.toFixed(0)} ms converting)`);
    expect(Buffer.from(r.value.vmd).equals(readFileSync(path.join(dir, 'walk.vmd')))).toBe(true);
    const rep = r.value.report;
    expect(rep.map).toBe('cmu-max');
    expect(rep.frames).toBe(994);
    expect(rep.footIk).toBe(false);
    // 31 joints in the file's tree (End Sites aside); the rows with a part the model has are the report's 18 mapped.
    expect(r.value.joints).toHaveLength(31);
    expect(rep.mapped).toHaveLength(18);
    const bound = r.value.joints.filter((j) => j.part !== null && !rep.unboundParts.includes(j.part as never));
    expect(bound.map((j) => j.joint).sort()).toEqual(rep.mapped.map((m) => m.joint).sort());
    expect(r.value.joints.find((j) => j.joint === 'LeftHip')).toEqual({ joint: 'LeftHip', part: 'leftUpperLeg', bone: '左足' });
    // The fit's progress came from the worker as events of this job: tracks done of total, rising, ending at total.
    const prog = pushed.filter((p) => p.event === 'mocapProgress').map((p) => p.payload);
    expect(prog.length).toBeGreaterThan(0);
    expect(prog.every((p) => p.id === 'walk-1')).toBe(true);
    expect(prog.at(-1)!.done).toBe(prog.at(-1)!.total);
    expect(prog.at(-1)!.total).toBeGreaterThanOrEqual(rep.tracks);
    for (let i = 1; i < prog.length; i++) expect(prog[i].done).toBeGreaterThanOrEqual(prog[i - 1].done);
    // CMU's Chest plays the chest (上半身2), which the low-poly Miku lacks: in the table, not bound.
    expect(r.value.joints.find((j) => j.joint === 'Chest')).toEqual({ joint: 'Chest', part: 'chest', bone: '上半身2' });
    expect(rep.unboundParts).toContain('chest');
    expect(r.value.joints.find((j) => j.joint === 'lhand')?.part).toBeNull();
  }, 240_000);

  it('takes map rows as --map does (in process too): a row unmaps a joint, and the VMD equals import-bvh --map\'s', async () => {
    const h = services(null);
    const dir = mk();
    writeFileSync(path.join(dir, 'map.csv'), 'LeftCollar,-\nRightCollar,-\n');
    const c = await cli(['import-bvh', WALK, '--model', MIKU, '-o', 'walk.vmd', '--map', 'map.csv'], dir);
    expect(c.code, c.err).toBe(0);
    const r = await call<MocapImportResult>(h, 'importMocap', { id: 'walk-2', format: 'bvh', name: 'walk.bvh', bytes: bytesOf(WALK), model: MIKU, map: [['LeftCollar', '-'], ['RightCollar', '-']] });
    expect(r.ok, JSON.stringify(!r.ok && r.error)).toBe(true);
    if (!r.ok) return;
    expect(Buffer.from(r.value.vmd).equals(readFileSync(path.join(dir, 'walk.vmd')))).toBe(true);
    expect(r.value.report.map).toBe('file');
    expect(r.value.joints.find((j) => j.joint === 'LeftCollar')?.part).toBeNull();
    expect(r.value.report.mapped.some((m) => m.joint === 'LeftCollar')).toBe(false);
    expect(r.value.report.footIk).toBe(true);
    expect(r.value.report.contacts).toBeGreaterThan(0);
  }, 240_000);

  it('cancels a running conversion: E_CANCELLED, and the service takes the next one', async () => {
    await ensureBuilt(['node']);
    const h = services(findWorkerScript('mocap-worker.mjs'));
    const running = call<MocapImportResult>(h, 'importMocap', { id: 'cancel-me', format: 'bvh', name: 'walk.bvh', bytes: bytesOf(WALK), model: MIKU });
    await new Promise((r) => setTimeout(r, 300));
    const c = await call<boolean>(h, 'cancelMocap', 'cancel-me');
    expect(c).toEqual({ ok: true, value: true });
    const r = await running;
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('E_CANCELLED');
    expect(await call<boolean>(h, 'cancelMocap', 'cancel-me')).toEqual({ ok: true, value: false });
  }, 120_000);

  it('passes the reader\'s warnings through: a BVH whose Frame Time is 0, read at the fps given, says so as import-bvh does', async () => {
    const h = services(null);
    const dir = mk();
    const bvh = 'HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n  End Site\n  {\n    OFFSET 0 1 0\n  }\n}\nMOTION\nFrames: 2\nFrame Time: 0\n0 0 0 0 0 0\n0 1 0 0 0 10\n';
    writeFileSync(path.join(dir, 'zero.bvh'), bvh);
    const r = await call<MocapImportResult>(h, 'importMocap', { id: 'ft', format: 'bvh', name: 'zero.bvh', bytes: new TextEncoder().encode(bvh), model: null, options: { fps: 30 } });
    expect(r.ok, r.ok ? '' : r.error.message).toBe(true);
    if (!r.ok) return;
    expect(r.value.readNotes?.map((d) => [d.code, d.params])).toEqual([['W_BVH_FRAME_TIME', { frameTime: '0', line: 13, fps: 30, whyWord: 'range' }]]);
    // whyWord: which of the reader's two sentences (0 is a number, out of the range (0, 60]; not 'number').
    // The command line's warning is the same reader's message, labelled with the file.
    const c = await cli(['import-bvh', 'zero.bvh', '--fps', '30', '-o', 'zero.vmd'], dir);
    expect(c.code, c.err).toBe(0);
    expect(c.err).toContain(`zero.bvh: ${r.value.readNotes![0].message}`);
    // A good Frame Time: none.
    const ok = await call<MocapImportResult>(h, 'importMocap', { id: 'ft2', format: 'bvh', name: 'ok.bvh', bytes: new TextEncoder().encode(bvh.replace('Frame Time: 0', 'Frame Time: 0.033333')), model: null, options: { fps: 30 } });
    expect(ok.ok && ok.value.readNotes).toBeUndefined();
  }, 120_000);

  it('answers a bad BVH with its error code, the file and the line', async () => {
    const h = services(null);
    const text = readFileSync(WALK, 'latin1');
    // Frame 3's line loses its last value: "a frame has the wrong number of channels" on that line.
    const lines = text.split('\n');
    const motionAt = lines.findIndex((l) => l.startsWith('MOTION'));
    const bad = motionAt + 3 + 3; // MOTION, Frames:, Frame Time:, then frames 1, 2, 3
    lines[bad] = lines[bad].trim().split(/\s+/).slice(0, -1).join(' ');
    const r = await call<MocapImportResult>(h, 'importMocap', { id: 'bad', format: 'bvh', name: '/data/bad walk.bvh', bytes: new TextEncoder().encode(lines.join('\n')), model: MIKU });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('E_BVH_CHANNELS');
    expect(r.error.file).toBe('/data/bad walk.bvh');
    expect(r.error.line).toBe(bad + 1);
    // A model that is not one: named by its path.
    const m = await call<MocapImportResult>(h, 'importMocap', { id: 'bad2', format: 'bvh', name: 'walk.bvh', bytes: bytesOf(WALK), model: DANCE });
    expect(m.ok).toBe(false);
    if (!m.ok) expect([m.error.code, m.error.file]).toEqual(['E_UNSUPPORTED', DANCE]);
  }, 120_000);

  it('exports .vrma and .bvh as export-vrma / export-bvh write them; an existing file is kept unless overwrite', async () => {
    const h = services(null);
    const dir = mk();
    for (const format of ['vrma', 'bvh'] as const) {
      const c = await cli([`export-${format}`, DANCE, '--model', MIKU, '-o', `cli.${format}`], dir);
      expect(c.code, c.err).toBe(0);
      const target = path.join(dir, `app.${format}`);
      const job = { id: `x-${format}`, format, vmd: bytesOf(DANCE), model: MIKU };
      const r = await call<SavedFile>(h, 'exportMocap', target, job);
      expect(r.ok, JSON.stringify(!r.ok && r.error)).toBe(true);
      expect(readFileSync(target).equals(readFileSync(path.join(dir, `cli.${format}`)))).toBe(true);
      writeFileSync(target, 'mine');
      const again = await call<SavedFile>(h, 'exportMocap', target, job);
      expect(again.ok).toBe(false);
      if (!again.ok) expect(again.error.code).toBe('E_IO_EXISTS');
      expect(readFileSync(target, 'utf8')).toBe('mine');
      const over = await call<SavedFile>(h, 'exportMocap', target, job, { overwrite: true });
      expect(over.ok).toBe(true);
      expect(readFileSync(target).equals(readFileSync(path.join(dir, `cli.${format}`)))).toBe(true);
    }
    const wrong = await call<SavedFile>(h, 'exportMocap', path.join(dir, 'x.vmd'), { id: 'w', format: 'vrma', vmd: bytesOf(DANCE), model: MIKU });
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) expect(wrong.error.code).toBe('E_UNSUPPORTED');
    expect(existsSync(path.join(dir, 'x.vmd'))).toBe(false);
  }, 240_000);

  it('imports a .vrma whose bytes sit at an odd offset (as a browser-mode frame delivers them) as import-vrma does', async () => {
    const h = services(null);
    const dir = mk();
    expect((await cli(['export-vrma', DANCE, '--model', MIKU, '-o', 'dance.vrma'], dir)).code).toBe(0);
    expect((await cli(['import-vrma', 'dance.vrma', '--model', MIKU, '-o', 'back.vmd'], dir)).code).toBe(0);
    const file = readFileSync(path.join(dir, 'dance.vrma'));
    const framed = new Uint8Array(file.length + 3);
    framed.set(file, 3);
    const r = await call<MocapImportResult>(h, 'importMocap', { id: 'vrma-odd', format: 'vrma', name: 'dance.vrma', bytes: framed.subarray(3), model: MIKU });
    expect(r.ok, JSON.stringify(!r.ok && r.error)).toBe(true);
    if (!r.ok) return;
    expect(Buffer.from(r.value.vmd).equals(readFileSync(path.join(dir, 'back.vmd')))).toBe(true);
    expect(r.value.joints.find((j) => j.part === 'hips')?.bone).toBe('下半身');
    // The joint table lists the humanoid's bones, not the end nodes (head_tip, leftHand_tip, …) that only
    // mark where a segment ends: read here from the file's glTF JSON chunk (GLB: 12-byte header, then the
    // chunk's length and type, then the JSON).
    const gltf = JSON.parse(file.subarray(20, 20 + file.readUInt32LE(12)).toString('utf8')) as { nodes: { name?: string; children?: number[] }[]; extensions: { VRMC_vrm_animation: { humanoid: { humanBones: Record<string, { node: number }> } } } };
    const human = new Set(Object.values(gltf.extensions.VRMC_vrm_animation.humanoid.humanBones).map((b) => gltf.nodes[b.node].name));
    const ends = gltf.nodes.filter((n) => !n.children?.length && !human.has(n.name)).map((n) => n.name);
    expect(ends.length, 'the export writes end nodes').toBeGreaterThan(3);
    expect(r.value.joints.map((j) => j.joint).filter((n) => ends.includes(n))).toEqual([]);
    expect(new Set(r.value.joints.map((j) => j.joint))).toEqual(human);
  }, 240_000);

  it('opens a BVH or .vrma through openFile (for the dialog) and lists it among the recent files only when it is one', async () => {
    const h = services(null);
    const dir = mk();
    const fake = path.join(dir, 'fake.bvh');
    writeFileSync(fake, 'not a capture\n');
    const a = await call<{ bytes: Uint8Array }>(h, 'openFile', WALK);
    expect(a.ok && a.value.bytes.byteLength).toBe(readFileSync(WALK).length);
    const b = await call<{ bytes: Uint8Array }>(h, 'openFile', fake);
    expect(b.ok).toBe(true);
    const recent = await call<{ path: string }[]>(h, 'listRecent');
    expect(recent.ok && recent.value.map((r) => r.path)).toEqual([WALK]);
    const txt = path.join(dir, 'walk.txt');
    writeFileSync(txt, 'HIERARCHY\n');
    const c = await call(h, 'openFile', txt);
    expect(!c.ok && c.error.code).toBe('E_UNSUPPORTED');
  });

  it('reads and writes map files (.csv, .json only); refuses bad jobs before any work', async () => {
    const h = services(null);
    const dir = mk();
    const f = path.join(dir, 'walk-map.csv');
    expect((await call<SavedFile>(h, 'saveMapFile', f, new TextEncoder().encode('LeftCollar,-\n'))).ok).toBe(true);
    const back = await call<{ bytes: Uint8Array }>(h, 'readMapFile', f);
    expect(back.ok && new TextDecoder().decode(back.value.bytes)).toBe('LeftCollar,-\n');
    const no = await call<SavedFile>(h, 'saveMapFile', f, new TextEncoder().encode('x'));
    expect(!no.ok && no.error.code).toBe('E_IO_EXISTS');
    const txt = await call<SavedFile>(h, 'saveMapFile', path.join(dir, 'map.txt'), new TextEncoder().encode('x'));
    expect(!txt.ok && txt.error.code).toBe('E_UNSUPPORTED');
    for (const job of [
      { id: 'a', format: 'fbx', name: 'x', bytes: new Uint8Array(1), model: MIKU },
      { id: 'a b', format: 'bvh', name: 'x', bytes: new Uint8Array(1), model: MIKU },
      { id: 'a', format: 'bvh', name: 'x', bytes: new Uint8Array(0), model: MIKU },
      { id: 'a', format: 'bvh', name: 'x', bytes: new Uint8Array(1), model: MIKU, options: { scale: -1 } },
      { id: 'a', format: 'bvh', name: 'x', bytes: new Uint8Array(1), model: MIKU, map: [['a', 'b', 'c']] },
      { id: 'a', format: 'bvh', name: 'x', bytes: new Uint8Array(1) },
    ]) {
      const r = await call(h, 'importMocap', job);
      expect(r.ok, JSON.stringify(job)).toBe(false);
      if (!r.ok) expect(r.error.code).toBe('E_ARGUMENT');
    }
  });

  it('under Electron\'s access list: a model nobody chose is refused; an export goes only where the save dialog said', async () => {
    const inner = services(null);
    const access = createAccessList();
    const h = guardHandlers(inner, access);
    const job = { id: 'g', format: 'bvh' as const, name: 'walk.bvh', bytes: bytesOf(WALK), model: MIKU };
    const r = await h.importMocap(job);
    expect(!r.ok && r.error.code).toBe('E_IO_DENIED');
    const dir = mk();
    const target = path.join(dir, 'out.vrma');
    access.grantFile(MIKU, 'model');
    const x = await h.exportMocap(target, { id: 'g2', format: 'vrma', vmd: bytesOf(DANCE), model: MIKU });
    expect(!x.ok && x.error.code).toBe('E_IO_DENIED');
    expect(existsSync(target)).toBe(false);
    access.grantFile(target);
    const y = await h.exportMocap(target, { id: 'g3', format: 'vrma', vmd: bytesOf(DANCE), model: MIKU });
    expect(y.ok, JSON.stringify(!y.ok && y.error)).toBe(true);
  }, 240_000);

  it('model null is the standard skeleton: no file to grant, and the VMD equals import-bvh\'s without --model', async () => {
    await ensureBuilt(['node']);
    const h = guardHandlers(services(findWorkerScript('mocap-worker.mjs')), createAccessList());
    const dir = mk();
    const c = await cli(['import-bvh', WALK, '-o', 'walk.vmd'], dir);
    expect(c.code, c.err).toBe(0);
    const r = await call<MocapImportResult>(h, 'importMocap', { id: 'std-1', format: 'bvh', name: WALK, bytes: bytesOf(WALK), model: null });
    expect(r.ok, JSON.stringify(!r.ok && r.error)).toBe(true);
    if (r.ok) expect(Buffer.from(r.value.vmd).equals(readFileSync(path.join(dir, 'walk.vmd')))).toBe(true);
    // Not a path: a number or an empty string is still refused before any work.
    for (const model of [0, '']) {
      const bad = await call(h, 'importMocap', { id: 'std-2', format: 'bvh', name: WALK, bytes: bytesOf(WALK), model });
      expect(!bad.ok && bad.error.code).toBe('E_ARGUMENT');
    }
  }, 240_000);

  it('a model dropped on a browser\'s window (no path) goes as bytes under its name: nothing read, nothing to grant, the VMD equals import-bvh\'s with --model', async () => {
    const h = guardHandlers(services(null), createAccessList());
    const dir = mk();
    const c = await cli(['import-bvh', WALK, '--model', MIKU, '-o', 'walk.vmd'], dir);
    expect(c.code, c.err).toBe(0);
    // 'miku.pmd' is a name, not a file anyone could read here (the browser gave no path).
    const r = await call<MocapImportResult>(h, 'importMocap', { id: 'drop-1', format: 'bvh', name: '131_01.bvh', bytes: bytesOf(WALK), model: 'miku.pmd', modelBytes: bytesOf(MIKU) });
    expect(r.ok, JSON.stringify(!r.ok && r.error)).toBe(true);
    if (r.ok) expect(Buffer.from(r.value.vmd).equals(readFileSync(path.join(dir, 'walk.vmd')))).toBe(true);
    // Bytes without a model's name, or a model's bytes that are not a model, are refused as such.
    const nameless = await call(h, 'importMocap', { id: 'drop-2', format: 'bvh', name: '131_01.bvh', bytes: bytesOf(WALK), model: null, modelBytes: bytesOf(MIKU) });
    expect(!nameless.ok && nameless.error.code).toBe('E_ARGUMENT');
    const junk = await call(h, 'importMocap', { id: 'drop-3', format: 'bvh', name: '131_01.bvh', bytes: bytesOf(WALK), model: 'junk.pmx', modelBytes: new TextEncoder().encode('not a model') });
    expect(junk.ok).toBe(false);
    if (!junk.ok) expect(junk.error.file).toBe('junk.pmx');
  }, 240_000);
});
