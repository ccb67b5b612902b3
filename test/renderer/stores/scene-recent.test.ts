// Opening a scene reads each actor's motion and the camera for it: those reads keep the files off Open
// Recent (the nustage pass: the scene sank under the five files it had loaded, and the top entry then opened
// only the camera). A motion the person opens or adds (Open…, + Actor) still goes on the list.
import { describe, expect, it } from 'vitest';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { cameraVmd, dance, memoryScene, sceneFile } from './scene-fixtures';

/** The recent list main would keep from the recorded reads: openScene and openFile, unless told recent: false. */
function recentFrom(calls: { name: string; args: unknown[] }[]): string[] {
  const list: string[] = [];
  for (const c of calls) {
    if (c.name !== 'openFile' && c.name !== 'openScene') continue;
    if ((c.args[1] as { recent?: boolean } | undefined)?.recent === false) continue;
    const p = c.args[0] as string;
    if (list.includes(p)) list.splice(list.indexOf(p), 1);
    list.unshift(p);
  }
  return list;
}

describe('a scene’s files and Open Recent', () => {
  it('opening a scene puts the scene alone on the list; a motion added with + Actor goes on it', async () => {
    const { fake } = memoryScene([
      ['/p/motions/walk.vmd', dance(10)],
      ['/p/motions/idle.vmd', dance(20)],
      ['/p/motions/run.vmd', dance(30)],
      ['/p/camera/cam.vmd', cameraVmd()],
      ['/p/stage.vmdscene', sceneFile({ actors: [{ model: null, motion: 'motions/walk.vmd' }, { model: null, motion: 'motions/idle.vmd' }], camera: 'camera/cam.vmd' })],
    ]);
    const scene = useSceneStore();
    expect(await scene.openPath('/p/stage.vmdscene')).toBe(true);
    expect(scene.entries.map((e) => e.fileName)).toEqual(['walk.vmd', 'idle.vmd', 'cam.vmd']);
    expect(recentFrom(fake.calls)).toEqual(['/p/stage.vmdscene']);

    expect(await scene.addDocument('/p/motions/run.vmd', 'actor')).toBe(true);
    expect(recentFrom(fake.calls)).toEqual(['/p/motions/run.vmd', '/p/stage.vmdscene']);
  });
});
