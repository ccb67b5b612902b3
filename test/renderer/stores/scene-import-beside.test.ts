// A capture imported into a scene (stores/scene.ts addImported, what Import in the BVH/VRMA dialog does) stood at
// the origin, inside the first actor. It is placed beside the actors there (shared/scene/place-beside.ts), at
// their models' sizes as the preview gives them (attachFootprints): its stage says so, Save Scene writes that
// stage, and its motion is the import's, byte for byte (the place is the scene's, never written into keys).
import { beforeEach, describe, expect, it } from 'vitest';
import { readVmd, writeVmd } from '../../../shared/vmd';
import { documentContent, useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { memoryScene, dance } from './scene-fixtures';

const sceneFile = () =>
  new TextEncoder().encode(
    JSON.stringify({
      format: 'vmd-studio-scene',
      version: 1,
      activeActor: 0,
      actors: [
        { model: '/m/a.pmx', motion: 'a.vmd' },
        { model: '/m/b.pmx', motion: 'b.vmd', stage: { position: [12, 0, 3], turn: 0 } },
      ],
    }),
  );

/** The capture's motion: its own bytes, to compare with what the scene holds after Import. */
const captureBytes = dance(40);
const capture = () => {
  const r = readVmd(captureBytes);
  if (!r.ok) throw new Error(r.error.message);
  return documentContent(r.value, { name: 'walk.vmd' });
};

describe('an imported capture stands beside the actors', () => {
  let files: Map<string, Uint8Array>;
  beforeEach(async () => {
    ({ files } = memoryScene([
      ['/s/a.vmd', dance(10)],
      ['/s/b.vmd', dance(20)],
      ['/s/duo.vmdscene', sceneFile()],
    ]));
    expect(await useSceneStore().openPath('/s/duo.vmdscene')).toBe(true);
  });

  it('right of the right-most actor by its model width and a gap; Save Scene keeps the stage; the motion bytes are the import\'s', async () => {
    const scene = useSceneStore();
    const [a, b] = scene.actors;
    // a: a model 8 wide; b (at X 12): 10 wide, off centre (−3 … 7). The new one is on a's model.
    scene.attachFootprints(() => new Map([[a.id, { minX: -4, maxX: 4, minZ: -1, maxZ: 1 }], [b.id, { minX: -3, maxX: 7, minZ: -1, maxZ: 1 }]]));
    const { id, placed } = scene.addImported(capture(), '/m/a.pmx');
    // b reaches X 12 + 7 = 19; 2 apart; the new model's left half (4): 19 + 2 + 4.
    expect(placed).toEqual({ position: [25, 0, 0], turn: 0 });
    expect(scene.actors.map((e) => e.stage ?? null)).toEqual([null, { position: [12, 0, 3], turn: 0 }, { position: [25, 0, 0], turn: 0 }]);
    expect(scene.activeId).toBe(id);
    expect(writeVmd(useWorkspaceStore().get(id)!.doc)).toEqual(captureBytes);
    expect(await scene.saveTo('/s/duo.vmdscene', true)).toBe(true);
    const saved = JSON.parse(new TextDecoder().decode(files.get('/s/duo.vmdscene')!));
    expect(saved.actors.map((x: { stage?: unknown }) => x.stage ?? null)).toEqual([null, { position: [12, 0, 3], turn: 0 }, { position: [25, 0, 0], turn: 0 }]);
  });

  it('a turned actor reaches as far as its turned footprint; with no preview a model is taken as 10 wide', async () => {
    const scene = useSceneStore();
    const [, b] = scene.actors;
    scene.setStage(b.id, { position: [12, 0, 3], turn: 90 });
    // No footprints (no preview mounted): every model −5 … 5 (x) and −3 … 3 (z); b turned a quarter reaches 12 + 3.
    const { placed } = scene.addImported(capture(), null);
    expect(placed).toEqual({ position: [22, 0, 0], turn: 0 });
  });

  it('with nothing open the capture is the lone motion, at the origin', async () => {
    memoryScene([]);
    const scene = useSceneStore();
    const { placed } = scene.addImported(capture(), null);
    expect(placed).toBeUndefined();
    expect(scene.actors.map((e) => e.stage ?? null)).toEqual([null]);
  });
});
