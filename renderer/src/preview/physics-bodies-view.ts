/**
 * "Show rigid bodies": a model's rigid bodies (sphere, box, capsule) and joints drawn over it, as PMX editors and
 * MMD show them, coloured by mode — 0 follows its bone (green), 1 physics (red), 2 physics with the bone's
 * position (yellow); joints are small cyan cubes with lines to their two bodies.
 *
 * Each body is placed where its Bullet body is while the actor simulates (PhysicsWorld.readBody), else where
 * its bone puts it (bone ∘ the body's rest offset: MMD bones have no rest rotation, so the offset is the body's
 * position less the bone's and its rotation). A joint rides on its first body (its rest transform in that
 * body's frame). Drawn through the model (no depth test), translucent with a wireframe, children of the model's
 * mesh so the actor's stage moves them. MMD → three.js: positions (x, y, −z), rotations (−x, −y, z, w).
 *
 * A model maker checks which body is which (PMX Editor names the body under the pointer): `pick` casts a ray
 * at the drawn bodies and joint cubes and returns what is drawn on top there — a joint's cube (drawn over the
 * bodies), else the nearest body hit — and `highlight` draws that one brighter,
 * its wireframe white. Drawn through the model, a body behind the model is still hit where it shows.
 */
import * as THREE from 'three';
import { RigidMode, RigidShape, type ModelData } from '../../../shared/pmx/model-types';
import type { Pose } from '../../../shared/skeleton';
import type { PhysicsWorld } from '../../../shared/physics/world';

/** Colour per mode (index = RigidMode), and the joints'. */
export const BODY_COLORS: readonly number[] = [0x30d158, 0xff3b30, 0xffd60a];
export const JOINT_COLOR = 0x32d2ff;
const JOINT_CUBE = 0.3;

/** What a ray at the view hits first: a body or a joint (its index in the model), and how far along the ray. */
export interface BodyHit {
  kind: 'body' | 'joint';
  index: number;
  distance: number;
}

/** MMD's Euler order (Y, then X, then Z) as a quaternion, MMD coordinates. */
function eulerQuat(r: readonly number[]): THREE.Quaternion {
  return new THREE.Quaternion().setFromEuler(new THREE.Euler(r[0], r[1], r[2], 'YXZ'));
}

/** The geometry of a body's shape in its own frame (a capsule along its Y axis, as Bullet's). */
function shapeGeometry(shape: number, s: readonly number[]): THREE.BufferGeometry {
  const tiny = (v: number) => Math.max(v, 0.01);
  if (shape === RigidShape.SPHERE) return new THREE.SphereGeometry(tiny(s[0]), 12, 8);
  if (shape === RigidShape.BOX) return new THREE.BoxGeometry(2 * tiny(s[0]), 2 * tiny(s[1]), 2 * tiny(s[2]));
  return new THREE.CapsuleGeometry(tiny(s[0]), Math.max(s[1], 0), 4, 12);
}

export class RigidBodiesView {
  readonly group = new THREE.Group();
  private readonly bodies: THREE.Object3D[] = [];
  private readonly materials: THREE.Material[] = [];
  private readonly geometries: THREE.BufferGeometry[] = [];
  /** Per body: its rest offset from its bone, MMD coordinates (position 3, rotation 4). */
  private readonly offsets: Float64Array;
  /** Per joint: its rest transform in body A's frame (MMD coordinates). */
  private readonly jointLocal: THREE.Matrix4[] = [];
  private readonly joints: THREE.Mesh[] = [];
  /** The meshes a ray is cast at: each body's fill, then each joint's cube (their kind and index by mesh). */
  private readonly targets: THREE.Object3D[] = [];
  private readonly targetOf = new Map<THREE.Object3D, { kind: 'body' | 'joint'; index: number }>();
  /** Per mode: the fill and wire materials of a body drawn highlighted; the joints' likewise. */
  private readonly hiFills: THREE.Material[];
  private readonly hiWire: THREE.Material;
  private readonly hiJoint: THREE.Material;
  private readonly fills: THREE.Material[];
  private readonly wires: THREE.Material[];
  private jointMat!: THREE.Material;
  /** The body or joint drawn highlighted now. */
  private lit: { kind: 'body' | 'joint'; index: number } | null = null;
  private readonly lines: THREE.LineSegments;
  private readonly x = new Float64Array(7);
  private readonly m = new THREE.Matrix4();
  private readonly q = new THREE.Quaternion();
  private readonly v = new THREE.Vector3();
  /** Per body, its transform now (MMD coordinates): 7 numbers. */
  private readonly now: Float64Array;

  constructor(readonly model: ModelData) {
    this.group.name = 'rigid-bodies';
    const rb = model.rigidBodies;
    this.offsets = new Float64Array(7 * rb.length);
    this.now = new Float64Array(7 * rb.length);
    const fills = BODY_COLORS.map((c) => new THREE.MeshBasicMaterial({ color: c, transparent: true, opacity: 0.3, depthTest: false, depthWrite: false, fog: false }));
    const wires = BODY_COLORS.map((c) => new THREE.MeshBasicMaterial({ color: c, wireframe: true, transparent: true, opacity: 0.8, depthTest: false, depthWrite: false, fog: false }));
    this.fills = fills;
    this.wires = wires;
    this.hiFills = BODY_COLORS.map((c) => new THREE.MeshBasicMaterial({ color: c, transparent: true, opacity: 0.7, depthTest: false, depthWrite: false, fog: false }));
    this.hiWire = new THREE.MeshBasicMaterial({ color: 0xffffff, wireframe: true, transparent: true, opacity: 1, depthTest: false, depthWrite: false, fog: false });
    this.hiJoint = new THREE.MeshBasicMaterial({ color: 0xffffff, depthTest: false, depthWrite: false, fog: false });
    this.materials.push(...fills, ...wires, ...this.hiFills, this.hiWire, this.hiJoint);
    rb.forEach((b, i) => {
      const geo = shapeGeometry(b.shape, b.size);
      this.geometries.push(geo);
      const mode = b.mode === RigidMode.PHYSICS || b.mode === RigidMode.PHYSICS_WITH_BONE ? b.mode : RigidMode.FOLLOW_BONE;
      const holder = new THREE.Group();
      const fill = new THREE.Mesh(geo, fills[mode]);
      const wire = new THREE.Mesh(geo, wires[mode]);
      fill.renderOrder = wire.renderOrder = 1000;
      holder.add(fill, wire);
      holder.name = b.name;
      this.group.add(holder);
      this.bodies.push(holder);
      this.targets.push(fill);
      this.targetOf.set(fill, { kind: 'body', index: i });
      const bp = b.bone >= 0 && b.bone < model.bones.length ? model.bones[b.bone].position : [0, 0, 0];
      const q = eulerQuat(b.rotation);
      this.offsets.set([b.position[0] - bp[0], b.position[1] - bp[1], b.position[2] - bp[2], q.x, q.y, q.z, q.w], 7 * i);
    });
    const jointGeo = new THREE.BoxGeometry(JOINT_CUBE, JOINT_CUBE, JOINT_CUBE);
    const jointMat = new THREE.MeshBasicMaterial({ color: JOINT_COLOR, depthTest: false, depthWrite: false, fog: false });
    const lineMat = new THREE.LineBasicMaterial({ color: JOINT_COLOR, transparent: true, opacity: 0.7, depthTest: false, depthWrite: false, fog: false });
    this.geometries.push(jointGeo);
    this.materials.push(jointMat, lineMat);
    this.jointMat = jointMat;
    const restOf = (b: { position: readonly number[]; rotation: readonly number[] }) =>
      new THREE.Matrix4().compose(new THREE.Vector3(b.position[0], b.position[1], b.position[2]), eulerQuat(b.rotation), new THREE.Vector3(1, 1, 1));
    for (const j of model.joints) {
      const a = rb[j.bodyA];
      this.jointLocal.push(a ? restOf(a).invert().multiply(restOf(j)) : restOf(j));
      const cube = new THREE.Mesh(jointGeo, jointMat);
      cube.renderOrder = 1001;
      this.group.add(cube);
      this.targetOf.set(cube, { kind: 'joint', index: this.joints.length });
      this.targets.push(cube);
      this.joints.push(cube);
    }
    const lineGeo = new THREE.BufferGeometry();
    lineGeo.setAttribute('position', new THREE.BufferAttribute(new Float32Array(12 * model.joints.length), 3));
    this.geometries.push(lineGeo);
    this.lines = new THREE.LineSegments(lineGeo, lineMat);
    this.lines.renderOrder = 1001;
    this.lines.frustumCulled = false;
    this.group.add(this.lines);
  }

  /** Bodies drawn (for the tests and the status). */
  get bodyCount(): number {
    return this.bodies.length;
  }

  /**
   * The body or joint the ray hits first (nearest along it), or null. The view must have been placed
   * (update) and its parents' world matrices be current, as they are once the picture was posed.
   */
  pick(ray: THREE.Raycaster): BodyHit | null {
    if (!this.group.visible) return null;
    const hits = ray.intersectObjects(this.targets, false);
    let body: BodyHit | null = null;
    for (const h of hits) {
      const t = this.targetOf.get(h.object);
      // A joint's cube is drawn over every body (renderOrder), so the cube under the pointer is what one sees.
      if (t?.kind === 'joint') return { ...t, distance: h.distance };
      if (t && !body) body = { ...t, distance: h.distance };
    }
    return body;
  }

  /** Draws one body or joint highlighted (null: none). Returns whether that changed the picture. */
  highlight(hit: { kind: 'body' | 'joint'; index: number } | null): boolean {
    const was = this.lit;
    if (was?.kind === hit?.kind && was?.index === hit?.index) return false;
    if (was) this.paint(was, false);
    this.lit = hit ? { kind: hit.kind, index: hit.index } : null;
    if (this.lit) this.paint(this.lit, true);
    return true;
  }

  /** Where each body's centre and each joint's cube are drawn, in the world (three.js axes; tests). */
  drawnCentres(): { bodies: [number, number, number][]; joints: [number, number, number][] } {
    const at = (o: THREE.Object3D): [number, number, number] => {
      const v = o.getWorldPosition(new THREE.Vector3());
      return [v.x, v.y, v.z];
    };
    return { bodies: this.bodies.map(at), joints: this.joints.map(at) };
  }

  /** The body or joint drawn highlighted now (tests). */
  get highlighted(): { kind: 'body' | 'joint'; index: number } | null {
    return this.lit;
  }

  private paint(t: { kind: 'body' | 'joint'; index: number }, on: boolean): void {
    if (t.kind === 'joint') {
      const cube = this.joints[t.index];
      if (cube) cube.material = on ? this.hiJoint : this.jointMat;
      return;
    }
    const holder = this.bodies[t.index];
    if (!holder) return;
    const m = this.model.rigidBodies[t.index].mode;
    const mode = m === RigidMode.PHYSICS || m === RigidMode.PHYSICS_WITH_BONE ? m : RigidMode.FOLLOW_BONE;
    const [fill, wire] = holder.children as THREE.Mesh[];
    fill.material = on ? this.hiFills[mode] : this.fills[mode];
    wire.material = on ? this.hiWire : this.wires[mode];
  }

  /**
   * Places every body and joint: from the world's Bullet bodies when `world` is given (the actor simulates),
   * else from the posed bones.
   */
  update(pose: Pose, world: PhysicsWorld | null): void {
    const rb = this.model.rigidBodies, x = this.x, now = this.now;
    for (let i = 0; i < rb.length; i++) {
      if (world && world.bodies[i]) world.readBody(i, x, 0);
      else this.fromBone(pose, i, x);
      now.set(x, 7 * i);
      const o = this.bodies[i];
      o.position.set(x[0], x[1], -x[2]);
      o.quaternion.set(-x[3], -x[4], x[5], x[6]);
    }
    const pos = this.lines.geometry.getAttribute('position') as THREE.BufferAttribute;
    const arr = pos.array as Float32Array;
    const js = this.model.joints;
    for (let k = 0; k < js.length; k++) {
      const j = js[k], a = j.bodyA, b = j.bodyB;
      const oa = 7 * a;
      this.m.compose(this.v.set(now[oa], now[oa + 1], now[oa + 2]), this.q.set(now[oa + 3], now[oa + 4], now[oa + 5], now[oa + 6]), ONE).multiply(this.jointLocal[k]);
      this.v.setFromMatrixPosition(this.m);
      this.joints[k].position.set(this.v.x, this.v.y, -this.v.z);
      const ob = 7 * b;
      arr.set([now[oa], now[oa + 1], -now[oa + 2], this.v.x, this.v.y, -this.v.z, this.v.x, this.v.y, -this.v.z, now[ob], now[ob + 1], -now[ob + 2]], 12 * k);
    }
    pos.needsUpdate = true;
    this.group.updateMatrixWorld(true);
  }

  /** Body i placed by its bone: bone world ∘ rest offset (MMD coordinates) into x. */
  private fromBone(pose: Pose, i: number, x: Float64Array): void {
    const b = this.model.rigidBodies[i], o = 7 * i, off = this.offsets;
    if (b.bone < 0 || b.bone >= pose.skeleton.count) {
      x[0] = b.position[0]; x[1] = b.position[1]; x[2] = b.position[2];
      x[3] = off[o + 3]; x[4] = off[o + 4]; x[5] = off[o + 5]; x[6] = off[o + 6];
      return;
    }
    const WR = pose.worldRotation, WP = pose.worldPosition, k = 4 * b.bone;
    const q = this.q.set(WR[k], WR[k + 1], WR[k + 2], WR[k + 3]);
    const p = this.v.set(off[o], off[o + 1], off[o + 2]).applyQuaternion(q);
    x[0] = WP[3 * b.bone] + p.x; x[1] = WP[3 * b.bone + 1] + p.y; x[2] = WP[3 * b.bone + 2] + p.z;
    q.multiply(ROT.set(off[o + 3], off[o + 4], off[o + 5], off[o + 6]));
    x[3] = q.x; x[4] = q.y; x[5] = q.z; x[6] = q.w;
  }

  dispose(): void {
    this.group.removeFromParent();
    for (const g of this.geometries) g.dispose();
    for (const m of this.materials) m.dispose();
  }
}

const ONE = new THREE.Vector3(1, 1, 1);
const ROT = new THREE.Quaternion();

// BodyFacts, the plain data the hover tooltip shows, lives with the store that holds it (no three.js there).
export type { BodyFacts } from '../stores/preview';
import type { BodyFacts } from '../stores/preview';

/** The facts of a model's body or joint (see BodyFacts). */
export function bodyFacts(model: ModelData, hit: { kind: 'body' | 'joint'; index: number }): BodyFacts | null {
  if (hit.kind === 'joint') {
    const j = model.joints[hit.index];
    if (!j) return null;
    return { kind: 'joint', index: hit.index, name: j.name, nameEn: j.nameEn, bodyA: model.rigidBodies[j.bodyA]?.name ?? '', bodyB: model.rigidBodies[j.bodyB]?.name ?? '' };
  }
  const b = model.rigidBodies[hit.index];
  if (!b) return null;
  const bone = b.bone >= 0 ? model.bones[b.bone] : undefined;
  const collides: number[] = [];
  for (let k = 0; k < 16; k++) if (b.mask & (1 << k)) collides.push(k + 1);
  return {
    kind: 'body', index: hit.index, name: b.name, nameEn: b.nameEn, bone: bone?.name ?? '', boneEn: bone?.nameEn ?? '',
    mode: b.mode, group: b.group + 1, collides, shape: b.shape, size: [b.size[0], b.size[1], b.size[2]],
  };
}
