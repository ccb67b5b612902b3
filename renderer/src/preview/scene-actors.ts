/**
 * The scene's other actors in the preview (issue 13): the editor's model is the shown actor's (the active
 * one, or the last active while the camera document is edited); every other actor not hidden is drawn
 * beside it, posed by its own motion at the same frame (PreviewEngine.setCompanions): its model, or for
 * an actor on the built-in figure a figure of its own. Models are read through main (readModelFile,
 * textures through readAsset), built here, and handed to the engine, which keeps an unchanged actor's
 * mesh (keyed `id:model path`, or `id:figure`).
 *
 * While the retarget panel is open (stores/retarget.ts) the source model it was given joins them as a
 * ghost (ghost-actor.ts: semi-transparent, to the actor's left, playing the actor's motion as it is), and
 * the orbit view is widened to show both.
 *
 * "Ghost (as saved)" (the preview's switch, stores/preview.ts ghostShown): the shown actor's model drawn a second
 * time at its place, see-through, posed by its motion as it was opened or last saved (stores/workspace.ts
 * DocumentContent.saved), so a polisher sees what an edit changed (MikuMikuMoving's onion skin). It is an overlay
 * (companion-actors.ts): the shown model's data built again (no read), no physics, no ground shadow, no outline,
 * not picked, not in the video. Not while the retarget panel or a capture import shows another motion on the actor.
 */
import { watch } from 'vue';
import { Vector3 } from 'three';
import { useApi } from '../api';
import { readModel } from '../../../shared/pmx/model-reader';
import { success } from '../../../shared/vmd/errors';
import { useWorkspaceStore } from '../stores/workspace';
import { useSceneStore } from '../stores/scene';
import { readModelFile } from '../stores/model-reads';
import { usePreviewStore } from '../stores/preview';
import { DEFAULT_FOOTPRINT, type Footprint } from '../../../shared/scene/place-beside';
import { motionReachFrom, turnReach } from '../../../shared/scene/motion-reach';
import { STANDARD_SOURCE, useRetargetStore } from '../stores/retarget';
import { buildModelMesh, type BuiltModel } from './model-mesh';
import { buildDefaultFigure } from './figure-mesh';
import { applyTextures } from './textures';
import type { PreviewEngine } from './preview-engine';
import type { CompanionBody, CompanionSpec, StagePlace } from './companion-actors';
import { buildFigureGhost, buildGhost, buildSavedFigureGhost, buildSavedGhost, frameActorAndGhost, GHOST_ID, ghostKey, ghostStage, SAVED_GHOST_ID, savedGhostKey } from './ghost-actor';
import { buildTracks, type MotionTracks } from '../../../shared/vmd/tracks';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import { useMocapStore } from '../stores/mocap';

/** The tracks of a saved version, built on first use (only the ghost needs them) and kept while the version is. */
const savedTracks = new WeakMap<VmdDocument, MotionTracks>();
function tracksOfSaved(doc: VmdDocument): MotionTracks {
  let t = savedTracks.get(doc);
  if (!t) savedTracks.set(doc, (t = buildTracks(doc)));
  return t;
}

/** A number per built model of the shown actor: the ghost's key, so a new model (even from the same file) gets a new ghost. */
const modelNumbers = new WeakMap<object, number>();
let modelCount = 0;
function modelNumber(m: object): number {
  let n = modelNumbers.get(m);
  if (n === undefined) modelNumbers.set(m, (n = ++modelCount));
  return n;
}

async function readAssetOf(modelPath: string, rel: string) {
  const a = await useApi().readAsset(modelPath, rel);
  return a.ok ? success({ bytes: a.value.bytes, note: a.value.assetNote }) : a;
}

/**
 * Reads and builds an actor's model; its textures load after it is in the picture, and `redraw` is asked once
 * they are on its materials (a paused scene draws nothing else by itself, so the actor would stay white).
 */
async function buildActorModel(path: string, redraw: () => void): Promise<BuiltModel | null> {
  // A model dropped on a browser's window: its bytes are kept under its name (no path, so no textures).
  const dropped = usePreviewStore().droppedBytes(path);
  if (dropped) {
    const m = readModel(dropped);
    return m.ok ? buildModelMesh(m.value) : null;
  }
  // A scene's read of it when it just opened (model-reads.ts: read once), else a read through main.
  const r = await readModelFile(path);
  if (!r.ok) return null;
  const m = readModel(r.value.bytes);
  if (!m.ok) return null;
  const built = buildModelMesh(m.value);
  const modelPath = r.value.path;
  texture(built, modelPath, redraw);
  return built;
}

/**
 * Puts a model's textures on its materials after it is in the picture (a missing one leaves its material
 * untextured), and asks `redraw` once any is there: a paused scene draws nothing else by itself.
 */
function texture(built: BuiltModel, modelPath: string, redraw: () => void): void {
  void applyTextures(built, (rel) => readAssetOf(modelPath, rel)).then((t) => {
    if (t.loaded > 0) redraw();
  });
}

/** How tall an actor is taken to stand for framing when its model's box is not known yet (MMD units: a model is about 20). */
const MODEL_HEIGHT = 21;
/** Room left round the actors by Frame All Actors (a tenth of the distance). */
const FIT_MARGIN = 1.1;

/**
 * Widens the free view to show every actor where it stands and where its motion takes it (after a new one
 * was placed beside the others, off the view it had, or a capture was imported): the view turns about the
 * middle of their reach, backed off for that width at the view's aspect and for its depth, never nearer than
 * it was. Their reach: each actor's box as it is drawn now (posed, turned where it stands) carried along its
 * motion's path from where the body stands in it (センター and 全ての親 keys, shared/scene/motion-reach.ts
 * motionReachFrom: the box holds that place already) and moved by its stage (the hidden left out). Before, only
 * the footprints at the stage counted, and a walk imported from a capture left the view within seconds; and the
 * widths were the unposed meshes' (arms out; Gene's far wider than she stands).
 *
 * `mode`: 'widen' as above; 'fit' (Frame All Actors, key A) fits the view to them from the side it looks from,
 * nearer too, the target at their middle (across and in depth) at chest height; 'open' (a scene opened) fits as
 * 'fit' does, only when an actor's reach lies outside the view (a scene of one actor, or of actors close together,
 * keeps the view). `paths`: each actor's motionReachFrom at the frame drawn.
 */
export function frameActors(engine: PreviewEngine, shownId: number | null, stages: ReadonlyMap<number, StagePlace | undefined>, paths: ReadonlyMap<number, Footprint>, mode: 'widen' | 'fit' | 'open' = 'widen'): void {
  let lo = Infinity, hi = -Infinity, zlo = Infinity, zhi = -Infinity, ylo = Infinity, yhi = -Infinity;
  let travels = false;
  // Each as it is drawn now (turned where it stands), fitting and widening alike; before, the widths came from the
  // unposed meshes, and a model whose unposed box is far wider than she stands (Gene) pulled the view's middle her
  // way (Frame all), or the view was widened after an import for arms held out as the actors do not hold them.
  const known = engine.footprints(shownId, 'posed');
  // An actor whose model is still being built is taken at the shown one's size (or a model's usual).
  const usual = (shownId !== null ? known.get(shownId) : undefined) ?? DEFAULT_FOOTPRINT;
  for (const [id, stage] of stages) {
    const f = known.get(id) ?? usual;
    const p0 = paths.get(id);
    if (p0 && (p0.minX || p0.maxX || p0.minZ || p0.maxZ)) travels = true;
    const p = turnReach(p0 ?? { minX: 0, maxX: 0, minZ: 0, maxZ: 0 }, stage?.turn ?? 0);
    const x = stage?.position[0] ?? 0, z = stage?.position[2] ?? 0;
    lo = Math.min(lo, x + f.minX + p.minX);
    hi = Math.max(hi, x + f.maxX + p.maxX);
    zlo = Math.min(zlo, z + f.minZ + p.minZ);
    zhi = Math.max(zhi, z + f.maxZ + p.maxZ);
    // Its model's own height (a model scaled up, a small one): before, every actor was taken to be 21 units tall,
    // and a tall one's head was cut off by Frame All Actors.
    const y = stage?.position[1] ?? 0;
    ylo = Math.min(ylo, y + (f.minY ?? 0));
    yhi = Math.max(yhi, y + (f.maxY ?? MODEL_HEIGHT));
  }
  if (!(hi > lo)) return;
  const cam = engine.world.orbitCamera;
  const controls = engine.controls;
  const half = Math.tan((cam.fov * Math.PI) / 360);
  const width = hi - lo + 4;
  // A path that runs toward or away from the view: backed off by half its depth too, so its near end shows.
  const depth = travels ? Math.max(0, zhi - zlo) / 2 : 0;
  const dir = cam.position.clone().sub(controls.target);
  const now = dir.length();
  if (now < 1e-6) dir.set(0, 0.1, 1);
  const aspect = Math.max(cam.aspect, 0.1);
  if (mode === 'open' && insideView(engine, lo, hi, zlo, zhi, ylo, yhi)) return;
  if (mode !== 'widen') {
    // The target at the middle of their floor, halfway up them (chest height for models of the usual size);
    // backed off along the view's direction until every corner of the box they fill (their models' boxes, feet to
    // the top of the tallest) projects inside the picture, from whichever side the view looks (a corner nearer the
    // eye needs more room: its depth is added).
    controls.target.set((lo + hi) / 2, (ylo + yhi) / 2, -(zlo + zhi) / 2);
    dir.normalize();
    const right = new Vector3().crossVectors(cam.up, dir).normalize();
    const up = new Vector3().crossVectors(dir, right);
    let dist = 0;
    const c = new Vector3();
    for (const x of [lo - 1, hi + 1]) {
      for (const y of [ylo, yhi]) {
        for (const z of [zlo, zhi]) {
          c.set(x, y, -z).sub(controls.target);
          const toward = c.dot(dir);
          dist = Math.max(dist, toward + Math.abs(c.dot(right)) / (half * aspect), toward + Math.abs(c.dot(up)) / half);
        }
      }
    }
    cam.position.copy(controls.target).add(dir.multiplyScalar(dist * FIT_MARGIN));
    controls.update();
    engine.requestRender();
    return;
  }
  // Tall enough for the tallest about the view's height now (the target's height is kept).
  const height = 2 * Math.max(yhi - controls.target.y, controls.target.y - ylo) + 3;
  const dist = Math.max(now, height / 2 / half + depth, width / 2 / (half * aspect) + depth);
  // MMD → three.js: X as it is, Z mirrored.
  controls.target.x = (lo + hi) / 2;
  if (travels) controls.target.z = -(zlo + zhi) / 2;
  cam.position.copy(controls.target).add(dir.normalize().multiplyScalar(dist));
  controls.update();
  engine.requestRender();
}

/**
 * The box lo…hi × ylo…yhi × zlo…zhi (MMD units: the floor they stand on, feet to the top of the tallest) lies inside
 * the free view: its corners project inside the picture.
 */
function insideView(engine: PreviewEngine, lo: number, hi: number, zlo: number, zhi: number, ylo: number, yhi: number): boolean {
  const cam = engine.world.orbitCamera;
  cam.updateMatrixWorld();
  const p = new Vector3();
  for (const x of [lo, hi]) {
    for (const z of [zlo, zhi]) {
      for (const y of [ylo, yhi]) {
        // MMD → three.js: Z mirrored.
        p.set(x, y, -z).project(cam);
        if (!(Math.abs(p.x) <= 1 && Math.abs(p.y) <= 1 && p.z < 1)) return false;
      }
    }
  }
  return true;
}

/**
 * Each actor's path across the floor (its motion's センター/全ての親 range) from where its body stands at frame `f`
 * (the frame its posed box is drawn at, which holds that place already), by actor id.
 */
function actorPaths(ids: Iterable<number>, f: number): Map<number, Footprint> {
  const ws = useWorkspaceStore();
  const out = new Map<number, Footprint>();
  for (const id of ids) {
    const d = ws.get(id);
    if (d) out.set(id, motionReachFrom(d.tracks.bones, f));
  }
  return out;
}

/** Keeps the engine's companions in step with the scene; returns the function that stops it. */
export function installSceneActors(getEngine: () => PreviewEngine | null): () => void {
  const scene = useSceneStore();
  const doc = useWorkspaceStore();
  const retarget = useRetargetStore();
  const preview = usePreviewStore();
  let generation = 0;
  /** A model's textures are on its materials: one more render shows them. */
  const redraw = () => getEngine()?.requestRender();

  /** The retarget panel's ghost, when it has a source model for the shown actor: its key, model and the actor's motion. */
  function ghostWanted() {
    const src = retarget.raw.source;
    if (!retarget.open || !src || !retarget.sourcePath || retarget.actorId !== scene.lastActorId) return null;
    const d = doc.get(retarget.actorId);
    return d ? { key: ghostKey(retarget.sourcePath), path: retarget.sourcePath, model: src, doc: d.doc, tracks: d.tracks } : null;
  }

  /**
   * The saved-motion ghost, when switched on and the shown actor's motion has a saved version: its key, the
   * shown model (null: the figure) and that version. Not while another motion plays on the actor (the retarget
   * panel's result, a capture being imported) nor while the actor is hidden.
   */
  function savedGhostWanted(engine: PreviewEngine) {
    const id = scene.lastActorId;
    // A model on its way (a scene just opened, another actor made shown): the ghost waits for it rather than being
    // built of the model shown before and again when it arrives.
    if (!preview.ghostShown || id === null || preview.modelPending) return null;
    if ((retarget.open && retarget.actorId === id) || useMocapStore().previewMotion) return null;
    if (scene.entries.find((e) => e.id === id)?.hidden) return null;
    const saved = doc.get(id)?.saved;
    if (!saved) return null;
    const model = engine.world.model;
    return { key: savedGhostKey(model ? modelNumber(model) : 'figure'), model, path: preview.model?.path ?? null, doc: saved };
  }

  /** The sync reading models, 0 for none (its pass ends by asking for the ghost as things are then). */
  let inFlight = 0;
  /** The saved ghost the last pass asked for (its key and motion), null for none. */
  let placed: { key: string; doc: VmdDocument } | null = null;

  async function sync() {
    const engine = getEngine();
    if (!engine) return;
    const my = ++generation;
    inFlight = my;
    try {
      await syncPass(engine, my);
    } finally {
      if (inFlight === my) inFlight = 0;
    }
  }

  async function syncPass(engine: PreviewEngine, my: number) {
    const others = scene.actors.filter((a) => a.id !== scene.lastActorId && !a.hidden);
    const shown = new Set(engine.companions.keys);
    const list: CompanionSpec[] = [];
    const fresh: CompanionBody[] = [];
    for (const a of others) {
      const key = `${a.id}:${a.model ?? 'figure'}`;
      const built = shown.has(key) ? null : a.model ? await buildActorModel(a.model, redraw) : buildDefaultFigure();
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
    // From here on nothing is awaited: what the ghost watch sees changing from now is for a sync of its own.
    if (inFlight === my) inFlight = 0;
    const g = ghostWanted();
    if (g) {
      const standard = g.path === STANDARD_SOURCE;
      const built = shown.has(g.key) ? null : standard ? buildFigureGhost() : buildGhost(g.model);
      if (built && !standard) texture(built as BuiltModel, g.path, redraw);
      list.push({ key: g.key, built, doc: g.doc, tracks: g.tracks });
    }
    const s = savedGhostWanted(engine);
    placed = s && { key: s.key, doc: s.doc };
    if (s) {
      const built = shown.has(s.key) ? null : s.model ? buildSavedGhost(s.model.model) : buildSavedFigureGhost();
      // Textures read again through main as for any actor (none for a model dropped on a browser's window).
      if (built && s.model && s.path && !preview.droppedBytes(s.path)) texture(built as BuiltModel, s.path, redraw);
      list.push({ key: s.key, built, doc: s.doc, tracks: tracksOfSaved(s.doc), overlay: true });
    }
    engine.setCompanions(list);
  }

  const stopActors = watch(
    () => [doc.version, scene.lastActorId, scene.entries.map((e) => `${e.id}:${e.model}:${e.hidden}`).join('|'), retarget.open, retarget.version],
    () => void sync(),
    { immediate: true },
  );
  // The saved ghost follows its switch, and while it is on the shown model (a new one, or the figure, and whether
  // one is on its way) and a capture shown on the actor. Off, nothing of it is watched. A sync reading the actors'
  // models is not started again for it: that pass asks for the ghost as things are when it ends (a second pass
  // dropped the first's models and read them all again), nor one for a ghost the last pass put in already (a scene
  // opened with the ghost on synced twice).
  const stopGhost = watch(
    () => [preview.ghostShown, preview.ghostShown ? [preview.model, preview.modelPending, useMocapStore().previewVersion] : null],
    () => {
      const engine = getEngine();
      if (inFlight || !engine) return;
      // The model's arrival is often seen by the scene's own pass already (its model is put in before the store
      // says so): nothing to do then.
      const s = savedGhostWanted(engine);
      if (s?.key === placed?.key && s?.doc === placed?.doc) return;
      void sync();
    },
  );
  // Staging (issue 30): each actor stands where the scene puts it; the shown one too.
  const shownStage = () => scene.entries.find((e) => e.id === scene.lastActorId)?.stage ?? null;
  const stopStages = watch(
    () => [scene.lastActorId, JSON.stringify(scene.entries.map((e) => [e.id, e.stage ?? null]))],
    () => {
      const engine = getEngine();
      if (!engine) return;
      const byId = new Map<number, StagePlace>();
      for (const e of scene.entries) if (e.stage) byId.set(e.id, e.stage);
      // The ghost (when there is one) stands beside the shown actor; the saved-motion ghost where it stands.
      byId.set(GHOST_ID, ghostStage(shownStage()));
      const here = shownStage();
      if (here) byId.set(SAVED_GHOST_ID, here);
      engine.setStages(scene.lastActorId !== null ? (byId.get(scene.lastActorId) ?? null) : null, byId);
    },
    { immediate: true },
  );
  // Each actor's outline width (the scene's edgeWidth, set beside Outline): the shown one's and the others' by id.
  const stopEdgeWidths = watch(
    () => [scene.shownActorId, JSON.stringify(scene.entries.map((e) => [e.id, e.edgeWidth ?? 1]))],
    () => {
      const engine = getEngine();
      if (!engine) return;
      const byId = new Map<number, number>();
      for (const e of scene.entries) if (e.edgeWidth !== undefined) byId.set(e.id, e.edgeWidth);
      engine.setEdgeWidths(scene.shownActorId !== null ? (byId.get(scene.shownActorId) ?? 1) : 1, byId);
    },
    { immediate: true },
  );
  // The retarget panel open for the shown actor: the view widened to show it and its ghost; put back after.
  let unframe: (() => void) | null = null;
  const stopFrame = watch(
    () => retarget.open && retarget.actorId !== null && retarget.actorId === scene.lastActorId,
    (on) => {
      unframe?.();
      unframe = null;
      const engine = getEngine();
      if (on && engine) unframe = frameActorAndGhost(engine, shownStage());
    },
    { immediate: true },
  );
  // A new actor (a capture imported) is placed beside the others at their models' sizes (scene store addImported),
  // and the free view then shows them all.
  const stopFootprints = scene.attachFootprints(() => getEngine()?.footprints(scene.lastActorId) ?? new Map());
  const stopFraming = watch(
    () => preview.frameActorsSeq,
    () => {
      const engine = getEngine();
      if (!engine) return;
      const shown = new Map(scene.actors.filter((a) => !a.hidden).map((a) => [a.id, a.stage]));
      frameActors(engine, scene.lastActorId, shown, actorPaths(shown.keys(), engine.motion.frame));
    },
  );
  // Frame All Actors (view menu ▾, key A), and a scene just opened with actors outside the view.
  const stopFrameAll = watch(
    () => preview.frameRequest,
    (r) => {
      const engine = getEngine();
      if (!engine || !r) return;
      const shown = new Map(scene.actors.filter((a) => !a.hidden).map((a) => [a.id, a.stage]));
      frameActors(engine, scene.lastActorId, shown, actorPaths(shown.keys(), engine.motion.frame), r.mode);
    },
  );
  return () => {
    stopFootprints();
    stopFraming();
    stopFrameAll();
    stopActors();
    stopGhost();
    stopStages();
    stopEdgeWidths();
    stopFrame();
    unframe?.();
  };
}
