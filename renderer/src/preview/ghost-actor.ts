/**
 * The retarget panel's ghost (stores/retarget.ts): the model a motion was made for, drawn semi-transparent
 * beside the actor it is being fitted to, playing the motion as it is while the actor plays the result.
 * It rides along as one more companion of the engine (scene-actors.ts hands it over with the scene's other
 * actors, keyed `GHOST_KEY_PREFIX…`, so it is posed at the same frame by the same code), stands
 * GHOST_OFFSET to the left of the actor, and while the panel is open the orbit view is widened to show
 * both (put back when it closes).
 */
import * as THREE from 'three';
import type { ModelData } from '../../../shared/pmx/model-types';
import { buildModelMesh, type BuiltModel } from './model-mesh';
import { buildDefaultFigure, type BuiltFigure } from './figure-mesh';
import type { PreviewEngine } from './preview-engine';
import type { StagePlace } from './companion-actors';

/** The ghost's actor id in the engine's stage table (no workspace document has a negative id). */
export const GHOST_ID = -1;
export const GHOST_KEY_PREFIX = `${GHOST_ID}:ghost:`;
/** How far to the left of the actor the ghost stands (MMD units: two models' width apart). */
export const GHOST_OFFSET = 18;
/** The ghost's materials' opacity, times their own. */
export const GHOST_OPACITY = 0.4;

/**
 * The "Ghost (as saved)" overlay's id in the stage table (scene-actors.ts): the shown actor's model a second time,
 * at the shown actor's place, posed by its motion as opened or last saved (stores/workspace.ts DocumentContent.saved),
 * built as the retarget ghost is (buildGhost, buildFigureGhost: see-through, no ground shadow).
 */
export const SAVED_GHOST_ID = -2;

/** The saved-motion ghost's key for one built model of the shown actor (`model`: a number per BuiltModel, or 'figure'). */
export function savedGhostKey(model: number | 'figure'): string {
  return `${SAVED_GHOST_ID}:saved:${model}`;
}

/** The ghost's key for a model file (a new source model is a new mesh). */
export function ghostKey(path: string): string {
  return GHOST_KEY_PREFIX + path;
}

/** Builds the source model as a ghost: every material blended at GHOST_OPACITY of its own alpha. */
export function buildGhost(model: ModelData): BuiltModel {
  const built = buildModelMesh(model);
  for (const m of built.materials) {
    m.transparent = true;
    m.opacity *= GHOST_OPACITY;
    m.needsUpdate = true;
  }
  // No ground shadow for the ghost: only the actor is on the stage.
  built.groundShadow.mesh.visible = false;
  return built;
}

/** The standard MMD skeleton as the ghost (the source when the motion's model is not at hand): the built-in figure, see-through. */
export function buildFigureGhost(): BuiltFigure {
  const built = buildDefaultFigure();
  const m = built.mesh.material as THREE.MeshLambertMaterial;
  m.transparent = true;
  m.opacity = GHOST_OPACITY;
  m.needsUpdate = true;
  return built;
}

/**
 * Pushes a saved-motion ghost's materials a little back in depth: where it coincides with the actor (every frame
 * and bone the edits did not change) the actor's own surface wins, so the ghost shows only where the two part,
 * and the actor is not washed over by its see-through double.
 */
function behindActor(materials: readonly THREE.Material[]): void {
  for (const m of materials) {
    m.polygonOffset = true;
    m.polygonOffsetFactor = 1;
    m.polygonOffsetUnits = 4;
    m.needsUpdate = true;
  }
}

/** The shown actor's model as the saved-motion ghost: see-through as buildGhost, behind the actor where they coincide. */
export function buildSavedGhost(model: ModelData): BuiltModel {
  const built = buildGhost(model);
  behindActor(built.materials);
  // Nor does it darken the actor with a self-shadow of its own.
  built.mesh.castShadow = false;
  return built;
}

/** The built-in figure as the saved-motion ghost (the shown actor has no model). */
export function buildSavedFigureGhost(): BuiltFigure {
  const built = buildFigureGhost();
  behindActor([built.mesh.material as THREE.Material]);
  built.mesh.castShadow = false;
  return built;
}

/** Where the ghost stands: beside the actor's place (its turn too), GHOST_OFFSET to the left. */
export function ghostStage(shown: StagePlace | null): StagePlace {
  const p = shown?.position ?? [0, 0, 0];
  return { position: [p[0] - GHOST_OFFSET, p[1], p[2]], turn: shown?.turn ?? 0 };
}

/** The orbit view before it was widened, to put back. */
interface SavedView {
  position: THREE.Vector3;
  target: THREE.Vector3;
}

/**
 * Widens the orbit view so the actor (at `shown`) and its ghost both fit: the view turns about the point
 * between them, from far enough back for their width at the view's aspect. Returns the function that puts
 * the view back.
 */
export function frameActorAndGhost(engine: PreviewEngine, shown: StagePlace | null): () => void {
  const cam = engine.world.orbitCamera;
  const controls = engine.controls;
  const saved: SavedView = { position: cam.position.clone(), target: controls.target.clone() };
  const p = shown?.position ?? [0, 0, 0];
  // MMD → three.js: Z negated.
  const mid = new THREE.Vector3(p[0] - GHOST_OFFSET / 2, p[1] + 10, -p[2]);
  const half = Math.tan((cam.fov * Math.PI) / 360);
  const width = GHOST_OFFSET + 24, height = 24;
  const dist = Math.max(height / 2 / half, width / 2 / (half * Math.max(cam.aspect, 0.1)));
  const dir = saved.position.clone().sub(saved.target);
  if (dir.lengthSq() < 1e-9) dir.set(0, 0.1, 1);
  dir.normalize().multiplyScalar(dist);
  controls.target.copy(mid);
  cam.position.copy(mid).add(dir);
  controls.update();
  engine.requestRender();
  return () => {
    cam.position.copy(saved.position);
    controls.target.copy(saved.target);
    controls.update();
    engine.requestRender();
  };
}
