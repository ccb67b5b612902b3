// A notice that reports an edit goes when that edit is undone (docsfix 6, from the docs pass): K over 02_laugh (no
// camera) made the camera document and its key as one step, Ctrl+Z took both away and the status bar said "No
// unsaved changes", while "Camera key registered at frame 0" stayed in the corner. The notice is tagged with the
// step (workspace editNotice) and dropped on its undo; other notices stay, and a redo does not bring it back.
import { describe, expect, it } from 'vitest';
import { provideOrbitView, useRegisterView } from '../../../renderer/src/preview/register-view';
import { useEditorActions } from '../../../renderer/src/editor/use-editor-actions';
import { useCurveEditorStore } from '../../../renderer/src/stores/curve-editor';
import { useSelectionStore } from '../../../renderer/src/stores/selection';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { renderText, useNotifyStore } from '../../../renderer/src/stores/notify';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useTimeStore } from '../../../renderer/src/stores/time';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { dance, editShown, memoryScene } from './scene-fixtures';

const texts = () => useNotifyStore().items.map((n) => (n.text === undefined ? '' : renderText(n.text, 'en')));

describe('a notice about an edit goes with its undo', () => {
  it('K over a dance with no camera: the notice goes with the key and the camera made for it (one Ctrl+Z)', async () => {
    memoryScene([['/s/laugh.vmd', dance(10)]]);
    const scene = useSceneStore();
    expect(await scene.openPath('/s/laugh.vmd')).toBe(true);
    const ws = useWorkspaceStore();
    const notify = useNotifyStore();
    notify.clear();
    // An orbit view as the preview gives it (use-preview.ts): a camera 30 units in front, looking at 0, 10, 0.
    const withdraw = provideOrbitView(() => ({ target: [0, 10, 0], position: [0, 10, -30], fov: 30, up: [0, 1, 0] }));
    try {
      // Something else said before the edit: not the edit's, it stays.
      notify.info('unrelated line');
      useTimeStore().seek(0);
      expect(useRegisterView().register()).toBe(true);
      expect(scene.cameraEntry).not.toBeNull();
      expect(texts()).toEqual(['unrelated line', 'Camera key registered at frame 0']);
      const hist = useHistoryStore();
      expect(hist.undo()).toBe(true);
      // Both gone as one step (README: one K, one Ctrl+Z), and the notice with them.
      expect(scene.cameraEntry).toBeNull();
      expect(ws.dirty).toBe(false);
      expect(texts()).toEqual(['unrelated line']);
      // Redo puts the key back, not the notice (it said what was done then).
      expect(hist.redo()).toBe(true);
      expect(scene.cameraEntry).not.toBeNull();
      expect(texts().filter((x) => x.startsWith('Camera key'))).toEqual([]);
    } finally {
      withdraw();
    }
  });

  it('only its own step: undoing a later edit leaves the notice of an earlier one', async () => {
    memoryScene([['/s/a.vmd', dance(10)]]);
    const scene = useSceneStore();
    expect(await scene.openPath('/s/a.vmd')).toBe(true);
    const ws = useWorkspaceStore();
    const notify = useNotifyStore();
    notify.clear();
    editShown();
    ws.editNotice('success', 'first edit done');
    // A second edit with no notice of its own (another key's curve).
    useSelectionStore().select([{ kind: 'bone', record: 2 }]);
    useCurveEditorStore().setChannel(0);
    expect(useEditorActions().setCurve([90, 20, 100, 110])).toBe(true);
    const hist = useHistoryStore();
    expect(hist.depth).toBe(2);
    expect(hist.undo()).toBe(true);
    expect(texts()).toEqual(['first edit done']);
    expect(hist.undo()).toBe(true);
    expect(texts()).toEqual([]);
  });
});
