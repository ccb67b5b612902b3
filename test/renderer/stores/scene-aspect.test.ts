// The scene's output aspect has one owner, the scene store (issue 25 §4): a scene file's aspect is the scene's
// without being copied into the settings; one the person picks is the scene's and is remembered for the next
// window; a window with neither uses the one remembered; Save Scene writes what the store says.
import { describe, expect, it } from 'vitest';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { OUTPUT_ASPECT_SETTING } from '../../../renderer/src/preview/output-frame';
import { memoryScene, dance } from './scene-fixtures';

const sceneFile = (aspect: { width: number; height: number }) =>
  new TextEncoder().encode(JSON.stringify({ format: 'vmd-studio-scene', version: 1, actors: [{ model: null, motion: 'a.vmd' }], camera: null, activeActor: 0, aspect }));
const savedAspect = (files: Map<string, Uint8Array>, p: string) => JSON.parse(new TextDecoder().decode(files.get(p)!)).aspect;

describe('the scene aspect', () => {
  it('a scene file’s aspect is the scene’s, not written into the settings; Save Scene writes it back', async () => {
    const { files, fake } = memoryScene([
      ['/s/a.vmd', dance(10)],
      ['/s/four-three.vmdscene', sceneFile({ width: 4, height: 3 })],
    ]);
    const scene = useSceneStore();
    expect(scene.outputAspect).toEqual({ text: '16:9', ratio: 16 / 9 }); // nothing picked, nothing remembered
    expect(await scene.openPath('/s/four-three.vmdscene')).toBe(true);
    expect(scene.outputAspect).toEqual({ text: '4:3', ratio: 4 / 3 });
    expect(useSettingsStore().settings.ui[OUTPUT_ASPECT_SETTING]).toBeUndefined();
    expect(fake.calls.filter((c) => c.name === 'setSettings' && JSON.stringify(c.args).includes(OUTPUT_ASPECT_SETTING))).toEqual([]);
    expect(scene.sceneChanged).toBe(false);
    expect(await scene.saveTo('/s/copy.vmdscene', false)).toBe(true);
    expect(savedAspect(files, '/s/copy.vmdscene')).toEqual({ width: 4, height: 3 });
  });

  it('one the person picks is the scene’s (unsaved until Save Scene) and is remembered; another file keeps it; nonsense is ignored', async () => {
    const { files } = memoryScene([
      ['/s/a.vmd', dance(10)],
      ['/s/b.vmd', dance(20)],
      ['/s/wide.vmdscene', sceneFile({ width: 16, height: 9 })],
    ]);
    const scene = useSceneStore();
    expect(await scene.openPath('/s/wide.vmdscene')).toBe(true);
    scene.setOutputAspect('21:9');
    expect(scene.outputAspect).toEqual({ text: '21:9', ratio: 21 / 9 });
    await Promise.resolve();
    expect(useSettingsStore().settings.ui[OUTPUT_ASPECT_SETTING]).toBe('21:9');
    expect(scene.sceneChanged).toBe(true);
    expect(await scene.saveTo('/s/wide.vmdscene', true)).toBe(true);
    expect(savedAspect(files, '/s/wide.vmdscene')).toEqual({ width: 21, height: 9 });
    expect(scene.sceneChanged).toBe(false);
    scene.setOutputAspect('tall');
    expect(scene.outputAspect.text).toBe('21:9');
    expect(await scene.openPath('/s/b.vmd')).toBe(true);
    expect(scene.outputAspect.text).toBe('21:9');
  });
});
