// Hiding an actor (the eye on its tab) is scene content, so it is one undo step like staging: before this,
// the eye changed the scene with no step, and Ctrl+Z after it undid the key edit made before the eye while the
// actor stayed hidden (the undo pass, finding 1).
import { describe, expect, it } from 'vitest';
import { editLabel } from '../../../renderer/src/editor/edit-labels';
import { setApi } from '../../../renderer/src/api';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { t } from '../../../shared/i18n/strings';
import { withFakeAudio } from '../../helpers/fake-audio';
import { dance, editShown, memoryApi, sceneFile } from './scene-fixtures';

let files: Map<string, Uint8Array>;

withFakeAudio(undefined, () => {
  files = new Map<string, Uint8Array>([
    ['/s/a.vmd', dance(10)],
    ['/s/b.vmd', dance(20)],
    ['/s/duet.vmdscene', sceneFile({ actors: [{ model: null, motion: 'a.vmd' }, { model: null, motion: 'b.vmd' }] })],
  ]);
  setApi(memoryApi(files).api);
});

describe('hiding an actor in the undo history', () => {
  it('the eye is one step: undo shows the actor again and leaves the edit before it alone; redo hides it', async () => {
    const scene = useSceneStore();
    const history = useHistoryStore();
    expect(await scene.openPath('/s/duet.vmdscene')).toBe(true);
    const [a, b] = scene.actors;
    // An edit on the shown actor first: the eye's undo must not take it.
    editShown();
    const afterEdit = history.depth;
    expect(afterEdit).toBeGreaterThan(0);
    const editLabelBefore = history.undoLabel;

    expect(scene.setHidden(b.id, true)).toBe(true);
    expect(scene.actors.find((e) => e.id === b.id)!.hidden).toBe(true);
    expect(history.depth).toBe(afterEdit + 1);
    expect(history.undoLabel).toBe('hide actor');
    expect(editLabel(history.undoLabel, (k) => t(k, 'ja'))).toBe('アクターを隠す');
    expect(scene.sceneChanged).toBe(true);
    // Hiding a hidden actor again is no step.
    expect(scene.setHidden(b.id, true)).toBe(false);
    expect(history.depth).toBe(afterEdit + 1);

    expect(history.undo()).toBe(true);
    expect(scene.actors.find((e) => e.id === b.id)!.hidden).toBe(false);
    expect(history.depth).toBe(afterEdit);
    // The edit made before the eye is still there, and is the next step back.
    expect(history.undoLabel).toBe(editLabelBefore);
    expect(a.dirty).toBe(true);

    expect(await history.redoSliced()).toBe(true);
    expect(scene.actors.find((e) => e.id === b.id)!.hidden).toBe(true);
    // Showing it again is its own step, named so.
    expect(scene.setHidden(b.id, false)).toBe(true);
    expect(history.undoLabel).toBe('show actor');
    expect(editLabel(history.undoLabel, (k) => t(k, 'en'))).toBe('show actor');
  });
});
