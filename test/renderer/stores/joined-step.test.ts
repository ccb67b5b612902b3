// A step joined to the one before it is undone and redone with it (workspace DocumentStep.joined): K in a scene
// with no camera adds the camera document and keys it, and one Ctrl+Z must take both (the undo pass, finding 3:
// two were needed, and the empty camera left between them looked saved). Other steps stay one Ctrl+Z each.
import { describe, expect, it } from 'vitest';
import { setApi } from '../../../renderer/src/api';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useMusicStore } from '../../../renderer/src/stores/music';
import { registerCameraKey } from '../../../shared/key-edits';
import { withFakeAudio } from '../../helpers/fake-audio';
import { dance, editShown, memoryApi } from './scene-fixtures';

withFakeAudio(undefined, () => {
  setApi(memoryApi(new Map([['/s/a.vmd', dance(10)]])).api);
});

const key = { target: [0, 10, 0] as [number, number, number], rotation: [0.1, 0.2, 0] as [number, number, number], distance: -30, fov: 30 };

describe('a step joined to the one before it', () => {
  it('the camera made for a key goes with the key on one undo, and comes back with it on one redo', async () => {
    const scene = useSceneStore(), hist = useHistoryStore(), ws = useWorkspaceStore();
    expect(await scene.openPath('/s/a.vmd')).toBe(true);
    editShown();
    const before = hist.depth;
    expect(scene.cameraEntry).toBeFalsy();
    const made = scene.addCamera();
    expect(made).toBe(true);
    expect(hist.run((doc, tracks) => registerCameraKey(doc, tracks, 5, key), { joined: made })).not.toBeNull();
    expect(scene.cameraEntry).toBeTruthy();
    expect(ws.doc!.camera.count).toBe(1);
    expect(hist.depth).toBe(before + 2);

    // One undo: the key and the camera it was made for.
    expect(hist.undo()).toBe(true);
    expect(scene.cameraEntry).toBeFalsy();
    expect(hist.depth).toBe(before);
    // The edit before them is still there: the next undo takes only it.
    expect(hist.undoLabel).toBe('curve');

    // One redo: the camera and its key.
    expect(hist.redo()).toBe(true);
    expect(scene.cameraEntry).toBeTruthy();
    expect(ws.doc!.camera.count).toBe(1);
    expect(hist.depth).toBe(before + 2);
    expect(hist.canRedo).toBe(false);

    // A second key on that camera is not joined: one undo takes only it.
    expect(hist.run((doc, tracks) => registerCameraKey(doc, tracks, 20, key))).not.toBeNull();
    expect(ws.doc!.camera.count).toBe(2);
    expect(hist.undo()).toBe(true);
    expect(ws.doc!.camera.count).toBe(1);
    expect(scene.cameraEntry).toBeTruthy();
  });

  it('with the adding gone from the history (the last document kept for good), the key is undone alone', async () => {
    const scene = useSceneStore(), hist = useHistoryStore(), ws = useWorkspaceStore(), music = useMusicStore();
    expect(await scene.openPath('/s/a.vmd')).toBe(true);
    const actor = scene.actors[0].id;
    // A step of no document's below them: the music's offset.
    expect(music.changeOffset(12)).toBe(true);
    const made = scene.addCamera();
    expect(hist.run((doc, tracks) => registerCameraKey(doc, tracks, 5, key), { joined: made })).not.toBeNull();
    // The actor goes: the camera is the last document, kept for good, so its adding leaves the history.
    expect(scene.removeEntry(actor)).toBe(true);
    expect(hist.depth).toBe(3);
    // The removal undoes first (the actor back), then the key alone.
    expect(hist.undo()).toBe(true);
    expect(scene.actors.map((a) => a.id)).toEqual([actor]);
    expect(hist.undo()).toBe(true);
    expect(ws.doc!.camera.count).toBe(0);
    expect(scene.cameraEntry).toBeTruthy();
    // The music's step below is not taken with it.
    expect(music.offsetFrames).toBe(12);
    expect(hist.depth).toBe(1);
  });
});
