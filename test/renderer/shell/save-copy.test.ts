// Save / Save All with an actor whose motion has no file (nustage pass, item 5): a copy of walk.vmd added as a
// new actor. Before, Save opened a dialog titled only "Save as" in the project folder (not motions/, where
// walk.vmd is) proposing walk.vmd, and Cancel left the scene unsaved with no word. Now the dialog names the
// actor and the original, starts beside the original with a free name, and a cancelled Save says the scene was
// not saved and why.
import { describe, expect, it, vi } from 'vitest';
import { openAny } from '../../../renderer/src/shell/app-actions';
import { runCommand } from '../../../renderer/src/shell/commands';
import { fileDialogState } from '../../../renderer/src/shell/file-dialog';
import { useConfirmStore } from '../../../renderer/src/stores/confirm';
import { renderText, useNotifyStore } from '../../../renderer/src/stores/notify';
import { usePreviewStore } from '../../../renderer/src/stores/preview';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { dance, editShown, memoryScene, sceneFile } from '../stores/scene-fixtures';

async function withCopy() {
  const fs = memoryScene([
    ['/p/motions/wavefile_v2.vmd', dance(10)],
    ['/p/motions/walk.vmd', dance(20)],
    ['/p/motions/walk (2).vmd', dance(30)],
    ['/p/stage.vmdscene', sceneFile({ actors: [{ model: 'models/Gene.pmx', motion: 'motions/wavefile_v2.vmd' }, { model: 'models/miku.pmd', motion: 'motions/walk.vmd' }], activeActor: 1 })],
  ]);
  const scene = useSceneStore();
  expect(await scene.openPath('/p/stage.vmdscene')).toBe(true);
  // The copy plays on the model the preview shows: miku's.
  usePreviewStore().setModel({ name: 'miku', path: '/p/models/miku.pmd', format: 'pmd', bones: 1, morphs: 0, vertices: 1, rigidBodies: 0, notes: [] });
  const done = openAny({ path: '/p/motions/walk.vmd' });
  await vi.waitFor(() => expect(useConfirmStore().current).not.toBeNull());
  useConfirmStore().answer('copy');
  expect(await done).toBe(true);
  expect(scene.actorLabel(scene.actors[2])).toBe('miku (2)');
  return fs;
}

describe('saving an actor’s motion that has no file', () => {
  it('the dialog names the actor and the original, and starts beside the original with a free name', async () => {
    const { files } = await withCopy();
    const scene = useSceneStore();
    const copy = scene.actors[2];
    const saving = runCommand('save');
    await vi.waitFor(() => expect(fileDialogState.request).not.toBeNull());
    const req = fileDialogState.request!;
    expect(req.title).toBe('Save miku (2)’s motion (a copy of walk.vmd)');
    expect(req.directory).toBe('/p/motions');
    // walk (2).vmd is taken in that folder.
    expect(req.fileName).toBe('walk (3).vmd');
    fileDialogState.resolve!({ path: '/p/motions/walk (3).vmd', overwrite: false });
    await saving;
    expect(useWorkspaceStore().get(copy.id)!.path).toBe('/p/motions/walk (3).vmd');
    expect(files.has('/p/motions/walk (3).vmd')).toBe(true);
    expect(scene.anyDirty).toBe(false);
    expect(useSettingsStore().t('dialog.saveCopyTitle', { actor: 'miku (2)', file: 'walk.vmd' })).toBe('Save miku (2)’s motion (a copy of walk.vmd)');
  });

  it('a cancelled Save says the scene was not saved and which actor has no file (en/ja)', async () => {
    const { files, original } = await withCopy();
    const scene = useSceneStore();
    scene.activate(scene.actors[0].id);
    editShown();
    const saving = runCommand('save');
    await vi.waitFor(() => expect(fileDialogState.request).not.toBeNull());
    fileDialogState.resolve!(null);
    await saving;
    // The edited motion was written; the scene file was not.
    expect(files.get('/p/motions/wavefile_v2.vmd')).not.toEqual(original.get('/p/motions/wavefile_v2.vmd'));
    expect(files.get('/p/stage.vmdscene')).toEqual(original.get('/p/stage.vmdscene'));
    const notice = useNotifyStore().items.find((n) => n.text && renderText(n.text, 'en').startsWith('Scene not saved'));
    expect(notice && renderText(notice.text!, 'en')).toBe('Scene not saved: miku (2) has no file yet (Save asks for its name)');
    expect(notice && renderText(notice.text!, 'ja')).toBe('シーンは保存されていません: miku (2) にはまだファイルがありません（上書き保存で名前を尋ねます）');
  });
});
