// Actors without a motion (issue 24 §3: opening an actor costs what its files cost): a scene of
// MAX_SCENE_ACTORS motionless actors opens without building a document per actor — they show one empty
// document until one is edited, and an edit of one is that actor's alone; what is saved is unchanged.
import { describe, expect, it } from 'vitest';
import { MAX_SCENE_ACTORS } from '../../../shared/scene/scene-file';
import { writeVmd, emptyVmd } from '../../../shared/vmd';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { memoryScene, dance } from './scene-fixtures';
import { registerBoneKey } from '../../../shared/key-edits/bone-key';

const sceneFile = (motions: (string | null)[]) =>
  new TextEncoder().encode(JSON.stringify({ format: 'vmd-studio-scene', version: 1, actors: motions.map((m) => ({ model: null, motion: m })), camera: null, activeActor: 0 }));

describe('motionless actors', () => {
  it(`a scene of ${MAX_SCENE_ACTORS} motionless actors shares one empty document; an edit is one actor’s own; Save Scene writes no motion for the rest`, async () => {
    const motions = [...Array.from({ length: MAX_SCENE_ACTORS - 1 }, () => null), 'a.vmd'];
    const { files } = memoryScene([
      ['/s/a.vmd', dance(10)],
      ['/s/still.vmdscene', sceneFile(motions)],
    ]);
    const scene = useSceneStore();
    const ws = useWorkspaceStore();
    const t0 = performance.now();
    expect(await scene.openPath('/s/still.vmdscene')).toBe(true);
    console.log(`[perf] a scene of ${MAX_SCENE_ACTORS} actors, ${MAX_SCENE_ACTORS - 1} of them motionless, opened in ${(performance.now() - t0).toFixed(1)} ms`);
    expect(scene.actors).toHaveLength(MAX_SCENE_ACTORS);
    const blank = writeVmd(emptyVmd());
    const still = scene.actors.slice(0, -1);
    // One empty document behind every motionless actor, not one built for each.
    expect(new Set(still.map((e) => ws.get(e.id)!.doc)).size).toBe(1);
    expect(writeVmd(ws.get(still[0].id)!.doc)).toEqual(blank);
    expect(writeVmd(ws.get(scene.actors.at(-1)!.id)!.doc)).toEqual(files.get('/s/a.vmd'));
    // A key registered on the second actor is its own: the first and third stay empty, and undo gives it back.
    scene.activate(still[1].id);
    expect(useHistoryStore().run((doc, tracks) => registerBoneKey(doc, tracks, { name: 'センター' }, 5, { position: [1, 2, 3], rotation: [0, 0, 0, 1] }))).not.toBeNull();
    const edited = ws.get(still[1].id)!;
    expect(writeVmd(edited.doc)).not.toEqual(blank);
    expect(writeVmd(ws.get(still[0].id)!.doc)).toEqual(blank);
    expect(writeVmd(ws.get(still[2].id)!.doc)).toEqual(blank);
    expect(ws.get(still[0].id)!.tracks).not.toBe(edited.tracks);
    useHistoryStore().undo();
    expect(writeVmd(ws.get(still[1].id)!.doc)).toEqual(blank);
    // Saved: the motionless actors name no motion, the last its file.
    expect(await scene.saveTo('/s/still.vmdscene', true)).toBe(true);
    const saved = JSON.parse(new TextDecoder().decode(files.get('/s/still.vmdscene')!));
    expect(saved.actors.map((a: { motion: string | null }) => a.motion)).toEqual(motions);
  });
});
