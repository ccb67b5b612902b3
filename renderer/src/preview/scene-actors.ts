/**
 * The scene's other actors in the preview (issue 13): the editor's model is the shown actor's (the active
 * one, or the last active while the camera document is edited); every other actor not hidden is drawn
 * beside it, posed by its own motion at the same frame (PreviewEngine.setCompanions): its model, or for
 * an actor on the built-in figure a figure of its own. Models are read through main (readModelFile,
 * textures through readAsset), built here, and handed to the engine, which keeps an unchanged actor's
 * mesh (keyed `id:model path`, or `id:figure`).
 */
import { watch } from 'vue';
import { useApi } from '../api';
import { readModel } from '../../../shared/pmx/model-reader';
import { useWorkspaceStore } from '../stores/workspace';
import { useSceneStore } from '../stores/scene';
import { buildModelMesh, type BuiltModel } from './model-mesh';
import { buildDefaultFigure } from './figure-mesh';
import { applyTextures } from './textures';
import type { CompanionBody, PreviewEngine, StagePlace } from './preview-engine';

async function buildActorModel(path: string): Promise<BuiltModel | null> {
  const api = useApi();
  const r = await api.readModelFile(path);
  if (!r.ok) return null;
  const m = readModel(r.value.bytes);
  if (!m.ok) return null;
  const built = buildModelMesh(m.value);
  const modelPath = r.value.path;
  // Textures after the model is in the picture; a missing one leaves its material untextured.
  void applyTextures(built, async (rel) => {
    const a = await api.readAsset(modelPath, rel);
    return a.ok ? { ok: true as const, bytes: a.value.bytes } : { ok: false as const, message: a.error.message };
  });
  return built;
}

/** Keeps the engine's companions in step with the scene; returns the function that stops it. */
export function installSceneActors(getEngine: () => PreviewEngine | null): () => void {
  const scene = useSceneStore();
  const doc = useWorkspaceStore();
  let generation = 0;

  async function sync() {
    const engine = getEngine();
    if (!engine) return;
    const my = ++generation;
    const others = scene.actors.filter((a) => a.id !== scene.lastActorId && !a.hidden);
    const shown = new Set(engine.companionKeys);
    const list: Parameters<PreviewEngine['setCompanions']>[0] = [];
    const fresh: CompanionBody[] = [];
    for (const a of others) {
      const key = `${a.id}:${a.model ?? 'figure'}`;
      const built = shown.has(key) ? null : a.model ? await buildActorModel(a.model) : buildDefaultFigure();
      if (built) fresh.push(built);
      if (my !== generation || getEngine() !== engine) {
        // A newer change of the scene (or a new engine) won: drop what this pass built.
        fresh.forEach((b) => b.dispose());
        return;
      }
      if (!built && !shown.has(key)) continue;
      const s = useWorkspaceStore().get(a.id);
      list.push({ key, built, doc: s?.doc ?? null, tracks: s?.tracks ?? null });
    }
    engine.setCompanions(list);
  }

  const stopActors = watch(
    () => [doc.version, scene.lastActorId, scene.entries.map((e) => `${e.id}:${e.model}:${e.hidden}`).join('|')],
    () => void sync(),
    { immediate: true },
  );
  // Staging (issue 30): each actor stands where the scene puts it; the shown one too.
  const stopStages = watch(
    () => [scene.lastActorId, JSON.stringify(scene.entries.map((e) => [e.id, e.stage ?? null]))],
    () => {
      const engine = getEngine();
      if (!engine) return;
      const byId = new Map<number, StagePlace>();
      for (const e of scene.entries) if (e.stage) byId.set(e.id, e.stage);
      engine.setStages(scene.lastActorId !== null ? (byId.get(scene.lastActorId) ?? null) : null, byId);
    },
    { immediate: true },
  );
  return () => {
    stopActors();
    stopStages();
  };
}
