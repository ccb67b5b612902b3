/**
 * The camera's followed bone as plain data for whoever asks (shared/scene/camera-follow.ts BoneFollower): the
 * followed actor's model read once per file (bones and morphs), and the follower of the scene's follow now. The
 * preview hands it to the engine (preview/camera-follow-source.ts); the Stage tab's picker lists its bones and the
 * bake samples it (editor/CameraFollowPanel.vue). Here, below both views, so neither imports the other.
 */
import { useApi } from '../api';
import { readModel } from '../../../shared/pmx/model-reader';
import type { ModelBone, ModelData } from '../../../shared/pmx/model-types';
import { defaultFigureBones } from '../../../shared/skeleton/standard-figure';
import { BoneFollower } from '../../../shared/scene/camera-follow';
import { useSceneStore } from './scene';
import { useWorkspaceStore } from './workspace';
import { usePreviewStore } from './preview';

export type FollowModel = { bones: ModelBone[] } & Partial<Pick<ModelData, 'format' | 'morphs'>>;

const models = new Map<string, Promise<FollowModel | null>>();

/** An actor's model as the follow needs it (its bones and morphs): null model path is the built-in figure. */
export function followModelOf(path: string | null): Promise<FollowModel | null> {
  if (path === null) return Promise.resolve({ bones: defaultFigureBones() });
  let p = models.get(path);
  if (!p) {
    p = (async () => {
      const dropped = usePreviewStore().droppedBytes(path);
      const bytes = dropped ?? (await useApi().readModelFile(path).then((r) => (r.ok ? r.value.bytes : null)));
      if (!bytes) return null;
      const m = readModel(bytes);
      return m.ok ? m.value : null;
    })();
    models.set(path, p);
    // A read that failed is tried again next time (the file may be back).
    void p.then((m) => m === null && models.delete(path));
  }
  return p;
}

/** The bone follower of the scene's follow now, or null (none, its actor out of the scene, its model unreadable). */
export async function currentFollower(): Promise<BoneFollower | null> {
  const scene = useSceneStore();
  const f = scene.cameraFollow;
  const e = f ? scene.actors.find((a) => a.id === f.actorId) : undefined;
  if (!f || !e) return null;
  const d = useWorkspaceStore().get(e.id);
  const model = await followModelOf(e.missingModel ? null : e.model);
  if (!model) return null;
  const follower = new BoneFollower(model, d?.doc ?? null, d?.tracks ?? null, f.bone, e.stage ?? null);
  return follower.bone === null ? null : follower;
}
