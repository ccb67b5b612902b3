/**
 * Picking a bone on the preview and marking it: the rig's joints projected with the active camera
 * (bone-pick.ts does the arithmetic), the marked bone kept by name across a model swap, and the mark
 * itself — a ring with a dot, drawn on the marked joint at a constant size on screen.
 */
import * as THREE from 'three';
import { matchKey } from '../../../shared/pmx/model-inspect';
import { PICK_RADIUS_PX, PickTier, pickJoint, pickTiers, projectJoints, trackOfBone } from './bone-pick';
import type { Rig } from './rig';
import type { ViewCamera } from './preview-scene';

/** The picked bone's mark: its colour (the timeline's selection colour) and radius on screen in CSS px. */
export const MARK_COLOR = 0xffb23e;
export const MARK_RADIUS_PX = 10;
/** Drawing order of the mark's rim and its ring and dot: over everything else, the pose handle's rings included. */
export const MARK_ORDER = 1004;

const markerAt = new THREE.Vector3();
const viewProjection = new THREE.Matrix4();

/**
 * A ring with a dot, 1 unit in radius, facing +Z (turned to face the camera and scaled to a constant
 * size on screen when drawn). Drawn after everything else without a depth test, so no part of the model
 * hides it, with a dark rim so it reads on light and dark surfaces alike.
 */
function buildMarker(): THREE.Group {
  const group = new THREE.Group();
  group.name = 'bone-marker';
  group.visible = false;
  const part = (geometry: THREE.BufferGeometry, color: number, opacity: number, order: number) => {
    const material = new THREE.MeshBasicMaterial({ color, opacity, transparent: true, depthTest: false, depthWrite: false, fog: false, side: THREE.DoubleSide });
    const mesh = new THREE.Mesh(geometry, material);
    mesh.renderOrder = order;
    mesh.frustumCulled = false;
    group.add(mesh);
  };
  part(new THREE.RingGeometry(0.66, 1.12, 32), 0x000000, 0.55, MARK_ORDER);
  part(new THREE.RingGeometry(0.76, 1, 32), MARK_COLOR, 1, MARK_ORDER + 1);
  part(new THREE.CircleGeometry(0.24, 16), MARK_COLOR, 1, MARK_ORDER + 1);
  return group;
}

export class PickMarker {
  /** The mark (see buildMarker); add it to the scene. Placed on its joint before each render. */
  readonly group = buildMarker();
  private rig: Rig | null = null;
  /** Name of the marked bone (kept across a model swap) and its index in the current rig (−1: none). */
  private markedName: string | null = null;
  private markedBone = -1;
  /** Per rig bone, refreshed on rebind: pick preference (bone-pick.ts) and the first bone track moving it. */
  private pickTier: Uint8Array = new Uint8Array(0);
  private boneTrack: Int32Array = new Int32Array(0);
  /** Scratch for picking: joint world positions and their projection (x, y, depth per bone). */
  private jointWorld = new Float32Array(0);
  private jointScreen = new Float32Array(0);

  /**
   * A new binding: the rig posed and, per track, the rig bone it moves (−1: none). A new rig (model swap)
   * has its own indices: the marked bone is found again by name.
   */
  rebind(rig: Rig, trackBone: Int32Array): void {
    this.rig = rig;
    const n = rig.bones.length;
    this.pickTier = pickTiers(rig.info, trackBone, this.pickTier);
    this.boneTrack = trackOfBone(n, trackBone);
    if (this.jointWorld.length !== 3 * n) {
      this.jointWorld = new Float32Array(3 * n);
      this.jointScreen = new Float32Array(3 * n);
    }
    this.markedBone = this.findMarked();
  }

  /** Marks a bone by name (null clears the mark). Returns whether the rig has it (else nothing is marked). */
  mark(name: string | null): boolean {
    this.markedName = name;
    this.markedBone = this.findMarked();
    return this.markedBone >= 0;
  }

  /** The marked bone's index in the current rig (−1: nothing marked, or the rig lacks that bone). */
  private findMarked(): number {
    return this.markedName === null || !this.rig ? -1 : (this.rig.byKey.get(matchKey(this.markedName)) ?? -1);
  }

  /** Whether the motion keys this rig bone (its pick tier: bone-pick.ts). */
  tracked(bone: number): boolean {
    const t = this.pickTier[bone];
    return t === PickTier.TRACKED || t === PickTier.TRACKED_TIP;
  }

  /** Each rig bone's pick tier (bone-pick.ts), as of the last rebind. */
  get tiers(): Uint8Array {
    return this.pickTier;
  }

  /** The marked bone's index in the rig, or −1. */
  get markedIndex(): number {
    return this.markedBone;
  }

  /** The marked bone (its name as the rig spells it, the bone track moving it or −1), or null. */
  get marked(): { name: string; track: number } | null {
    const i = this.markedBone;
    return i >= 0 && this.rig ? { name: this.rig.info[i].name, track: this.boneTrack[i] } : null;
  }

  /** Whether the mark was in the last rendered picture. */
  get shown(): boolean {
    return this.group.visible;
  }

  /**
   * Projects every joint of the rig as posed now (its world matrix: after IK and append) with `camera`
   * onto a width × height CSS px viewport, into jointScreen. Returns the number of joints.
   */
  private project(camera: ViewCamera, width: number, height: number): number {
    if (!this.rig) return 0;
    const bones = this.rig.bones, w = this.jointWorld;
    for (let i = 0; i < bones.length; i++) {
      const e = bones[i].matrixWorld.elements;
      w[3 * i] = e[12];
      w[3 * i + 1] = e[13];
      w[3 * i + 2] = e[14];
    }
    // The orbit controls move the camera between renders; its matrices catch up only inside render().
    camera.updateMatrixWorld();
    viewProjection.multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse);
    projectJoints(viewProjection.elements, w, bones.length, width, height, this.jointScreen);
    return bones.length;
  }

  /**
   * The bone whose joint a click at (x, y) CSS px on a width × height canvas picks (bone-pick.ts), or null
   * when no joint is within `radius`. `track` is the bone track moving it, −1 when the motion has none.
   */
  pick(camera: ViewCamera, x: number, y: number, width: number, height: number, radius = PICK_RADIUS_PX): { bone: number; name: string; track: number } | null {
    const n = this.project(camera, width, height);
    const i = pickJoint(this.jointScreen, this.pickTier, n, x, y, radius);
    return i < 0 || !this.rig ? null : { bone: i, name: this.rig.info[i].name, track: this.boneTrack[i] };
  }

  /** Where a bone's joint is drawn, in CSS px on a width × height canvas; null when absent or off screen. */
  screenPosition(camera: ViewCamera, name: string, width: number, height: number): [number, number] | null {
    const i = this.rig?.byKey.get(matchKey(name));
    if (i === undefined) return null;
    this.project(camera, width, height);
    const s = this.jointScreen;
    return Number.isNaN(s[3 * i]) ? null : [s[3 * i], s[3 * i + 1]];
  }

  /**
   * Puts the mark on the marked joint as posed now, facing the camera at a constant size on screen
   * (world units per CSS px grow with the distance along the view), on a viewport `heightPx` CSS px
   * tall; hidden when nothing is marked or the model is not drawn. Runs before each render, without
   * allocating, so the mark follows playback, scrubbing and orbiting.
   */
  place(camera: ViewCamera, heightPx: number, modelShown: boolean): void {
    const m = this.group;
    m.visible = this.markedBone >= 0 && modelShown && !!this.rig;
    if (!m.visible) return;
    camera.updateMatrixWorld();
    markerAt.setFromMatrixPosition(this.rig!.bones[this.markedBone].matrixWorld);
    m.position.copy(markerAt);
    const depth = -markerAt.applyMatrix4(camera.matrixWorldInverse).z;
    // An orthographic view (a perspective-off camera key) has the same units per px at every depth.
    const viewHeight = 'fov' in camera ? 2 * Math.max(depth, camera.near) * Math.tan((camera.fov * Math.PI) / 360) : camera.top - camera.bottom;
    const unitsPerPx = viewHeight / camera.zoom / heightPx;
    m.scale.setScalar(MARK_RADIUS_PX * unitsPerPx);
    m.quaternion.copy(camera.quaternion);
    m.updateMatrixWorld(true);
  }

  dispose(): void {
    for (const part of this.group.children as THREE.Mesh<THREE.BufferGeometry, THREE.Material>[]) {
      part.geometry.dispose();
      part.material.dispose();
    }
  }
}
