/**
 * The scene's other actors (stores/scene.ts, through scene-actors.ts): each a built model, or its own
 * instance of the built-in figure, posed by its own motion beside the editor's model at the same frame,
 * placed where its stage says, with its own physics world and pick tables. The preview engine delegates
 * to this part (PreviewEngine.setCompanions, setStages, pickScene); it owns the companions' meshes and
 * disposes them when they are replaced or the preview goes.
 */
import * as THREE from 'three';
import type { MotionTracks } from '../../../shared/vmd/tracks';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import type { BuiltModel } from './model-mesh';
import type { BuiltFigure } from './figure-mesh';
import type { Rig } from './rig';
import type { ViewCamera } from './preview-scene';
import type { PreviewScene } from './preview-scene';
import type { PreviewPhysics } from './physics-preview';
import type { Footprint } from '../../../shared/scene/place-beside';
import { PoseBinding, ikSwitchesOf } from './pose-binding';
import { PickMarker } from './pick-marker';

/** An actor's place in the scene (shared/scene/scene-file.ts ActorStage). */
export interface StagePlace {
  position: readonly [number, number, number];
  turn: number;
}

/** What another actor is drawn as: its built model, or its own instance of the built-in figure. */
export type CompanionBody = BuiltModel | BuiltFigure;

/** One actor to show: keyed (`actorId:…`) so an unchanged one keeps its mesh; `built` null reuses the one shown. */
export interface CompanionSpec {
  key: string;
  built: CompanionBody | null;
  doc: VmdDocument | null;
  tracks: MotionTracks | null;
  /**
   * An overlay, not an actor (the "Ghost (as saved)" of the shown one, ghost-actor.ts): no physics world (its
   * physics bones follow their keys), never picked, no outline, and left out of the video export.
   */
  overlay?: boolean;
}

const isModel = (b: CompanionBody): b is BuiltModel => 'edges' in b;
/** The object added to the scene for a body (a model's mesh holds its rig; the figure's group holds both). */
const objectOf = (b: CompanionBody): THREE.Object3D => (isModel(b) ? b.mesh : b.group);

/**
 * A mesh's room on the floor at rest (its geometry's box, unposed, before its place), in MMD axes (Z negated),
 * and how high it reaches as drawn now (posedBoxOf), or null for an empty one: what a new actor is placed beside
 * (shared/scene/place-beside.ts: arms out, the room any pose of its motion may take beside the others).
 */
export function footprintOf(mesh: THREE.Mesh): Footprint | null {
  const g = mesh.geometry;
  if (!g.boundingBox) g.computeBoundingBox();
  const b = g.boundingBox;
  if (!b || b.isEmpty()) return null;
  const posed = posedBoxOf(mesh);
  const h = posed ? [posed.min.y, posed.max.y] : [b.min.y, b.max.y];
  return { minX: b.min.x, maxX: b.max.x, minZ: -b.max.z, maxZ: -b.min.z, minY: h[0], maxY: h[1] };
}

/**
 * The box a mesh fills as it is drawn now (posedBoxOf: posed, turned as its stage turns it, about where it
 * stands), in MMD axes, or null when not known: what Frame All Actors, a scene's opening and the widening after an
 * import fit (scene-actors.ts frameActors). Before, their widths came from the unposed geometry, and Gene's is far wider than
 * she stands: beside a tall model the view centred on her (X −8 for −8 and 8), the other at the picture's edge.
 */
export function posedFootprintOf(mesh: THREE.Mesh): Footprint | null {
  const b = posedBoxOf(mesh);
  return b ? { minX: b.min.x, maxX: b.max.x, minZ: -b.max.z, maxZ: -b.min.z, minY: b.min.y, maxY: b.max.y } : null;
}

/**
 * Where a mesh reaches as it is drawn now (its skinned vertices: posed, turned with its place) less where it stands
 * (its world origin), three.js axes, or null for a mesh not skinned. The geometry's own box does not tell it for
 * every model (Gene's reaches far below the floor and to her side unposed), and a model scaled up or a small one
 * is not the usual 21 units tall.
 */
function posedBoxOf(mesh: THREE.Mesh): THREE.Box3 | null {
  const skinned = mesh as THREE.SkinnedMesh;
  const pos = mesh.geometry.getAttribute('position');
  if (!skinned.isSkinnedMesh || !pos) return null;
  skinned.updateMatrixWorld(true);
  skinned.skeleton.update();
  const origin = new THREE.Vector3().setFromMatrixPosition(skinned.matrixWorld);
  const v = new THREE.Vector3();
  const box = new THREE.Box3();
  for (let i = 0; i < pos.count; i++) {
    skinned.getVertexPosition(i, v);
    box.expandByPoint(v.applyMatrix4(skinned.matrixWorld).sub(origin));
  }
  return box.isEmpty() ? null : box;
}

/** MMD (left-handed) → three.js: Z negated, a turn about Y reversed. */
export function placeObject(o: THREE.Object3D, s: StagePlace | null): void {
  o.position.set(s?.position[0] ?? 0, s?.position[1] ?? 0, -(s?.position[2] ?? 0));
  o.rotation.set(0, (-(s?.turn ?? 0) * Math.PI) / 180, 0);
}

interface Companion {
  key: string;
  built: CompanionBody;
  binding: PoseBinding;
  picker: PickMarker | null;
  overlay: boolean;
}

export class CompanionActors {
  private list: Companion[] = [];

  constructor(
    private readonly world: PreviewScene,
    private readonly physics: PreviewPhysics,
  ) {}

  /**
   * Shows these actors (a model is built by the caller and handed over here, or reused when its key is
   * already shown); the meshes of those no longer listed are disposed. Binds each one's motion and
   * physics. Returns the keys shown.
   */
  set(specs: readonly CompanionSpec[]): string[] {
    const keep = new Map(this.list.map((c) => [c.key, c]));
    const next: Companion[] = [];
    for (const a of specs) {
      const old = keep.get(a.key);
      const built = a.built ?? old?.built ?? null;
      if (!built) continue;
      const overlay = a.overlay === true;
      if (old && old.built === built) keep.delete(a.key);
      else this.world.scene.add(objectOf(built));
      if (isModel(built)) built.edges.mesh.visible = this.world.outline && !overlay;
      const ik = ikSwitchesOf(a.doc, a.tracks);
      let binding: PoseBinding;
      if (isModel(built)) {
        built.selectMorphs(a.tracks?.morphs.names ?? []);
        binding = new PoseBinding(built.rig, a.tracks, ik, built.morphs, built.mesh.morphTargetInfluences ?? null);
      } else binding = new PoseBinding(built.rig, a.tracks, ik);
      // An overlay has no physics world (the engine's keepOnly drops one it had): not bound.
      if (!overlay) this.physics.bind(a.key, { model: isModel(built) ? built.model : null, rig: built.rig, mesh: isModel(built) ? built.mesh : null }, binding, a.doc, a.tracks);
      if (old && old.built === built) old.picker?.dispose();
      next.push({ key: a.key, built, binding, picker: null, overlay });
    }
    for (const c of keep.values()) this.remove(c);
    this.list = next;
    return this.keys;
  }

  /** Keys of the actors shown. */
  get keys(): string[] {
    return this.list.map((c) => c.key);
  }

  /**
   * Each actor's footprint, by its actor id (the key's prefix); the ghost's too (id −1): at rest (footprintOf), or
   * as drawn now ('posed', posedFootprintOf).
   */
  footprints(as: 'rest' | 'posed' = 'rest'): Map<number, Footprint> {
    const out = new Map<number, Footprint>();
    for (const c of this.list) {
      const f = as === 'posed' ? posedFootprintOf(c.built.mesh) : footprintOf(c.built.mesh);
      if (f) out.set(Number(c.key.split(':')[0]), f);
    }
    return out;
  }

  /** Each actor's place, by its actor id (the key's prefix). */
  place(byId: ReadonlyMap<number, StagePlace>): void {
    for (const c of this.list) placeObject(objectOf(c.built), byId.get(Number(c.key.split(':')[0])) ?? null);
  }

  /** Poses every actor at frame f (with its outline and ground shadow). */
  pose(f: number): void {
    for (const c of this.list) {
      c.binding.apply(f);
      if (isModel(c.built)) {
        c.built.edges.sync();
        c.built.groundShadow.sync();
      }
    }
  }

  /** Each actor's outline width factor, by its actor id (the key's prefix; absent: 1, the model's own). */
  setEdgeWidths(byId: ReadonlyMap<number, number>): void {
    for (const c of this.list) if (isModel(c.built)) c.built.edges.setScale(byId.get(Number(c.key.split(':')[0])) ?? 1);
  }

  /** MMD's outline on every actor's model. */
  setOutline(on: boolean): void {
    for (const c of this.list) if (isModel(c.built)) c.built.edges.mesh.visible = on && !c.overlay;
  }

  /** The Ground shadow switch changed (the scene's flag, ground-shadow.ts): each actor's shadow follows it now. */
  syncGroundShadows(): void {
    for (const c of this.list) if (isModel(c.built)) c.built.groundShadow.sync();
  }

  /** The actors' built models shown, overlays not (the export turns their outlines on). */
  models(): BuiltModel[] {
    return this.list.filter((c) => !c.overlay).map((c) => c.built).filter(isModel);
  }

  /**
   * What the video export hides (only the scene's actors are filmed): the overlays and every ghost, whose actor id
   * is negative (no workspace document's is: the retarget panel's ghost, −1, is no overlay, as it has its own
   * physics and outline, and was filmed beside the actor while the panel was open).
   */
  notFilmed(): THREE.Object3D[] {
    return this.list.filter((c) => c.overlay || Number(c.key.split(':')[0]) < 0).map((c) => objectOf(c.built));
  }

  /** The joint nearest (x, y) over every actor's model, with its distance in CSS px, or null. */
  pick(cam: ViewCamera, x: number, y: number, width: number, height: number, radius: number): { key: string; bone: number; name: string; track: number; d: number } | null {
    let best: { key: string; bone: number; name: string; track: number; d: number } | null = null;
    for (const c of this.list) {
      // An overlay stands where the shown actor does: a click there is on the actor's joints.
      if (c.overlay) continue;
      const picker = this.pickerOf(c);
      const hit = picker.pick(cam, x, y, width, height, radius);
      if (!hit) continue;
      const p = picker.screenPosition(cam, hit.name, width, height);
      const d = p ? Math.hypot(p[0] - x, p[1] - y) : Infinity;
      if (!best || d < best.d) best = { key: c.key, ...hit, d };
    }
    return best;
  }

  /** Where an actor's bone joint is drawn (CSS px on a width × height canvas). */
  screenPosition(key: string, cam: ViewCamera, name: string, width: number, height: number): [number, number] | null {
    const c = this.list.find((x) => x.key === key);
    return c ? this.pickerOf(c).screenPosition(cam, name, width, height) : null;
  }

  /** An actor's rig as posed now, or null when no such actor is drawn. */
  rig(key: string): Rig | null {
    return this.list.find((x) => x.key === key)?.built.rig ?? null;
  }

  /** Another actor's skinned mesh (its companions key), or null. */
  mesh(key: string): THREE.SkinnedMesh | null {
    return this.list.find((x) => x.key === key)?.built.mesh ?? null;
  }

  dispose(): void {
    for (const c of this.list) this.remove(c);
    this.list = [];
  }

  private remove(c: Companion): void {
    this.world.scene.remove(objectOf(c.built));
    c.built.dispose();
    c.picker?.dispose();
  }

  /** The pick tables of an actor's model (built on first use: only a click needs them). */
  private pickerOf(c: Companion): PickMarker {
    if (!c.picker) {
      c.picker = new PickMarker();
      c.picker.rebind(c.built.rig, c.binding.trackBone);
    }
    return c.picker;
  }
}
