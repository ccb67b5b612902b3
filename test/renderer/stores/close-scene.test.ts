// Closing asks per unsaved document when asked to (issue 13; one question lists them first, close-list.test.ts:
// Choose for Each…): Save / Don't Save / Cancel naming each one in turn, Save writing that document alone,
// Cancel stopping with nothing more saved; and opening a lone file over a
// scene with unsaved documents asks before dropping them.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { writeVmd } from '../../../shared/vmd';
import { setApi } from '../../../renderer/src/api';
import { askEachBeforeClose, runCommand } from '../../../renderer/src/shell/commands';
import { useConfirmStore } from '../../../renderer/src/stores/confirm';
import { renderText, useNotifyStore } from '../../../renderer/src/stores/notify';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { answerNext, memoryApi, memoryScene, dance, cameraVmd, editShown } from './scene-fixtures';

describe('closing a scene asks per unsaved document', () => {
  let files: Map<string, Uint8Array>;
  let fake: ReturnType<typeof memoryApi>;
  let original: Map<string, Uint8Array>;
  beforeEach(async () => {
    ({ files, original, fake } = memoryScene([
      ['/s/a.vmd', dance(10)],
      ['/s/b.vmd', dance(20)],
      ['/s/camera.vmd', cameraVmd()],
      ['/s/other.vmd', dance(30)],
      // A saved scene: its own content is unchanged, so only the edited documents are asked about (an untitled
      // scene is asked about too: scene-loss.test.ts).
      ['/s/abc.vmdscene', new TextEncoder().encode(JSON.stringify({ format: 'vmd-studio-scene', version: 1, actors: [{ model: null, motion: 'a.vmd' }, { model: null, motion: 'b.vmd' }], camera: 'camera.vmd', activeActor: 0 }))],
    ]));
    const scene = useSceneStore();
    await useSceneStore().openPath('/s/abc.vmdscene');
    const [a, , cam] = scene.entries;
    scene.activate(a.id);
    editShown('bone');
    scene.activate(cam.id);
    editShown('camera');
    expect(scene.unsavedNames).toEqual(['a.vmd', 'camera.vmd']);
  });

  const saves = () => fake.calls.filter((c) => c.name === 'saveFile').map((c) => c.args[0]);

  it('Save for one and Don’t Save for the other: only the first is written, the window may close', async () => {
    const done = askEachBeforeClose();
    await answerNext('each');
    expect(await answerNext('save')).toBe('Save the changes to a.vmd before closing?');
    expect(await answerNext('discard')).toBe('Save the changes to camera.vmd before closing?');
    expect(await done).toBe(true);
    expect(useConfirmStore().current).toBeNull(); // b.vmd (clean) was not asked about
    expect(saves()).toEqual(['/s/a.vmd']);
    expect(files.get('/s/a.vmd')).not.toEqual(original.get('/s/a.vmd'));
    expect(files.get('/s/a.vmd')).toEqual(writeVmd(useWorkspaceStore().get(useSceneStore().entries[0].id)!.doc));
    expect(files.get('/s/camera.vmd')).toEqual(original.get('/s/camera.vmd'));
  });

  it('Cancel at the second question keeps the window open; the first Save stays written, nothing more is', async () => {
    const done = askEachBeforeClose();
    await answerNext('each');
    await answerNext('save');
    await answerNext('cancel');
    expect(await done).toBe(false);
    expect(saves()).toEqual(['/s/a.vmd']);
    expect(useSceneStore().unsavedNames).toEqual(['camera.vmd']);
  });

  it('Cancel at the first question saves nothing and asks nothing more; the close command then does not close', async () => {
    const done = runCommand('saveAndClose');
    await answerNext('cancel');
    await done;
    expect(useConfirmStore().current).toBeNull();
    expect(saves()).toEqual([]);
    expect(fake.calls.some((c) => c.name === 'closeWindow')).toBe(false);
    // Don't Save (for both, in one answer): the command closes the window.
    const again = runCommand('saveAndClose');
    await answerNext('discard');
    await again;
    expect(saves()).toEqual([]);
    expect(fake.calls.filter((c) => c.name === 'closeWindow')).toHaveLength(1);
  });

  it('opening a lone file asks before it replaces the scene; Cancel keeps the scene and its unsaved documents', async () => {
    const scene = useSceneStore();
    const opening = useSceneStore().openPath('/s/other.vmd');
    expect(await answerNext('cancel')).toBe('Opening other.vmd replaces the scene. The unsaved changes to a.vmd, camera.vmd will be lost.');
    expect(await opening).toBe(false);
    expect(scene.entries.map((e) => e.fileName)).toEqual(['a.vmd', 'b.vmd', 'camera.vmd']);
    expect(scene.unsavedNames).toEqual(['a.vmd', 'camera.vmd']);
    expect(fake.calls.some((c) => c.name === 'openFile' && c.args[0] === '/s/other.vmd')).toBe(false);

    const again = useSceneStore().openPath('/s/other.vmd');
    await answerNext('discard');
    expect(await again).toBe(true);
    expect(scene.entries.map((e) => e.fileName)).toEqual(['other.vmd']);
    expect(scene.anyDirty).toBe(false);
  });

  it('Save All and Open writes every unsaved document over its file, then opens the other file', async () => {
    const scene = useSceneStore();
    const edited = scene.entries.map((e) => writeVmd(useWorkspaceStore().get(e.id)!.doc));
    const opening = useSceneStore().openPath('/s/other.vmd');
    await vi.waitFor(() => expect(useConfirmStore().current).not.toBeNull());
    expect(useConfirmStore().current!.buttons.map((b) => renderText({ key: b.label }, 'en'))).toEqual(['Save All and Open', 'Open and Discard', 'Cancel']);
    useConfirmStore().answer('save');
    expect(await opening).toBe(true);
    expect(saves().sort()).toEqual(['/s/a.vmd', '/s/camera.vmd']);
    expect(files.get('/s/a.vmd')).toEqual(edited[0]);
    expect(files.get('/s/camera.vmd')).toEqual(edited[2]);
    expect(scene.entries.map((e) => e.fileName)).toEqual(['other.vmd']);
  });

  it('the question is in Japanese too; a lone clean motion is then replaced without one', async () => {
    const confirm = useConfirmStore();
    const opening = useSceneStore().openPath('/s/other.vmd');
    await vi.waitFor(() => expect(confirm.current).not.toBeNull());
    expect(renderText(confirm.current!.message, 'ja')).toBe('other.vmd を開くとシーンが置き換えられます。a.vmd, camera.vmd の未保存の変更は失われます。');
    confirm.answer('discard');
    expect(await opening).toBe(true);
    expect(await useSceneStore().openPath('/s/b.vmd')).toBe(true); // a lone clean motion: no question
    expect(confirm.current).toBeNull();
    expect(useSceneStore().entries.map((e) => e.fileName)).toEqual(['b.vmd']);
  });
});

describe('opening a file over a lone unsaved motion', () => {
  let files: Map<string, Uint8Array>;
  let original: Map<string, Uint8Array>;
  let fake: ReturnType<typeof memoryApi>;
  beforeEach(async () => {
    ({ files, original, fake } = memoryScene([
      ['/s/a.vmd', dance(10)],
      ['/s/b.vmd', dance(20)],
    ]));
    await useSceneStore().openPath('/s/a.vmd');
    editShown('bone');
  });
  const saves = () => fake.calls.filter((c) => c.name === 'saveFile').map((c) => c.args[0]);

  it('asks first (it was dropped without a word); Cancel keeps the edit and opens nothing', async () => {
    const opening = useSceneStore().openPath('/s/b.vmd');
    expect(await answerNext('cancel')).toBe('Save the changes to a.vmd before opening b.vmd?');
    expect(await opening).toBe(false);
    expect(useWorkspaceStore().fileName).toBe('a.vmd');
    expect(useWorkspaceStore().dirty).toBe(true);
    expect(fake.calls.some((c) => c.name === 'openFile' && c.args[0] === '/s/b.vmd')).toBe(false);
  });

  it('Save writes the motion over its file, then opens the other; Don’t Save opens it and writes nothing', async () => {
    const edited = writeVmd(useWorkspaceStore().doc!);
    let opening = useSceneStore().openPath('/s/b.vmd');
    await answerNext('save');
    expect(await opening).toBe(true);
    expect(saves()).toEqual(['/s/a.vmd']);
    expect(files.get('/s/a.vmd')).toEqual(edited);
    expect(useWorkspaceStore().fileName).toBe('b.vmd');
    editShown('bone');
    opening = useSceneStore().openPath('/s/a.vmd');
    expect(await answerNext('discard')).toBe('Save the changes to b.vmd before opening a.vmd?');
    expect(await opening).toBe(true);
    expect(saves()).toEqual(['/s/a.vmd']);
    expect(files.get('/s/b.vmd')).toEqual(original.get('/s/b.vmd'));
    expect(useWorkspaceStore().dirty).toBe(false);
  });

  it('a motion never saved cannot be saved without a name: the notice says so and nothing opens', async () => {
    setActivePinia(createPinia());
    setApi(memoryApi(files).api);
    expect(useSceneStore().openBytes('new.vmd', dance(5), null)).toBe(true);
    editShown('bone');
    const opening = useSceneStore().openPath('/s/b.vmd');
    await answerNext('save');
    expect(await opening).toBe(false);
    expect(useWorkspaceStore().fileName).toBe('new.vmd');
    expect(useWorkspaceStore().dirty).toBe(true);
    const last = useNotifyStore().items.at(-1)!;
    expect(renderText(last.text!, 'en')).toBe('new.vmd has never been saved: save it with Save As, then open the file again');
  });
});

describe('closing a scene whose file itself changed', () => {
  it('asks about the scene after its documents; Save writes the scene file, Cancel keeps the window', async () => {
    setActivePinia(createPinia());
    const files = new Map([
      ['/s/a.vmd', dance(10)],
      ['/s/b.vmd', dance(20)],
      ['/s/duet.vmdscene', new TextEncoder().encode(JSON.stringify({ format: 'vmd-studio-scene', version: 1, actors: [{ model: null, motion: 'a.vmd' }, { model: null, motion: 'b.vmd' }], activeActor: 0 }))],
    ]);
    const fake = memoryApi(files);
    setApi(fake.api);
    const scene = useSceneStore();
    expect(await useSceneStore().openPath('/s/duet.vmdscene')).toBe(true);
    expect(scene.sceneChanged).toBe(false);
    expect(await askEachBeforeClose()).toBe(true); // nothing to ask
    scene.entries[1].hidden = true;
    expect(scene.sceneChanged).toBe(true);
    expect(scene.unsavedNames).toEqual(['duet.vmdscene']);
    let done = askEachBeforeClose();
    expect(await answerNext('cancel')).toBe('Save the changes to duet.vmdscene (shown/hidden: b) before closing?');
    expect(await done).toBe(false);
    done = askEachBeforeClose();
    await answerNext('save');
    expect(await done).toBe(true);
    const saved = JSON.parse(new TextDecoder().decode(files.get('/s/duet.vmdscene')!));
    expect(saved.actors.map((a: { hidden: boolean }) => a.hidden)).toEqual([false, true]);
    expect(scene.sceneChanged).toBe(false);
  });
});
