// A scene's motion that was missing at open (moved or renamed), picked again with Open… → "Load onto ACTOR"
// (nuscene §4): the actor now uses that file: its tab, Save (nothing to write, it is the file), Save Scene name
// it, and the notice names both files; Undo gives back the missing one. Before, the loaded keys went into an
// empty document with no file: the notice ended "Save writes it to )", the tab said "no motion file" and Save
// asked for a new name (motion.vmd). The same for a missing camera and for a missing model picked with Model….
import { describe, expect, it, vi } from 'vitest';
import { openAny } from '../../../renderer/src/shell/app-actions';
import { runCommand } from '../../../renderer/src/shell/commands';
import { fileDialogState } from '../../../renderer/src/shell/file-dialog';
import { useConfirmStore } from '../../../renderer/src/stores/confirm';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { renderText, useNotifyStore } from '../../../renderer/src/stores/notify';
import { usePreviewStore } from '../../../renderer/src/stores/preview';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { writeVmd } from '../../../shared/vmd';
import { cameraVmd, dance, editShown, memoryScene, sceneFile } from '../stores/scene-fixtures';

const last = (locale: 'en' | 'ja' = 'en') => renderText(useNotifyStore().items.at(-1)!.text!, locale);

/** Open… of `p` over the scene, answered with `choice` (load onto the shown actor, or use as the camera). */
async function openOnto(p: string, choice: 'load' | 'camera'): Promise<boolean> {
  const done = openAny({ path: p });
  await vi.waitFor(() => expect(useConfirmStore().current).not.toBeNull());
  useConfirmStore().answer(choice);
  return done;
}

function broken() {
  return memoryScene([
    ['/p/motions/33_angry.vmd', dance(10)],
    ['/p/motions/walk_v2.vmd', dance(20, 'matcap')],
    ['/p/motions/cam_v2.vmd', cameraVmd()],
    [
      '/p/show.vmdscene',
      sceneFile({
        actors: [
          { model: null, motion: 'motions/33_angry.vmd' },
          { model: 'models/matcap_sample.pmx', motion: 'motions/walk.vmd' },
        ],
        camera: 'motions/cam.vmd',
        activeActor: 1,
      }),
    ],
  ]);
}

describe('relinking a missing motion with Load onto', () => {
  it('the actor uses the file loaded: its tab, nothing to save, Save Scene names it; the notice names both files; Undo gives back the missing one', async () => {
    const { files, fake } = broken();
    const scene = useSceneStore();
    const ws = useWorkspaceStore();
    expect(await scene.openPath('/p/show.vmdscene')).toBe(true);
    const walk = scene.actors[1];
    expect(scene.activeId).toBe(walk.id);
    expect(walk.path).toBeNull();
    expect(walk.missing).toBe('/p/motions/walk.vmd');

    expect(await openOnto('/p/motions/walk_v2.vmd', 'load')).toBe(true);
    expect(scene.activeId).toBe(walk.id);
    expect(ws.path).toBe('/p/motions/walk_v2.vmd');
    expect(ws.fileName).toBe('walk_v2.vmd');
    // The file as it is (its own model name too): nothing to save.
    expect(writeVmd(ws.doc!)).toEqual(files.get('/p/motions/walk_v2.vmd'));
    expect(ws.dirty).toBe(false);
    expect(last()).toBe('matcap_sample now uses walk_v2.vmd in place of walk.vmd, which the scene names but could not be found (saving the scene names walk_v2.vmd; Undo gives back the missing one)');
    expect(last('ja')).toBe('matcap_sample は、シーンにあるが見つからない walk.vmd の代わりに walk_v2.vmd を使います（シーンを保存すると walk_v2.vmd を記録します。元に戻すで見つからないものに戻せます）');
    expect(useHistoryStore().undoLabel).toBe('load motion walk_v2.vmd');

    // Only the scene file is unsaved (it names walk.vmd): Save (Ctrl+S) writes it and no motion, with no dialog.
    expect(scene.unsavedNames).toEqual(['show.vmdscene']);
    await runCommand('save');
    expect(fileDialogState.request).toBeNull();
    expect(fake.calls.filter((c) => c.name === 'saveFile')).toEqual([]);
    expect(fake.calls.filter((c) => c.name === 'saveScene').map((c) => c.args[0])).toEqual(['/p/show.vmdscene']);
    const saved = JSON.parse(new TextDecoder().decode(files.get('/p/show.vmdscene')!));
    expect(saved.actors.map((a: { motion: string }) => a.motion)).toEqual(['motions/33_angry.vmd', 'motions/walk_v2.vmd']);

    // An edit makes it unsaved, and Save writes over walk_v2.vmd.
    editShown('bone');
    expect(ws.dirty).toBe(true);
    await runCommand('save');
    expect(fake.calls.filter((c) => c.name === 'saveFile').map((c) => c.args[0])).toEqual(['/p/motions/walk_v2.vmd']);
    expect(ws.dirty).toBe(false);

    // Undo the edit, then the relink: the empty motion with no file again, the missing file named.
    expect(useHistoryStore().undo()).toBe(true);
    expect(useHistoryStore().undo()).toBe(true);
    expect(ws.path).toBeNull();
    expect(ws.doc!.bone.count).toBe(0);
    expect(scene.actors[1].missing).toBe('/p/motions/walk.vmd');
    expect(scene.current(false).actors[1].motion).toBe('/p/motions/walk.vmd');
    // Redo: the file again.
    expect(useHistoryStore().redo()).toBe(true);
    expect(ws.path).toBe('/p/motions/walk_v2.vmd');
    expect(scene.actors[1].missing).toBeUndefined();
  });

  it('the question offers the relink first (Enter) and says the actor’s motion is missing; an actor with a file is asked as before', async () => {
    broken().files.set('/p/motions/stand.vmd', dance(30));
    const scene = useSceneStore();
    expect(await scene.openPath('/p/show.vmdscene')).toBe(true);
    const confirm = useConfirmStore();
    const asked = () => {
      const q = confirm.current!;
      return { message: renderText(q.message, 'en'), buttons: q.buttons.map((b) => renderText({ key: b.label, params: b.params }, 'en')), choices: q.buttons.map((b) => b.choice) };
    };
    // matcap_sample (shown) has lost walk.vmd.
    let done = openAny({ path: '/p/motions/walk_v2.vmd' });
    await vi.waitFor(() => expect(confirm.current).not.toBeNull());
    let q = asked();
    expect(q.choices.slice(0, 2)).toEqual(['load', 'add']);
    expect(q.buttons[0]).toBe('Load onto matcap_sample (relinks the missing walk.vmd)');
    expect(q.message).toContain('The motion of matcap_sample, walk.vmd, is missing: load this file onto matcap_sample in its place');
    expect(renderText({ key: confirm.current!.buttons[0].label, params: confirm.current!.buttons[0].params }, 'ja')).toBe('matcap_sample に読み込む（見つからない walk.vmd をリンクし直す）');
    // Enter answers the first button: the relink.
    confirm.answer(confirm.current!.buttons[0].choice);
    expect(await done).toBe(true);
    expect(scene.actors[1].path).toBe('/p/motions/walk_v2.vmd');
    expect(scene.actors.length).toBe(2);

    // 33_angry has its file: "Add" stays first and the plain question is asked.
    scene.activate(scene.actors[0].id);
    done = openAny({ path: '/p/motions/stand.vmd' });
    await vi.waitFor(() => expect(confirm.current).not.toBeNull());
    q = asked();
    expect(q.choices.slice(0, 2)).toEqual(['add', 'load']);
    expect(q.buttons[1]).toBe('Load onto 33_angry (replaces its motion)');
    expect(q.message).not.toContain('missing');
    confirm.answer('cancel');
    expect(await done).toBe(false);
  });

  it('a missing camera document takes the camera file used as the scene’s camera', async () => {
    broken();
    const scene = useSceneStore();
    expect(await scene.openPath('/p/show.vmdscene')).toBe(true);
    expect(scene.cameraEntry!.path).toBeNull();
    expect(await openOnto('/p/motions/cam_v2.vmd', 'camera')).toBe(true);
    expect(scene.cameraEntry!.path).toBe('/p/motions/cam_v2.vmd');
    expect(scene.cameraEntry!.fileName).toBe('cam_v2.vmd');
    expect(scene.cameraEntry!.dirty).toBe(false);
    expect(scene.current(false).camera).toBe('/p/motions/cam_v2.vmd');
  });

  it('an actor with a file still loads the motion into it (Save writes it there), as before', async () => {
    broken();
    const scene = useSceneStore();
    expect(await scene.openPath('/p/show.vmdscene')).toBe(true);
    scene.activate(scene.actors[0].id);
    expect(await openOnto('/p/motions/walk_v2.vmd', 'load')).toBe(true);
    expect(useWorkspaceStore().path).toBe('/p/motions/33_angry.vmd');
    expect(useWorkspaceStore().dirty).toBe(true);
    expect(last()).toBe('Loaded walk_v2.vmd onto 33_angry: its motion is replaced (Undo gives it back; Save writes it to 33_angry.vmd)');
  });

  it('a motion dropped (no path) onto an actor with no file says Save asks for its name, not "Save writes it to )"', async () => {
    broken();
    const scene = useSceneStore();
    expect(await scene.openPath('/p/show.vmdscene')).toBe(true);
    const done = openAny({ name: 'walk_v2.vmd', bytes: dance(20) });
    await vi.waitFor(() => expect(useConfirmStore().current).not.toBeNull());
    useConfirmStore().answer('load');
    expect(await done).toBe(true);
    expect(useWorkspaceStore().path).toBeNull();
    expect(last()).toBe('Loaded walk_v2.vmd onto matcap_sample: its motion is replaced (Undo gives it back; it has no file yet: Save asks for its name)');
    expect(last('ja')).toBe('walk_v2.vmd を matcap_sample に読み込みました: モーションを置き換えました（元に戻すで戻せます。まだファイルがないため、保存時に名前を尋ねます）');
  });
});

describe('relinking a file moved to another folder (same name)', () => {
  it('the notice names the folders, the status says the motion is missing, and the not-found notice goes once nothing is missing', async () => {
    memoryScene([
      ['/p/moved/idle.vmd', dance(10)],
      ['/p/moved/walk.vmd', dance(20)],
      [
        '/p/stage.vmdscene',
        sceneFile({ actors: [{ model: null, motion: 'motions/walk.vmd' }, { name: 'matcap_sample', model: null, motion: 'motions/idle.vmd' }], activeActor: 1 }),
      ],
    ]);
    const scene = useSceneStore();
    const settings = useSettingsStore();
    expect(await scene.openPath('/p/stage.vmdscene')).toBe(true);
    const notices = () => useNotifyStore().items.map((n) => renderText(n.text!, 'en'));
    const notFound = () => notices().filter((t) => t.startsWith('Not found'));
    expect(notFound()).toHaveLength(1);
    // While missing: the status says so (not "Not saved to a file yet").
    const status = (locale: 'en' | 'ja' = 'en') => {
      settings.settings.locale = locale;
      const line = settings.t(scene.saveStatus.key, scene.saveStatus.params);
      settings.settings.locale = 'en';
      return line;
    };
    expect(status()).toBe('idle.vmd is missing: Open… it where it is now and Load onto the actor');
    expect(status('ja')).toBe('idle.vmd が見つかりません: 今ある場所から「開く…」で開き、アクターに読み込んでください');

    expect(await openOnto('/p/moved/idle.vmd', 'load')).toBe(true);
    expect(last()).toBe('matcap_sample now uses moved/idle.vmd in place of motions/idle.vmd, which the scene names but could not be found (saving the scene names moved/idle.vmd; Undo gives back the missing one)');
    expect(status()).toBe('Unsaved changes in stage.vmdscene');
    // walk.vmd is still missing: the notice stays.
    expect(notFound()).toHaveLength(1);
    scene.activate(scene.actors[0].id);
    expect(status()).toBe('walk.vmd is missing: Open… it where it is now and Load onto the actor');
    expect(await openOnto('/p/moved/walk.vmd', 'load')).toBe(true);
    // Nothing missing now: the not-found notice has gone.
    expect(notFound()).toEqual([]);
  });
});

describe('the not-found notice follows undo and redo of a relink', () => {
  it('a relink undone brings the file back into the notice (also after the notice was closed); one relinked leaves the other named; redo takes it off again', async () => {
    memoryScene([
      ['/p/moved/idle.vmd', dance(10)],
      ['/p/moved/walk.vmd', dance(20)],
      ['/p/stage.vmdscene', sceneFile({ actors: [{ model: null, motion: 'motions/walk.vmd' }, { name: 'matcap_sample', model: null, motion: 'motions/idle.vmd' }], activeActor: 1 })],
    ]);
    const scene = useSceneStore();
    const history = useHistoryStore();
    const notify = useNotifyStore();
    expect(await scene.openPath('/p/stage.vmdscene')).toBe(true);
    const notFound = () => notify.items.map((n) => renderText(n.text!, 'en')).filter((t) => t.startsWith('Not found'));
    // The notice's first sentence, up to where the relink steps start.
    const listed = () => notFound().map((t) => t.slice(0, t.indexOf('. To relink')));
    const both = 'Not found: 2 files the scene names; the rest of the scene opened: walk.vmd (actor 1 motion) · idle.vmd (actor 2 motion)';
    const walkOnly = 'Not found: walk.vmd (actor 1 motion); the rest of the scene opened';
    const idleOnly = 'Not found: idle.vmd (actor 2 motion); the rest of the scene opened';
    const settle = () => new Promise((r) => setTimeout(r, 0));
    expect(listed()).toEqual([both]);

    // idle.vmd relinked: the notice names walk.vmd alone.
    expect(await openOnto('/p/moved/idle.vmd', 'load')).toBe(true);
    await settle();
    expect(listed()).toEqual([walkOnly]);
    // walk.vmd relinked too: nothing is missing, the notice goes.
    scene.activate(scene.actors[0].id);
    expect(await openOnto('/p/moved/walk.vmd', 'load')).toBe(true);
    await settle();
    expect(notFound()).toEqual([]);

    // Undo the walk relink: the actor's motion is missing again, its tab says so, and the notice is back.
    expect(history.undo()).toBe(true);
    await settle();
    expect(scene.actors[0].missing).toBe('/p/motions/walk.vmd');
    expect(listed()).toEqual([walkOnly]);
    expect(scene.saveStatus.key).toBe('status.missing');
    // Undo the idle relink too: both named again.
    expect(history.undo()).toBe(true);
    await settle();
    expect(listed()).toEqual([both]);
    // Redo: idle.vmd is found again; the notice names walk.vmd alone.
    expect(history.redo()).toBe(true);
    await settle();
    expect(listed()).toEqual([walkOnly]);

    // Closed by the person: a redo that relinks does not bring it back; the undo that makes walk.vmd missing again does.
    notify.dismiss(notify.items.find((n) => renderText(n.text!, 'en').startsWith('Not found'))!.id);
    expect(history.redo()).toBe(true);
    await settle();
    expect(notFound()).toEqual([]);
    expect(history.undo()).toBe(true);
    await settle();
    expect(listed()).toEqual([walkOnly]);
    expect(listed()).not.toContain(idleOnly);
  });
});

describe('relinking a missing model with Model…', () => {
  it('the actor uses the model picked, and Save Scene names it', async () => {
    const { files } = memoryScene([
      ['/p/a.vmd', dance(10)],
      ['/p/show.vmdscene', sceneFile({ actors: [{ model: 'models/gone.pmx', motion: 'a.vmd' }] })],
    ]);
    const scene = useSceneStore();
    const preview = usePreviewStore();
    expect(await scene.openPath('/p/show.vmdscene')).toBe(true);
    expect(scene.actors[0].missingModel).toBe(true);
    // Model… → the model loads in the preview.
    preview.setModel({ name: 'm', path: '/p/models/found.pmx', format: 'pmx', bones: 1, morphs: 0, vertices: 1, rigidBodies: 0, notes: [] });
    await vi.waitFor(() => expect(scene.actors[0].model).toBe('/p/models/found.pmx'));
    expect(scene.actors[0].missingModel).toBe(false);
    expect(await scene.saveTo('/p/show.vmdscene', true)).toBe(true);
    expect(JSON.parse(new TextDecoder().decode(files.get('/p/show.vmdscene')!)).actors[0].model).toBe('models/found.pmx');
  });
});
