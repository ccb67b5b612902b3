/**
 * The joints one can click, drawn as small dots over the model (as MMD draws its bones in edit mode): every
 * bone the pick prefers (bone-pick.ts: the motion's bones and the model's ordinary ones, not its tips), at
 * a constant size on screen and over everything (no depth test), placed from the posed rig before each
 * render. Off while playing, while the pane's Bones switch is off (C), and while looking through the camera
 * (the pane and the engine say when).
 */
import * as THREE from 'three';
import { PickTier } from './bone-pick';
import type { Rig } from './rig';

/** Drawing order: over the pose handle's rings (pose-gizmo.ts HANDLE_ORDER), under the picked bone's mark. */
export const DOTS_ORDER = 1003;
/** Dot diameter in CSS px. */
export const DOT_PX = 7;
/** The dot's fill (a pale blue that reads on skin, cloth and the dark background) and its dark rim. */
export const DOT_FILL: [number, number, number] = [0x9f, 0xd8, 0xff];
const RIM: [number, number, number] = [0x10, 0x18, 0x22];

/** A 16×16 round sprite: the fill inside a dark rim, transparent outside (sRGB bytes). */
function dotTexture(): THREE.DataTexture {
  const n = 16, px = new Uint8Array(n * n * 4);
  for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
    const d = Math.hypot(x + 0.5 - n / 2, y + 0.5 - n / 2) / (n / 2);
    const c = d <= 0.62 ? DOT_FILL : RIM;
    const o = 4 * (y * n + x);
    px[o] = c[0];
    px[o + 1] = c[1];
    px[o + 2] = c[2];
    px[o + 3] = d <= 0.95 ? 255 : 0;
  }
  const t = new THREE.DataTexture(px, n, n, THREE.RGBAFormat);
  t.colorSpace = THREE.SRGBColorSpace;
  t.needsUpdate = true;
  return t;
}

export class JointDots {
  readonly points: THREE.Points<THREE.BufferGeometry, THREE.PointsMaterial>;
  private bones: number[] = [];
  private positions = new Float32Array(0);

  constructor() {
    const material = new THREE.PointsMaterial({
      size: DOT_PX, sizeAttenuation: false, map: dotTexture(), transparent: true, alphaTest: 0.5,
      depthTest: false, depthWrite: false, fog: false, color: 0xffffff,
    });
    this.points = new THREE.Points(new THREE.BufferGeometry(), material);
    this.points.name = 'joint-dots';
    this.points.frustumCulled = false;
    this.points.renderOrder = DOTS_ORDER;
    this.points.visible = false;
  }

  /** The bones to dot: those whose pick tier (bone-pick.ts pickTiers) is not a tip. */
  setBones(tiers: ArrayLike<number>): void {
    const list: number[] = [];
    for (let i = 0; i < tiers.length; i++) if (tiers[i] === PickTier.TRACKED || tiers[i] === PickTier.BONE) list.push(i);
    this.bones = list;
    this.positions = new Float32Array(3 * list.length);
    this.points.geometry.dispose();
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.BufferAttribute(this.positions, 3));
    this.points.geometry = g;
  }

  /** How many joints are dotted. */
  get count(): number {
    return this.bones.length;
  }

  /** Before a render: the dots on the joints as posed now, or hidden. No allocation. */
  place(rig: Rig, visible: boolean): void {
    const p = this.points;
    p.visible = visible && this.bones.length > 0;
    if (!p.visible) return;
    const pos = this.positions, bones = rig.bones;
    for (let k = 0; k < this.bones.length; k++) {
      const e = bones[this.bones[k]]?.matrixWorld.elements;
      if (!e) continue;
      pos[3 * k] = e[12];
      pos[3 * k + 1] = e[13];
      pos[3 * k + 2] = e[14];
    }
    (p.geometry.getAttribute('position') as THREE.BufferAttribute).needsUpdate = true;
    p.updateMatrixWorld(true);
  }

  dispose(): void {
    this.points.geometry.dispose();
    this.points.material.map?.dispose();
    this.points.material.dispose();
  }
}
