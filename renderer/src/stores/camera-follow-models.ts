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

/** The follower of actor `actorId`'s bone `bone` now, or null (its actor out of the scene, its model unreadable, no such bone). */
export async function followerOf(actorId: number, bone: string): Promise<BoneFollower | null> {
  const scene = useSceneStore();
  const e = scene.actors.find((a) => a.id === actorId);
  if (!e) return null;
  const d = useWorkspaceStore().get(e.id);
  const model = await followModelOf(e.missingModel ? null : e.model);
  if (!model) return null;
  const follower = new BoneFollower(model, d?.doc ?? null, d?.tracks ?? null, bone, e.stage ?? null);
  return follower.bone === null ? null : follower;
}

/** A span of the follow with its bone's follower. */
export interface FollowedSpan {
  from: number;
  to: number | null;
  follower: BoneFollower;
}

/**
 * The follow's spans now, each with its follower (one per actor and bone, shared by its spans); a span whose
 * actor is out of the scene or whose bone is gone is left out (the camera plays its keys there).
 */
export async function currentFollowSpans(): Promise<FollowedSpan[]> {
  const scene = useSceneStore();
  const made = new Map<string, Promise<BoneFollower | null>>();
  const out: FollowedSpan[] = [];
  for (const s of scene.followSpans) {
    const key = `${s.actorId}\u0000${s.bone}`;
    if (!made.has(key)) made.set(key, followerOf(s.actorId, s.bone));
    const follower = await made.get(key)!;
    if (follower) out.push({ from: s.from, to: s.to, follower });
  }
  return out;
}
