// An actor's outline width (fixnotdone 1: nanoem's per-model edge size, MMM's edge thickness): scene content as a
// stage is, one undo step each, kept in the scene file (actors[].edgeWidth), read back from it, and named in the
// close question's scene line.
import { describe, expect, it } from 'vitest';
import { setApi } from '../../../renderer/src/api';
import { editLabel } from '../../../renderer/src/editor/edit-labels';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { renderText } from '../../../renderer/src/stores/notify';
import { t } from '../../../shared/i18n/strings';
import { withFakeAudio } from '../../helpers/fake-audio';
import { dance, memoryApi, sceneFile } from './scene-fixtures';

let files: Map<string, Uint8Array>;

withFakeAudio(undefined, () => {
  files = new Map<string, Uint8Array>([
    ['/s/a.vmd', dance(10)],
    ['/s/b.vmd', dance(20)],
    // Luka's outline is half her model's in the file.
    ['/s/duet.vmdscene', sceneFile({ actors: [{ name: 'Miku', model: null, motion: 'a.vmd' }, { name: 'Luka', model: null, motion: 'b.vmd', edgeWidth: 0.5 }] })],
  ]);
  setApi(memoryApi(files).api);
});

const savedScene = (p: string) => JSON.parse(new TextDecoder().decode(files.get(p)!));

describe('an actor’s outline width', () => {
  it('reads from the scene file, is one undo step, marks the scene unsaved, and Save writes it', async () => {
    const scene = useSceneStore();
    const history = useHistoryStore();
    expect(await scene.openPath('/s/duet.vmdscene')).toBe(true);
    const [miku, luka] = scene.actors;
    expect(luka.edgeWidth).toBe(0.5);
    expect(miku.edgeWidth).toBeUndefined();
    expect(scene.sceneChanged).toBe(false);

    expect(scene.setEdgeWidth(miku.id, 2)).toBe(true);
    expect(scene.actors[0].edgeWidth).toBe(2);
    expect(history.undoLabel).toBe('outline width');
    expect(editLabel(history.undoLabel, (k) => t(k, 'ja'))).toBe('輪郭線の太さ');
    expect(scene.sceneChanged).toBe(true);
    expect(renderText(scene.sceneChangeText!, 'en')).toBe('outline width of Miku');
    // The same width again is no step; beyond 2 is held at 2.
    expect(scene.setEdgeWidth(miku.id, 2)).toBe(false);
    expect(scene.setEdgeWidth(miku.id, 5)).toBe(false);
    expect(history.depth).toBe(1);

    history.undo();
    expect(scene.actors[0].edgeWidth).toBeUndefined();
    expect(scene.sceneChanged).toBe(false);
    await history.redoSliced();
    expect(scene.actors[0].edgeWidth).toBe(2);

    // Back to 1 (the model's own) on Luka: nothing is written for her.
    expect(scene.setEdgeWidth(luka.id, 1)).toBe(true);
    expect(await scene.saveTo('/s/duet.vmdscene', true)).toBe(true);
    const saved = savedScene('/s/duet.vmdscene');
    expect(saved.actors[0].edgeWidth).toBe(2);
    expect('edgeWidth' in saved.actors[1]).toBe(false);
    expect(scene.sceneChanged).toBe(false);
  });
});
