// Whole Motion → Merge with… (stores/merge.ts): corpus motions merged into the open motion as one undo step whose
// bytes are the shared merge engine's and the command line's (`vmd-studio merge OPEN.vmd B.vmd -o OUT.vmd
// [--gap N|--overlay]`), byte for byte; Undo gives the open motion's bytes back; the notice says the keys added,
// the (name, frame) collisions dropped and, for a camera motion, the CLI's camera-into-model warning. On a camera
// document the dialog starts on Overlay (a light-only file's keys stay on its timeline).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPinia, setActivePinia } from 'pinia';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, okValue, type VmdStudioApi } from '../../../shared/ipc/contract';
import { buildTracks, readVmd, writeVmd, type VmdDocument } from '../../../shared/vmd';
import { merge } from '../../../shared/motion-ops';
import { setApi } from '../../../renderer/src/api';
import { useMergeStore } from '../../../renderer/src/stores/merge';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { noticeLines, useNotifyStore } from '../../../renderer/src/stores/notify';
import { corpusPath, corpusPresent } from '../../helpers/corpus';
import { runCliCaptured } from '../../helpers/cli-in-process';
import { buildFixture } from '../../helpers/vmd-fixtures';

/** An API that reads the paths the dialog chose from disk (as main's openFile does); the rest answers nothing. */
function readingApi(read: string[]): VmdStudioApi {
  return new Proxy({} as Record<string, unknown>, {
    get: (_t, name: string) => async (...args: unknown[]) => {
      if (name === 'openFile') {
        const p = args[0] as string;
        read.push(p);
        return okValue({ path: p, name: path.basename(p), bytes: new Uint8Array(readFileSync(p)) });
      }
      if (name === 'setSettings') return okValue({ ...DEFAULT_SETTINGS, ...(args[0] as object) });
      if (name === 'listRecent') return okValue([]);
      return okValue(undefined);
    },
  }) as unknown as VmdStudioApi;
}

const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;
const bytesOf = (p: string) => new Uint8Array(readFileSync(p));
function docOf(p: string): VmdDocument {
  const r = readVmd(bytesOf(p));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
const keys = (d: VmdDocument) => d.bone.count + d.morph.count + d.camera.count + d.light.count + d.shadow.count + d.ik.count;

const dir = mkdtempSync(path.join(os.tmpdir(), 'vmd-appmerge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!corpusPresent)('Merge with… on the open motion', () => {
  const open = corpusPath('gene/motion/00_normal.vmd');
  const laugh = corpusPath('gene/motion/02_laugh.vmd');
  const camera = corpusPath('threejs/vmds/wavefile_camera.vmd');
  let read: string[];

  beforeEach(() => {
    setActivePinia(createPinia());
    read = [];
    setApi(readingApi(read));
  });

  it('appended with a gap of 5: the engine\'s and the CLI\'s bytes, one undo step, Undo gives the bytes back', async () => {
    const original = bytesOf(open);
    const engine = merge([docOf(open), docOf(laugh)], { gap: 5 });
    if (!engine.ok) throw new Error('merge refused');
    const expected = writeVmd(engine.value.doc);
    const out = path.join(dir, 'append.vmd');
    const cli = await runCliCaptured(['merge', open, laugh, '-o', out, '--gap', '5', '--overwrite'], dir);
    expect(cli.code, cli.err).toBe(0);
    expect(same(bytesOf(out), expected)).toBe(true);

    const ws = useWorkspaceStore();
    expect(useSceneStore().openBytes('00_normal.vmd', original, open)).toBe(true);
    const m = useMergeStore();
    m.show();
    m.addFile(laugh);
    m.gap = '5';
    expect(m.canApply).toBe(true);
    expect(await m.apply()).toBe(true);
    expect(read).toEqual([laugh]);
    expect(m.open).toBe(false);
    const hist = useHistoryStore();
    expect(hist.depth).toBe(1);
    expect(same(writeVmd(ws.doc!), expected)).toBe(true);
    expect(same(writeVmd(ws.doc!), bytesOf(out))).toBe(true);
    const lines = noticeLines(useNotifyStore().items.at(-1)!, 'en');
    expect(lines.message).toContain('02_laugh.vmd');
    // Both gene files repeat a few (name, frame) pairs of their own: the CLI drops those too (first record wins).
    const dropped = engine.value.report.extra.duplicatesDropped as number;
    expect(dropped).toBe(keys(docOf(open)) + keys(docOf(laugh)) - keys(engine.value.doc));
    expect(lines.detail).toContain(`keys added: ${keys(engine.value.doc) - keys(docOf(open))}`);
    expect(lines.detail).toContain(`${dropped} ${dropped === 1 ? 'key' : 'keys'} at a (name, frame) already keyed ${dropped === 1 ? 'was' : 'were'} dropped`);
    expect(await hist.undoSliced()).toBe(true);
    expect(same(writeVmd(ws.doc!), original)).toBe(true);
    expect(await hist.redoSliced()).toBe(true);
    expect(same(writeVmd(ws.doc!), expected)).toBe(true);
  });

  it('overlaid with a camera and a second motion: the CLI\'s bytes, its collisions and its camera warning, in Japanese too', async () => {
    const original = bytesOf(open);
    const out = path.join(dir, 'overlay.vmd');
    const cli = await runCliCaptured(['merge', open, camera, laugh, '-o', out, '--overlay', '--overwrite', '--json'], dir);
    expect(cli.code, cli.err).toBe(0);
    const report = JSON.parse(cli.out) as { extra?: Record<string, number>; warnings: string[] };
    const dropped = report.extra?.duplicatesDropped ?? (report as unknown as Record<string, number>).duplicatesDropped;
    expect(dropped).toBeGreaterThan(0);
    expect(report.warnings.join('\n')).toContain('wavefile_camera.vmd is a camera motion');
    const engine = merge([docOf(open), docOf(camera), docOf(laugh)], { overlay: true });
    if (!engine.ok) throw new Error('merge refused');
    expect(same(writeVmd(engine.value.doc), bytesOf(out))).toBe(true);

    const ws = useWorkspaceStore();
    expect(useSceneStore().openBytes('00_normal.vmd', original, open)).toBe(true);
    const m = useMergeStore();
    m.show();
    m.addFile(camera);
    m.addFile(laugh);
    m.mode = 'overlay';
    m.gap = 'x'; // not used by an overlay
    expect(await m.apply()).toBe(true);
    expect(same(writeVmd(ws.doc!), bytesOf(out))).toBe(true);
    const notice = useNotifyStore().items.at(-1)!;
    expect(notice.kind).toBe('warning');
    const en = noticeLines(notice, 'en');
    const added = keys(engine.value.doc) - keys(docOf(open));
    expect(added).toBe(keys(docOf(camera)) + keys(docOf(laugh)) - dropped);
    expect(en.detail).toContain(`keys added: ${added}`);
    expect(en.detail).toContain(`${dropped} ${dropped === 1 ? 'key' : 'keys'} at a (name, frame) already keyed ${dropped === 1 ? 'was' : 'were'} dropped (first file wins)`);
    expect(en.detail).toContain(`wavefile_camera.vmd is a camera motion: its ${docOf(camera).camera.count} camera keys were added to a model motion`);
    const ja = noticeLines(notice, 'ja');
    expect(ja.message).toContain('結合しました');
    expect(ja.detail).toContain(`追加したキー: ${added}`);
    expect(ja.detail).toContain('wavefile_camera.vmd はカメラモーションです');
    expect(await useHistoryStore().undoSliced()).toBe(true);
    expect(same(writeVmd(ws.doc!), original)).toBe(true);
  });

  it('on a camera document starts on Overlay: a light-only file keeps its frames (nulight 3); on a model motion on Append', async () => {
    // Light and self-shadow keys at 0, 300, 600 and 900, no camera key (written field by field).
    const lightOnly = path.join(dir, 'lightonly.vmd');
    writeFileSync(lightOnly, buildFixture({
      lights: [0, 300, 600, 900].map((frame, i) => ({ frame, color: [0.2 * i, 0.5, 0.5], direction: [0, -1, 0.1 * i] })),
      shadows: [0, 300, 600, 900].map((frame, i) => ({ frame, mode: i % 3, distance: 0.01 * (i + 1) })),
    }));
    const original = bytesOf(camera);
    const ws = useWorkspaceStore();
    expect(useSceneStore().openBytes('wavefile_camera.vmd', original, camera)).toBe(true);
    const m = useMergeStore();
    m.mode = 'append'; // the last use's choice does not carry over to a camera document
    m.show();
    expect(m.mode).toBe('overlay');
    m.addFile(lightOnly);
    expect(await m.apply()).toBe(true);
    const engine = merge([docOf(camera), docOf(lightOnly)], { overlay: true });
    if (!engine.ok) throw new Error('merge refused');
    expect(same(writeVmd(ws.doc!), writeVmd(engine.value.doc))).toBe(true);
    // The camera file has no light or self-shadow key, so all eight land on their own frames; the length stays.
    const t = buildTracks(ws.doc!);
    expect([...t.light.frames]).toEqual([0, 300, 600, 900]);
    expect([...t.shadow.frames]).toEqual([0, 300, 600, 900]);
    expect(Math.max(...t.camera.frames)).toBe(Math.max(...buildTracks(docOf(camera)).camera.frames));

    expect(useSceneStore().openBytes('00_normal.vmd', bytesOf(open), open)).toBe(true);
    m.mode = 'overlay';
    m.show();
    expect(m.mode).toBe('append');
  });

  it('a gap that is not a whole number ≥ 0 or no file chosen: Apply is off and nothing changes', async () => {
    expect(useSceneStore().openBytes('00_normal.vmd', bytesOf(open), open)).toBe(true);
    const m = useMergeStore();
    m.show();
    expect(m.canApply).toBe(false);
    m.addFile(laugh);
    m.gap = '-1';
    expect(m.canApply).toBe(false);
    expect(await m.apply()).toBe(false);
    expect(useHistoryStore().depth).toBe(0);
    expect(read).toEqual([]);
  });
});
