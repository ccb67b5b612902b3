/**
 * Camera follows a bone (the scene store's cameraFollow; shared/scene/camera-follow.ts): the followed actor's bone
 * posed by its motion and placed by its stage, handed to the engine, which adds it to the camera's target wherever
 * it samples the camera — the preview, Through camera and Render → Video alike. The bone is worked out by
 * shared/skeleton from the actor's model data (read once per model file: stores/camera-follow-models.ts), not from the drawn rig: a hidden
 * actor is followed too, and the bake (bakeFollowOf) gives the same numbers. A bone physics moves follows its keys.
 */
import { watch } from 'vue';
import { useSceneStore } from '../stores/scene';
import { useWorkspaceStore } from '../stores/workspace';
import { currentFollowSpans } from '../stores/camera-follow-models';
import { spanAt } from '../../../shared/scene/camera-follow';
import type { PreviewEngine } from './preview-engine';

/**
 * Keeps the engine's follow in step with the scene's; returns the stop. A follower is built again only when what it
 * depends on changes: the chosen actor and bone, the actor's model (or its missing model's stand-in figure), its
 * stage place, and its motion (the document's content: an edit installs a new one). An edit to any other document
 * (the camera's, another actor's) keeps it, and with it the positions it worked out, so the camera path is drawn
 * again from them instead of evaluating the bone at every frame once more (seconds for a bone leg IK moves).
 */
export function installCameraFollow(getEngine: () => PreviewEngine | null): () => void {
  const scene = useSceneStore();
  const ws = useWorkspaceStore();
  let generation = 0;
  let last: unknown[] | null = null;
  return watch(
    () => {
      // Per span: its frames, actor and bone, and what its follower depends on.
      return scene.followSpans.flatMap((f) => {
        const e = scene.actors.find((a) => a.id === f.actorId);
        const d = e ? ws.get(e.id) : null;
        // Identities, not contents: the document is a value (an edit replaces it; a curve edit patches the tracks in place under a new document).
        return [f.from, f.to, f.actorId, f.bone, e?.model ?? null, e?.missingModel ?? false, JSON.stringify(e?.stage ?? null), d?.doc ?? null, d?.tracks ?? null];
      });
    },
    async (deps) => {
      if (last && deps.length === last.length && deps.every((v, i) => v === last![i])) return;
      last = deps;
      const my = ++generation;
      const spans = await currentFollowSpans();
      const engine = getEngine();
      if (my !== generation) return;
      if (!engine) {
        last = null; // no engine yet: the next change tries again
        return;
      }
      // The span in force at a frame gives the bone; outside every span the camera plays its own keys (null).
      engine.setCameraFollow(spans.length ? (f) => spanAt(spans, f)?.follower.at(f) ?? null : null);
    },
    { immediate: true },
  );
}
