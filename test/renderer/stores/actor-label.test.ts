// What an actor is called (stores/scene.ts actorLabel): the scene file's name for it, else its model's file
// name, else its motion's; worked out live, so a model given later renames the tab, and the same scene
// reads the same after a save and a reopen (the names were frozen when the tab was made).
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { setApi } from '../../../renderer/src/api';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { memoryApi, dance } from './scene-fixtures';

const sceneJson = (actors: { name?: string; model: string | null; motion: string }[]) =>
  new TextEncoder().encode(JSON.stringify({ format: 'vmd-studio-scene', version: 1, actors, activeActor: 0 }));

describe('actor names', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    const files = new Map([
      ['/s/dance1.vmd', dance(10)],
      ['/s/dance2.vmd', dance(20)],
      ['/s/duet.vmdscene', sceneJson([{ model: null, motion: 'dance1.vmd' }, { name: 'Lead', model: '/m/miku.pmx', motion: 'dance2.vmd' }])],
    ]);
    setApi(memoryApi(files).api);
  });

  it('the file’s name, else the model’s, else the motion’s; a model given later renames it', async () => {
    const scene = useSceneStore();
    expect(await useSceneStore().openPath('/s/duet.vmdscene')).toBe(true);
    const [a, b] = scene.actors;
    expect(scene.actorLabel(a)).toBe('dance1');
    expect(scene.actorLabel(b)).toBe('Lead');
    a.model = '/m/Gene_light.pmx';
    expect(scene.actorLabel(a)).toBe('Gene_light');
    expect(scene.docName(a.id)).toBe('Gene_light: dance1.vmd');
  });

  it('actors called alike are numbered apart in the order of the tabs, the first as it is', async () => {
    const scene = useSceneStore();
    expect(await scene.openPath('/s/duet.vmdscene')).toBe(true);
    const [a, b] = scene.actors;
    a.model = '/m/Gene_light.pmx';
    b.model = '/n/Gene_light.pmx';
    expect(scene.actorLabel(b)).toBe('Lead');
    b.name = '';
    expect([scene.actorLabel(a), scene.actorLabel(b)]).toEqual(['Gene_light', 'Gene_light (2)']);
    expect(scene.docName(b.id)).toBe('Gene_light (2): dance2.vmd');
    expect(scene.partName(b.id)).toBe('Gene_light (2)');
    // Named apart again, the number goes.
    a.model = null;
    expect([scene.actorLabel(a), scene.actorLabel(b)]).toEqual(['dance1', 'Gene_light']);
  });
});
