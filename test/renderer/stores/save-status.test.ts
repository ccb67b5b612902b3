// The status bar's saving line names every unsaved document, the shown one too (nustage pass, item 7): with
// the shown motion unsaved it said only "Unsaved changes", though another actor's motion and the scene were
// unsaved too (the title's * stood for them). A copy of a motion beside its original is named with its actor
// ("walk.vmd" twice said nothing of which).
import { describe, expect, it, vi } from 'vitest';
import { openAny } from '../../../renderer/src/shell/app-actions';
import { useConfirmStore } from '../../../renderer/src/stores/confirm';
import { usePreviewStore } from '../../../renderer/src/stores/preview';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { dance, editShown, memoryScene, sceneFile } from './scene-fixtures';

function statusLine(locale: 'en' | 'ja' = 'en'): string {
  const settings = useSettingsStore();
  settings.settings.locale = locale;
  const s = useSceneStore().saveStatus;
  const line = settings.t(s.key, s.params);
  settings.settings.locale = 'en';
  return line;
}

describe('the status bar’s saving line over a scene', () => {
  it('names the others when the shown document is unsaved, and tells a copy from its original by its actor', async () => {
    memoryScene([
      ['/p/wavefile_v2.vmd', dance(10)],
      ['/p/walk.vmd', dance(20)],
      ['/p/idle.vmd', dance(30)],
      ['/p/stage.vmdscene', sceneFile({ actors: [{ model: 'Gene.pmx', motion: 'wavefile_v2.vmd' }, { model: 'miku.pmd', motion: 'walk.vmd' }, { model: 'matcap.pmx', motion: 'idle.vmd' }] })],
    ]);
    const scene = useSceneStore();
    expect(await scene.openPath('/p/stage.vmdscene')).toBe(true);
    const [gene, miku, matcap] = scene.actors;
    // Only the shown one unsaved: as before.
    editShown();
    expect(statusLine()).toBe('Unsaved changes');
    // miku edited too, and shown: Gene's motion is named.
    scene.activate(miku.id);
    editShown();
    expect(statusLine()).toBe('Unsaved changes here and in wavefile_v2.vmd');
    expect(statusLine('ja')).toBe('未保存の変更あり: この文書と wavefile_v2.vmd');
    // A change to the scene's own content: the scene file is named too.
    scene.setHidden(matcap.id, true);
    expect(statusLine()).toBe('Unsaved changes here and in wavefile_v2.vmd, stage.vmdscene');
    // The clean actor shown: the others, as before.
    scene.activate(matcap.id);
    expect(statusLine()).toBe('Unsaved changes in wavefile_v2.vmd, walk.vmd, stage.vmdscene');

    // A copy of walk.vmd (Open… of the open file → Add a copy): it and the original are named with their actors.
    // (The copy plays on the model the preview shows: miku's, shown with its tab.)
    scene.activate(miku.id);
    usePreviewStore().setModel({ name: 'miku', path: '/p/miku.pmd', format: 'pmd', bones: 1, morphs: 0, vertices: 1, rigidBodies: 0, notes: [] });
    const done = openAny({ path: '/p/walk.vmd' });
    await vi.waitFor(() => expect(useConfirmStore().current).not.toBeNull());
    useConfirmStore().answer('copy');
    expect(await done).toBe(true);
    const copy = scene.actors[3];
    expect(scene.activeId).toBe(copy.id);
    expect(scene.actorLabel(copy)).toBe('miku (2)');
    scene.activate(gene.id);
    expect(statusLine()).toBe('Unsaved changes here and in miku: walk.vmd, miku (2): walk.vmd, stage.vmdscene');
  });
});
