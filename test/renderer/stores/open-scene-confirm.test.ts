// Opening a scene file over a window with unsaved documents asks first (issue 13): the in-app question
// names the scene file and the unsaved documents; Cancel keeps every document and its unsaved changes (the
// scene's files are not read), Open and Discard opens the scene; a clean window and a file that is no
// scene are not asked about; a lone unsaved motion is asked about too (the scene replaces it).
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { setApi } from '../../../renderer/src/api';
import { useConfirmStore } from '../../../renderer/src/stores/confirm';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { answerNext, memoryApi, dance, editShown } from './scene-fixtures';

const sceneJson = (motions: string[]) =>
  new TextEncoder().encode(JSON.stringify({ format: 'vmd-studio-scene', version: 1, actors: motions.map((m) => ({ model: null, motion: m })), activeActor: 0 }));

describe('opening a scene file over unsaved documents', () => {
  let fake: ReturnType<typeof memoryApi>;
  const sceneReads = () => fake.calls.filter((c) => c.name === 'openFile' && (c.args[0] === '/t/c.vmd' || c.args[0] === '/t/d.vmd')).length;
  beforeEach(async () => {
    setActivePinia(createPinia());
    const files = new Map([
      ['/s/a.vmd', dance(10)],
      ['/s/b.vmd', dance(20)],
      ['/s/duet.vmdscene', sceneJson(['a.vmd', 'b.vmd'])],
      ['/t/c.vmd', dance(30)],
      ['/t/d.vmd', dance(40)],
      ['/t/other.vmdscene', sceneJson(['c.vmd', 'd.vmd'])],
      ['/t/broken.vmdscene', new TextEncoder().encode('{ not json')],
    ]);
    fake = memoryApi(files);
    setApi(fake.api);
  });

  it('asks naming the file and the unsaved documents; Cancel keeps them all, Open and Discard opens the scene', async () => {
    const scene = useSceneStore();
    expect(await useSceneStore().openPath('/s/duet.vmdscene')).toBe(true);
    editShown();
    expect(scene.unsavedNames).toEqual(['a.vmd']);

    const cancelled = scene.openPath('/t/other.vmdscene');
    expect(await answerNext('cancel')).toBe('Opening other.vmdscene replaces the scene. The unsaved changes to a.vmd will be lost.');
    expect(await cancelled).toBe(false);
    expect(scene.entries.map((e) => e.fileName)).toEqual(['a.vmd', 'b.vmd']);
    expect(scene.unsavedNames).toEqual(['a.vmd']);
    expect(sceneReads()).toBe(0);

    // A file that does not read as a scene replaces nothing: no question, the scene stays.
    expect(await scene.openPath('/t/broken.vmdscene')).toBe(false);
    expect(useConfirmStore().current).toBeNull();
    expect(scene.unsavedNames).toEqual(['a.vmd']);

    // Through a plain Open too (Open Recent, double-click): Open and Discard opens it.
    const opened = useSceneStore().openPath('/t/other.vmdscene');
    await answerNext('discard');
    expect(await opened).toBe(true);
    expect(scene.entries.map((e) => e.fileName)).toEqual(['c.vmd', 'd.vmd']);
    expect(scene.anyDirty).toBe(false);

    // The window is clean now: another scene opens without a question.
    expect(await scene.openPath('/s/duet.vmdscene')).toBe(true);
    expect(useConfirmStore().current).toBeNull();
  });

  it('a lone unsaved motion is asked about too; a lone clean one is not', async () => {
    const scene = useSceneStore();
    expect(await useSceneStore().openPath('/s/a.vmd')).toBe(true);
    expect(await scene.openPath('/t/other.vmdscene')).toBe(true); // clean: no question
    expect(useConfirmStore().current).toBeNull();
    expect(await useSceneStore().openPath('/s/b.vmd')).toBe(true);
    editShown();
    const opening = scene.openPath('/t/other.vmdscene');
    expect(await answerNext('cancel')).toBe('Save the changes to b.vmd before opening other.vmdscene?');
    expect(await opening).toBe(false);
    expect(scene.entries.map((e) => e.fileName)).toEqual(['b.vmd']);
    expect(useWorkspaceStore().dirty).toBe(true);
  });
});
