/**
 * Autosave keeps a scene's own layout (stores/scene.ts recoveryLayout, shared/scene/recovery-layout.ts) and Recover
 * opens it (shell/recovery.ts): a scene of two actors (one on a model, moved and turned; one on the figure, hidden),
 * a song with its offset, volume and the 4:3 aspect. Its copy is Save Scene's bytes, but an edited or never-saved
 * document is named by its recovery copy instead of a path. Expected values are written out here by hand from the
 * scene file below. Main is the in-memory stand-in of the other scene-store tests (happy-dom: main's services do not
 * run here; test/e2e/autosave-recover.e2e.test.ts runs the whole with the real server and the corpus).
 */
import { describe, expect, it } from 'vitest';
import { okValue, type VmdStudioApi } from '../../../shared/ipc/contract';
import type { RecoveryCopy, RecoveryCopyInfo } from '../../../shared/ipc/recovery-types';
import { parseScene } from '../../../shared/scene/scene-file';
import { readRecoveryLayout } from '../../../shared/scene/recovery-layout';
import { writeVmd } from '../../../shared/vmd';
import { setApi } from '../../../renderer/src/api';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useMusicStore } from '../../../renderer/src/stores/music';
import { useAutosaveStore } from '../../../renderer/src/stores/autosave';
import { recover } from '../../../renderer/src/shell/recovery';
import { dance, editShown, memoryScene, sceneFile } from './scene-fixtures';

const SCENE = '/s/duo.vmdscene';
const layoutFile = () =>
  sceneFile({
    actors: [
      { name: 'A', model: 'models/a.pmx', motion: 'a.vmd', hidden: false, stage: { position: [5, 0, -2], turn: 30 } },
      { model: null, motion: 'b.vmd', hidden: true },
    ],
    audio: { path: 'song.wav', offsetFrames: 12, volume: 0.5, muted: false },
    aspect: { width: 4, height: 3 },
  });
const files = (): [string, Uint8Array][] => [
  ['/s/a.vmd', dance(10)],
  ['/s/b.vmd', dance(20)],
  [SCENE, layoutFile()],
];
const text = (b: Uint8Array) => new TextDecoder().decode(b);

/** Opens the scene, moves actor B, edits actor A's motion, adds a camera (never saved). */
async function edited() {
  const mem = memoryScene(files());
  const scene = useSceneStore();
  expect(await scene.openPath(SCENE)).toBe(true);
  const [a, b] = scene.actors;
  scene.setStage(b.id, { position: [1, 0, 0], turn: 0 });
  scene.activate(a.id);
  editShown('bone');
  expect(scene.addCamera()).toBe(true);
  return { mem, scene, a: a.id, b: b.id, cam: scene.cameraEntry!.id };
}

describe('the scene layout autosave keeps', () => {
  it('is none while nothing is unsaved; with only the layout changed, it is the bytes Save Scene writes', async () => {
    const { files: fs } = memoryScene(files());
    const scene = useSceneStore();
    expect(await scene.openPath(SCENE)).toBe(true);
    expect(scene.recoveryLayout()).toBeNull();
    scene.setStage(scene.actors[1].id, { position: [1, 0, 0], turn: 0 });
    const layout = scene.recoveryLayout()!;
    expect(layout.pointed).toEqual([]);
    expect(layout).toMatchObject({ path: SCENE, name: 'duo.vmdscene', actors: 2 });
    const copy = layout.bytes();
    expect(await scene.saveTo(SCENE, true)).toBe(true);
    expect(text(fs.get(SCENE)!)).toBe(text(copy));
    // Saved: nothing left to keep.
    expect(scene.recoveryLayout()).toBeNull();
  });

  it('names the edited motion and the untitled camera by their copies, the unedited motion by its path', async () => {
    const { scene, a, cam } = await edited();
    const layout = scene.recoveryLayout()!;
    expect([...layout.pointed].sort()).toEqual([a, cam].sort());
    const bytes = layout.bytes();
    // As the scene file stores them: relative to the scene's folder.
    const raw = JSON.parse(text(bytes));
    expect(raw.actors[0]).toEqual({ name: 'A', model: 'models/a.pmx', motion: null, hidden: false, stage: { position: [5, 0, -2], turn: 30 }, recoveryCopy: String(a) });
    expect(raw.actors[1]).toEqual({ model: null, motion: 'b.vmd', hidden: true, stage: { position: [1, 0, 0], turn: 0 } });
    expect(raw.camera).toBeNull();
    expect(raw.cameraRecoveryCopy).toBe(String(cam));
    expect(raw.audio).toEqual({ path: 'song.wav', offsetFrames: 12, volume: 0.5, muted: false });
    expect(raw.aspect).toEqual({ width: 4, height: 3 });
    // The scene reader reads it: the pointers are fields it keeps.
    const parsed = parseScene(bytes, SCENE);
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(parsed.value.actors).toEqual([
      { name: 'A', model: '/s/models/a.pmx', motion: null, hidden: false, stage: { position: [5, 0, -2], turn: 30 }, extra: { recoveryCopy: String(a) } },
      { model: null, motion: '/s/b.vmd', hidden: true, stage: { position: [1, 0, 0], turn: 0 } },
    ]);
    expect(parsed.value.camera).toBeNull();
    expect(parsed.value.extra).toEqual({ cameraRecoveryCopy: String(cam) });
    expect(parsed.value.audio).toEqual({ path: '/s/song.wav', offsetFrames: 12, volume: 0.5, muted: false });
    // Read as a layout: which copy each part comes from, and a scene with no trace of them.
    const read = readRecoveryLayout(bytes, SCENE);
    if (!read.ok) throw new Error(read.error.message);
    expect([...read.value.actorCopies]).toEqual([[0, String(a)]]);
    expect(read.value.cameraCopy).toBe(String(cam));
    expect(read.value.scene.actors[0].extra).toBeUndefined();
    expect(read.value.scene.extra).toBeUndefined();
  });

  it('an untitled scene keeps every path whole', async () => {
    memoryScene([['/s/a.vmd', dance(10)], ['/s/b.vmd', dance(20)]]);
    const scene = useSceneStore();
    expect(await scene.openPath('/s/a.vmd')).toBe(true);
    expect(await scene.addDocument('/s/b.vmd', 'actor')).toBe(true);
    const layout = scene.recoveryLayout()!;
    expect(layout).toMatchObject({ path: null, pointed: [] });
    const raw = JSON.parse(text(layout.bytes()));
    expect(raw.actors.map((x: { motion: string }) => x.motion)).toEqual(['/s/a.vmd', '/s/b.vmd']);
  });
});

describe('autosave writes the layout after the copies it names, and Recover opens the scene from them', () => {
  it('round trip: the actors, their models, stages, the edited key, the camera and the offset come back; Save Scene As names the saved motion', async () => {
    const { scene, a, b, cam, mem } = await edited();
    const editedA = writeVmd(useWorkspaceStore().get(a)!.doc);
    expect(editedA).not.toEqual(dance(10));
    const auto = useAutosaveStore();
    await auto.start({ layout: () => scene.recoveryLayout() });
    await auto.flush();
    const keeps = mem.fake.calls.filter((c) => c.name === 'keepRecoveryCopy').map((c) => ({ info: c.args[1] as RecoveryCopyInfo, bytes: c.args[2] as Uint8Array }));
    // The edited motion and the never-saved camera (not the unedited B), then the layout.
    expect(keeps.map((k) => k.info.doc).sort()).toEqual([String(a), String(cam), 'scene'].sort());
    expect(keeps[keeps.length - 1].info).toMatchObject({ doc: 'scene', kind: 'scene', format: 'vmdscene', path: SCENE, name: 'duo.vmdscene', keys: 2 });
    expect(keeps.find((k) => k.info.doc === String(a))!.bytes).toEqual(editedA);
    expect(keeps.some((k) => k.info.doc === String(b))).toBe(false);
    auto.stop();

    // A new page over the same files (nothing was saved): the copies are a gone session's.
    const GONE = 'G'.repeat(22);
    const copies: RecoveryCopy[] = keeps.map((k, i) => ({ ...k.info, session: GONE, savedAt: 1000 - i, bytes: k.bytes.length })).reverse();
    const next = memoryScene(files());
    const stored = new Map(keeps.map((k) => [k.info.doc, k.bytes]));
    const api = next.fake.api as unknown as Record<string, unknown>;
    setApi(new Proxy(api, { get: (t, k: string) => (k === 'readRecoveryCopy' ? async (_s: string, doc: string) => okValue({ bytes: stored.get(doc)! }) : t[k]) }) as unknown as VmdStudioApi);
    const s2 = useSceneStore();
    await useAutosaveStore().start({ layout: () => s2.recoveryLayout() });
    await recover(copies);
    expect(s2.path).toBe(SCENE);
    expect(s2.actors.map((e) => ({ model: e.model, stage: e.stage ?? null, hidden: e.hidden, name: e.name || null }))).toEqual([
      { model: '/s/models/a.pmx', stage: { position: [5, 0, -2], turn: 30 }, hidden: false, name: 'A' },
      { model: null, stage: { position: [1, 0, 0], turn: 0 }, hidden: true, name: null },
    ]);
    const ws = useWorkspaceStore();
    const [ra, rb] = s2.actors;
    // A from its copy (unsaved, its file kept); B read from its file, as saved.
    expect(writeVmd(ws.get(ra.id)!.doc)).toEqual(editedA);
    expect(ws.get(ra.id)).toMatchObject({ path: '/s/a.vmd', dirty: true });
    expect(writeVmd(ws.get(rb.id)!.doc)).toEqual(dance(20));
    expect(ws.get(rb.id)).toMatchObject({ path: '/s/b.vmd', dirty: false });
    expect(s2.cameraEntry).not.toBeNull();
    expect(ws.get(s2.cameraEntry!.id)!.path).toBeNull();
    expect(useMusicStore().offsetFrames).toBe(12);
    expect(s2.outputAspect.text).toBe('4:3');
    expect(s2.sceneChanged).toBe(true);
    // This page kept its own copies (the layout among them), then the gone ones went.
    const discarded = next.fake.calls.filter((c) => c.name === 'discardRecovery').map((c) => c.args[1]);
    expect([...discarded].sort()).toEqual([String(a), String(cam), 'scene'].sort());

    // Save (the motion to its file) and Save Scene As: the scene names the saved motions and no copy.
    const saved = await s2.saveDocuments();
    expect(saved.needsName).toEqual([s2.cameraEntry!.id]);
    expect(next.files.get('/s/a.vmd')).toEqual(editedA);
    expect(await s2.saveTo('/s/again.vmdscene', false)).toBe(true);
    const out = text(next.files.get('/s/again.vmdscene')!);
    expect(out).not.toContain('ecoveryCopy');
    const again = JSON.parse(out);
    expect(again.actors).toEqual([
      { name: 'A', model: 'models/a.pmx', motion: 'a.vmd', hidden: false, stage: { position: [5, 0, -2], turn: 30 } },
      { model: null, motion: 'b.vmd', hidden: true, stage: { position: [1, 0, 0], turn: 0 } },
    ]);
    expect(again.audio).toEqual({ path: 'song.wav', offsetFrames: 12, volume: 0.5, muted: false });
  });
});
