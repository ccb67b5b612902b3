/**
 * Posing a bone in the 3D preview, as MMD's rotation rings and move arrows do: three.js's
 * TransformControls on the picked bone, in the model's axes (global, as MMD by default) or the bone's own (local). While a ring or arrow is dragged the bone's
 * local transform stands in for the motion's (PoseBinding.setOverride), so morphs, append (付与) and IK still
 * act on it and the children follow; on release the new pose goes to `onCommit` in MMD's coordinates (the
 * editor registers it as the bone's key at the current frame: shared/key-edits/bone-key.ts).
 *
 * The handle turns the bone as drawn, which may include a bone morph or an append rotation on top of the
 * motion's own: the drawn rotation is E·S (S the sampled one), so the key gets S' = E⁻¹·(the handle's),
 * and its position the sampled offset plus the handle's move.
 */
import * as THREE from 'three';
import { TransformControls } from 'three/examples/jsm/controls/TransformControls.js';
import { BONE_FLAG } from '../../../shared/pmx/model-types';
import type { BonePose } from '../../../shared/key-edits/bone-key';
import type { PoseBinding } from './pose-binding';
import type { Rig } from './rig';

export type PoseMode = 'rotate' | 'translate';
/** The handle's axes: the model's (global, MMD's default) or the bone's own (local, MMD's ローカル). */
export type PoseSpace = 'global' | 'local';

/**
 * Where the handle's rings and arrows come in the drawing order of the preview's overlays (all drawn without
 * a depth test): over the rigid-body view (1000, 1001), under the joint dots and the picked bone's mark
 * (joint-dots.ts DOTS_ORDER, pick-marker.ts MARK_ORDER).
 */
export const HANDLE_ORDER = 1002;

/** A finished drag: the bone (rig index, name), the track that moves it (−1: none yet) and its new pose. */
export interface PoseCommit {
  bone: number;
  name: string;
  track: number;
  pose: BonePose;
}

/** Whether the model lets this bone turn (mode rotate) or move (translate). */
export function bonePosable(rig: Rig, bone: number, mode: PoseMode): boolean {
  const b = rig.info[bone];
  if (!b) return false;
  const flag = mode === 'rotate' ? BONE_FLAG.ROTATABLE : BONE_FLAG.TRANSLATABLE;
  return (b.flags & flag) !== 0;
}

const sampledQ = new THREE.Quaternion();

export class PoseGizmo {
  readonly controls: TransformControls;
  /** Add this to the scene (the rings and arrows). */
  readonly helper: THREE.Object3D;
  /** Asked after every change the picture shows (hover highlight, a drag step). */
  onChange: (() => void) | null = null;
  /** A drag starts or ends (the orbit controls stand still meanwhile). */
  onDragging: ((on: boolean) => void) | null = null;
  /** Re-poses the scene at the frame shown (a drag step: the override is set). */
  onRepose: (() => void) | null = null;
  /** A drag released with the bone moved. */
  onCommit: ((c: PoseCommit) => void) | null = null;
  /** Each drag step: the pose the drag shows (the key inspector follows it); null when the drag ends. */
  onLive: ((c: PoseCommit | null) => void) | null = null;
  /** The frame shown (a drag starts from the motion's pose there). */
  frameOf: () => number = () => 0;

  private rig: Rig | null = null;
  private binding: PoseBinding | null = null;
  private bone = -1;
  /** At the press: the drawn-over-sampled rotation E, the drawn and the sampled local position. */
  private readonly extra = new THREE.Quaternion();
  private readonly drawnStart = new THREE.Vector3();
  private readonly sampledStart = new THREE.Vector3();
  private readonly position = new THREE.Vector3();
  private readonly quaternion = new THREE.Quaternion();
  private moved = false;

  constructor(camera: THREE.Camera, dom: HTMLElement) {
    this.controls = new TransformControls(camera, dom);
    this.controls.setSpace('world');
    this.controls.setSize(0.8);
    // The three axis rings only: the free-turn ball and the screen ring would sit over the joint itself and
    // the joints around it, which a click should still pick.
    this.controls.showE = false;
    this.controls.showXYZE = false;
    this.helper = this.controls.getHelper();
    this.helper.name = 'pose-gizmo';
    // TransformControls draws its handles last of all (renderOrder Infinity). A ring seen edge on is a line
    // through the joint, so it was drawn over the picked bone's mark and the joint dots; joints come first
    // when clicking (JOINT_FIRST_PX in preview-engine.ts), and they are drawn over the rings too.
    this.helper.traverse((o) => {
      if (o.renderOrder === Infinity) o.renderOrder = HANDLE_ORDER;
    });
    this.controls.addEventListener('change', () => this.onChange?.());
    this.controls.addEventListener('dragging-changed', (e) => this.onDragging?.(!!(e as unknown as { value: boolean }).value));
    this.controls.addEventListener('mouseDown', () => this.begin());
    this.controls.addEventListener('objectChange', () => this.step());
    this.controls.addEventListener('mouseUp', () => this.end());
  }

  /** The axes the rings and arrows turn and move about (TransformControls' world or local space). */
  get space(): PoseSpace {
    return this.controls.space === 'local' ? 'local' : 'global';
  }

  setSpace(space: PoseSpace): void {
    const s = space === 'local' ? 'local' : 'world';
    if (this.controls.space !== s) this.controls.setSpace(s);
  }

  get mode(): PoseMode {
    return this.controls.mode === 'translate' ? 'translate' : 'rotate';
  }

  /** The bone the handle is on (rig index), or −1. */
  get attachedBone(): number {
    return this.bone;
  }

  /** A ring or arrow is under the pointer or being dragged (a click there is not a pick). */
  get engaged(): boolean {
    return this.bone >= 0 && this.controls.enabled && (this.controls.dragging || this.controls.axis !== null);
  }

  get dragging(): boolean {
    return this.controls.dragging;
  }

  /**
   * Puts the handle on `bone` of `rig` (posed by `binding`), in `mode`; −1, or a bone the model does not
   * let turn or move that way, takes it off.
   */
  attach(rig: Rig | null, binding: PoseBinding | null, bone: number, mode: PoseMode): void {
    if (this.controls.mode !== mode) this.controls.setMode(mode);
    const ok = !!rig && !!binding && bone >= 0 && bonePosable(rig, bone, mode);
    if (!ok) {
      this.detach();
      return;
    }
    this.binding = binding;
    if (this.rig === rig && this.bone === bone && this.controls.object === rig!.bones[bone]) return;
    this.rig = rig;
    this.bone = bone;
    this.controls.attach(rig!.bones[bone]);
  }

  detach(): void {
    if (this.controls.dragging) {
      this.binding?.setOverride(null);
      this.onLive?.(null);
    }
    this.rig = null;
    this.binding = null;
    this.bone = -1;
    this.controls.detach();
  }

  setCamera(camera: THREE.Camera): void {
    this.controls.camera = camera;
  }

  private begin(): void {
    const rig = this.rig, b = this.binding;
    if (!rig || !b || this.bone < 0) return;
    const bone = rig.bones[this.bone];
    b.sampledLocal(this.bone, this.frameOf(), this.sampledStart, sampledQ);
    // E = drawn · sampled⁻¹: what morphs and append put on top of the motion's rotation.
    this.extra.copy(bone.quaternion).multiply(sampledQ.invert());
    this.drawnStart.copy(bone.position);
    this.moved = false;
  }

  private step(): void {
    const rig = this.rig, b = this.binding;
    if (!rig || !b || this.bone < 0) return;
    const bone = rig.bones[this.bone];
    this.quaternion.copy(this.extra).invert().multiply(bone.quaternion).normalize();
    this.position.copy(this.sampledStart).add(bone.position).sub(this.drawnStart);
    b.setOverride({ bone: this.bone, position: this.position, quaternion: this.quaternion });
    this.moved = true;
    this.onRepose?.();
    this.onLive?.(this.current());
  }

  /** The bone's pose as dragged so far, in MMD's coordinates (what a release registers). */
  private current(): PoseCommit | null {
    const rig = this.rig, b = this.binding;
    if (!rig || !b || this.bone < 0) return null;
    const i = this.bone, rest = rig.rest, p = this.position, q = this.quaternion;
    // three.js → MMD: z of positions and x, y of quaternions change sign (rig.ts).
    const pose: BonePose = {
      position: [p.x - rest[3 * i], p.y - rest[3 * i + 1], -(p.z - rest[3 * i + 2])],
      rotation: [-q.x, -q.y, q.z, q.w],
    };
    return { bone: i, name: rig.info[i].name, track: b.trackOf(i), pose };
  }

  private end(): void {
    // The live pose ends with the drag; the key registered now (or nothing) is what the inspector shows.
    this.onLive?.(null);
    if (!this.moved) return;
    this.moved = false;
    const c = this.current();
    if (c) this.onCommit?.(c);
  }

  /** Drops a drag's pose (a refused edit): the motion's own again. */
  cancel(): void {
    this.onLive?.(null);
    this.binding?.setOverride(null);
    this.onRepose?.();
  }

  dispose(): void {
    this.controls.detach();
    this.controls.dispose();
    this.helper.removeFromParent();
  }
}
