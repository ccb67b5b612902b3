/**
 * Camera follows a bone: the preview's follower (installCameraFollow) is built again only when what it depends on
 * changes — the followed actor's motion, model, stage place, the chosen bone — not on an edit to another document
 * (another actor's motion or place, the camera's keys).
 * A rebuilt follower starts with no positions worked out, so the free view's camera path evaluated the bone at
 * every frame of the camera once more (seconds for a bone leg IK moves) after any edit anywhere. Counted here:
 * the followers handed to the engine and the skeleton evaluations (Pose.evaluate) that follow.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextTick } from 'vue';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { installCameraFollow } from '../../../renderer/src/preview/camera-follow-source';
import type { PreviewEngine } from '../../../renderer/src/preview/preview-engine';
import { Pose } from '../../../shared/skeleton/skeleton';
import { registerBoneKey } from '../../../shared/key-edits/bone-key';
import { withFakeAudio } from '../../helpers/fake-audio';
import { cameraVmd, dance, editShown, memoryApi, sceneFile } from '../stores/scene-fixtures';
import { setApi } from '../../../renderer/src/api';

const actors = [
  { name: 'Miku', model: null, motion: 'a.vmd' },
  { name: 'Luka', model: null, motion: 'b.vmd' },
];

let stop: (() => void) | null = null;
afterEach(() => {
  stop?.();
  stop = null;
  vi.restoreAllMocks();
});

/** Lets the watch run and its follower (read asynchronously) reach the engine. */
const settle = async () => {
  for (let i = 0; i < 5; i++) {
    await nextTick();
    await Promise.resolve();
  }
};

withFakeAudio(undefined, () => {
  setApi(
    memoryApi(
      new Map<string, Uint8Array>([
        ['/s/a.vmd', dance(10)],
        ['/s/b.vmd', dance(20)],
        ['/s/cam.vmd', cameraVmd()],
        ['/s/follow.vmdscene', sceneFile({ actors, camera: 'cam.vmd', cameraFollow: { actor: 1, bone: 'センター' } })],
      ]),
    ).api,
  );
});

describe('the camera follow in the preview', () => {
  it('is not built again by an edit to another actor\'s motion or the camera\'s; an edit to the followed motion does', async () => {
    const scene = useSceneStore();
    expect(await scene.openPath('/s/follow.vmdscene')).toBe(true);
    const [miku, luka] = scene.actors;
    const camera = scene.cameraEntry!;
    // The engine as far as the follow goes: it places the camera at the playhead with the follower it is handed (one evaluation).
    const handed: (((f: number) => readonly number[] | null) | null)[] = [];
    const engine = { setCameraFollow: (f: ((f: number) => readonly number[] | null) | null) => (handed.push(f), f?.(5)) } as unknown as PreviewEngine;
    const evaluate = vi.spyOn(Pose.prototype, 'evaluate');
    stop = installCameraFollow(() => engine);
    await settle();
    expect(handed.length).toBe(1);
    // Luka's センター at frame 5: the built-in figure's センター stands at (0, 8, 0), moved 0 at frame 0, 20 at 10, straight between.
    expect(handed[0]!(5)).toEqual([10, 8, 0]);
    const built = evaluate.mock.calls.length;
    expect(built).toBe(1);

    // An edit to the other actor's motion, then to the camera's: the same follower, nothing evaluated again.
    expect(scene.activate(miku.id)).toBe(true);
    editShown('bone');
    await settle();
    expect(scene.activate(camera.id)).toBe(true);
    editShown('camera');
    await settle();
    expect(handed.length).toBe(1);
    expect(evaluate.mock.calls.length).toBe(built);

    // An edit to the followed motion: a new follower, the bone where the new key puts it.
    expect(scene.activate(luka.id)).toBe(true);
    expect(useHistoryStore().run((doc, tracks) => registerBoneKey(doc, tracks, { name: 'センター' }, 5, { position: [1, 2, 3], rotation: [0, 0, 0, 1] }))).not.toBeNull();
    await settle();
    expect(handed.length).toBe(2);
    expect(handed[1]!(5)).toEqual([1, 10, 3]);
    // Undoing it puts the old motion back: a follower again.
    useHistoryStore().undo();
    await settle();
    expect(handed.length).toBe(3);
    expect(handed[2]!(5)).toEqual([10, 8, 0]);
    // The actor placed elsewhere on the stage: again, moved with it. The other actor placed: not.
    expect(scene.setStage(luka.id, { position: [5, 0, 0], turn: 0 })).toBe(true);
    await settle();
    expect(handed.length).toBe(4);
    expect(handed[3]!(5)).toEqual([15, 8, 0]);
    expect(scene.setStage(miku.id, { position: [-5, 0, 0], turn: 0 })).toBe(true);
    await settle();
    expect(handed.length).toBe(4);
  });

  it('follows only inside its spans: the span in force gives the bone, outside none (nufollow §2)', async () => {
    const scene = useSceneStore();
    expect(await scene.openPath('/s/follow.vmdscene')).toBe(true);
    const [miku, luka] = scene.actors;
    const handed: (((f: number) => readonly number[] | null) | null)[] = [];
    const engine = { setCameraFollow: (f: ((f: number) => readonly number[] | null) | null) => void handed.push(f) } as unknown as PreviewEngine;
    stop = installCameraFollow(() => engine);
    await settle();
    // Luka's センター over frames 2…6, Miku's over 8 to the end; none before 2 nor at 7.
    expect(scene.setFollowSpans([{ actorId: luka.id, bone: 'センター', from: 2, to: 6 }, { actorId: miku.id, bone: 'センター', from: 8, to: null }])).toBe(true);
    await settle();
    const at = handed.at(-1)!;
    // By hand: the built-in figure's センター rests at (0, 8, 0); Luka's dance moves it x 0→20 over 0…10, Miku's 0→10.
    expect(at(5)).toEqual([10, 8, 0]);
    expect(at(6)).toEqual([12, 8, 0]);
    expect(at(1)).toBeNull();
    expect(at(6.5)).toBeNull();
    expect(at(7)).toBeNull();
    expect(at(9)).toEqual([9, 8, 0]);
    expect(at(500)).toEqual([0, 8, 0]);
    // Undo: the one span over the whole motion again (Luka's everywhere).
    useHistoryStore().undo();
    await settle();
    expect(handed.at(-1)!(1)).toEqual([2, 8, 0]);
  });
});
