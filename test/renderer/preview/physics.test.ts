// The preview's physics (renderer/src/preview/physics-*.ts) on the real Bullet and real corpus models:
// - when a pose steps the world and when it restarts it (pure rule);
// - the preview's path (PoseBinding → ActorPhysics) against shared/physics's Simulation in Node, the engine the
//   bake and the physref agreement tests use: the same model and dance give the same physics bones at a seek
//   and over the frames after it;
// - a hidden actor's world is not stepped, the figure and models without bodies get no world;
// - a bone turned by hand at a paused frame (the pose gizmo's override) makes its physics children follow;
// - the rigid-body view places each body where the model file says it is at rest, and where Bullet has it;
// - pointing at a drawn body names it: a ray at a body's drawn centre picks that body (bodies nothing else can
//   cover there, judged by bounding spheres), highlighted; empty space picks none.
import { describe, expect, it } from 'vitest';
import * as THREE from 'three';
import { type ModelData } from '../../../shared/pmx';
import { buildTracks, type VmdDocument } from '../../../shared/vmd';
import { Simulation } from '../../../shared/physics';
import { testBullet } from '../../helpers/bullet';
import { corpusPresent, readCorpus, corpusModel, corpusMotion } from '../../helpers/corpus';
import { buildRig } from '../../../renderer/src/preview/rig';
import { PoseBinding, ikSwitchesOf } from '../../../renderer/src/preview/pose-binding';
import { physicsAdvance } from '../../../renderer/src/preview/physics-actor';
import { PreviewPhysics, SHOWN_KEY } from '../../../renderer/src/preview/physics-preview';
import { RigidBodiesView } from '../../../renderer/src/preview/physics-bodies-view';
import { RigidShape } from '../../../shared/pmx/model-types';
import { matchKey } from '../../../shared/pmx/model-inspect';

const c = corpusPresent ? it : it.skip;

const model = corpusModel;
const motion = corpusMotion;

/** A preview actor on a corpus model and dance, with its physics (Bullet loaded) bound. */
async function actor(m: ModelData, doc: VmdDocument | null) {
  const rig = buildRig(m.bones);
  const tracks = doc ? buildTracks(doc) : null;
  const binding = new PoseBinding(rig, tracks, ikSwitchesOf(doc, tracks));
  const bullet = await testBullet();
  const phys = new PreviewPhysics(async () => bullet);
  let changed = 0;
  phys.onChange = () => changed++;
  phys.bind(SHOWN_KEY, { model: m, rig, mesh: null }, binding, doc, tracks);
  phys.setEnabled(true);
  // Bullet arrives on a promise: the worlds are built then.
  await new Promise((r) => setTimeout(r, 0));
  expect(phys.ready).toBe(true);
  expect(changed).toBe(1);
  return { rig, binding, phys, tracks, physics: phys.physicsOf(SHOWN_KEY)! };
}

/** Largest distance between the physics bones' world positions of two poses. */
function maxGap(bones: number[], a: Float64Array, b: Float64Array): number {
  let worst = 0;
  for (const i of bones) worst = Math.max(worst, Math.hypot(a[3 * i] - b[3 * i], a[3 * i + 1] - b[3 * i + 1], a[3 * i + 2] - b[3 * i + 2]));
  return worst;
}

describe('physics in the preview', () => {
  it('steps forward moves and restarts on jumps (MMD: a seek restarts physics)', () => {
    expect(physicsAdvance(NaN, 10, false, false)).toEqual({ restart: true });
    expect(physicsAdvance(10, 11, false, true)).toEqual({ restart: true });
    // Paused: one frame forward steps; two, or any move back, is a seek.
    expect(physicsAdvance(10, 11, false, false)).toEqual({ restart: false, frames: 1 });
    expect(physicsAdvance(10, 12, false, false)).toEqual({ restart: true });
    expect(physicsAdvance(10, 9, false, false)).toEqual({ restart: true });
    // Playing: the time that passed, sub-frames too; a loop back to the start restarts.
    expect(physicsAdvance(10, 10.5, true, false)).toEqual({ restart: false, frames: 0.5 });
    expect(physicsAdvance(10, 14, true, false)).toEqual({ restart: false, frames: 4 });
    expect(physicsAdvance(300, 0, true, false)).toEqual({ restart: true });
    // A display too slow for the dance runs at most 8 frames of physics per frame; a move of over a second is a seek.
    expect(physicsAdvance(10, 25, true, false)).toEqual({ restart: false, frames: 8 });
    expect(physicsAdvance(10, 41, true, false)).toEqual({ restart: true });
    // The same frame again (a bone posed by hand): one frame held.
    expect(physicsAdvance(10, 10, false, false)).toEqual({ restart: false, frames: 1 });
  });

  c('Gene_light dancing 33_angry: the preview poses the physics bones as shared/physics does in Node', async () => {
    const m = model('gene/Gene_light.pmx'), doc = motion('gene/motion/33_angry.vmd');
    const { rig, binding, physics } = await actor(m, doc);
    const sim = new Simulation(await testBullet(), m, doc);
    const bones = sim.physicsBones();
    expect(bones.length).toBeGreaterThan(10);
    const F = 120;
    binding.apply(F);
    sim.seek(F);
    expect(physics.restarts).toBe(1);
    const atSeek = maxGap(bones, rig.pose.worldPosition, sim.pose.worldPosition);
    // Ten frames played on: one world step each (the clock says playing).
    physics['clock'].playing = true;
    let worst = 0;
    for (let k = 1; k <= 10; k++) {
      binding.apply(F + k);
      sim.advance();
      worst = Math.max(worst, maxGap(bones, rig.pose.worldPosition, sim.pose.worldPosition));
    }
    console.log(`[physics] preview vs Node Simulation, Gene_light × 33_angry: at the seek to ${F} ${atSeek.toExponential(2)} units, frames ${F + 1}–${F + 10} at most ${worst.toExponential(2)} units`);
    expect(physics.restarts).toBe(1);
    expect(physics.steps).toBe(10);
    // The agreement bound for two runtimes is 0.5 units; one engine posed two ways should be far inside it.
    expect(atSeek).toBeLessThan(1e-3);
    expect(worst).toBeLessThan(0.05);
    // Reset at F after the world has run: the same as the first restart there (a restart starts a new world).
    physics.restartPending = true;
    binding.apply(F);
    const fresh = new Simulation(await testBullet(), m, doc);
    fresh.seek(F);
    expect(physics.restarts).toBe(2);
    expect(maxGap(bones, rig.pose.worldPosition, fresh.pose.worldPosition)).toBe(0);
    fresh.dispose();
    // The three.js bones show the physics pose (MMD → three.js: z negated).
    rig.bones[0].parent?.updateMatrixWorld(true);
    for (const root of rig.roots) root.updateMatrixWorld(true);
    const hair = bones[bones.length - 1];
    const p = rig.bones[hair].getWorldPosition(new THREE.Vector3());
    expect(p.x).toBeCloseTo(rig.pose.worldPosition[3 * hair], 4);
    expect(p.z).toBeCloseTo(-rig.pose.worldPosition[3 * hair + 2], 4);
    sim.dispose();
  }, 120_000);

  c('a hidden actor is not stepped; shown again it restarts; off leaves the motion\'s pose', async () => {
    const m = model('gene/Gene_light.pmx'), doc = motion('gene/motion/33_angry.vmd');
    const { rig, binding, phys, physics } = await actor(m, doc);
    binding.apply(10);
    const steps = physics.steps;
    phys.setHidden(SHOWN_KEY, true);
    expect(phys.actors()[0]).toMatchObject({ hidden: true, simulating: false });
    binding.apply(11);
    binding.apply(12);
    expect(physics.steps).toBe(steps);
    expect(physics.restarts).toBe(1);
    phys.setHidden(SHOWN_KEY, false);
    binding.apply(13);
    expect(physics.restarts).toBe(2);
    // Off: the world is gone and the pose is the motion's alone (physics bones at their keyed pose).
    const withPhysics = Float64Array.from(rig.pose.worldPosition);
    phys.setEnabled(false);
    expect(phys.physicsOf(SHOWN_KEY)).toBeNull();
    binding.apply(13);
    const sim = new Simulation(await testBullet(), m, doc);
    const bones = sim.physicsBones();
    sim.poser.apply(sim.pose, 13);
    sim.pose.evaluate('all', sim.poser.ikEnabledAt(13));
    expect(maxGap(bones, rig.pose.worldPosition, sim.pose.worldPosition)).toBeLessThan(1e-3);
    expect(maxGap(bones, rig.pose.worldPosition, withPhysics)).toBeGreaterThan(0.1);
    sim.dispose();
  }, 120_000);

  c('the built-in figure\'s rig and a model without rigid bodies get no world', async () => {
    const m = model('gene/Gene_light.pmx');
    const bare: ModelData = { ...m, rigidBodies: [], joints: [], rigidBodyCount: 0, jointCount: 0 };
    const rig = buildRig(bare.bones);
    const binding = new PoseBinding(rig, null, ikSwitchesOf(null, null));
    const bullet = await testBullet();
    const phys = new PreviewPhysics(async () => bullet);
    phys.bind(SHOWN_KEY, { model: bare, rig, mesh: null }, binding, null, null);
    phys.bind('2:figure', { model: null, rig: buildRig(m.bones.slice(0, 1)), mesh: null }, binding, null, null);
    phys.setEnabled(true);
    await new Promise((r) => setTimeout(r, 0));
    expect(phys.state(SHOWN_KEY)).toBe('none');
    expect(phys.state('2:figure')).toBe('none');
    expect(binding.physics).toBeNull();
    phys.dispose();
  });

  // The readers refuse such numbers; a model built in memory can still hold them (shared/physics's world test).
  c('a body Bullet loses to NaN: the status says "lost" once, naming it; the pose stays finite', async () => {
    const m = model('gene/Gene_light.pmx');
    const k = m.rigidBodies.findIndex((b) => b.mode === 1);
    const broken: ModelData = { ...m, rigidBodies: m.rigidBodies.map((b, i) => (i === k ? { ...b, mass: NaN } : b)) };
    const { rig, binding, phys } = await actor(broken, motion('gene/motion/33_angry.vmd'));
    let lost = 0;
    phys.onLost = () => lost++;
    for (let f = 10; f < 20; f++) {
      binding.apply(f);
      phys.afterPose();
      for (const v of rig.pose.worldPosition) expect(Number.isFinite(v)).toBe(true);
    }
    expect(phys.state(SHOWN_KEY)).toBe('lost');
    // The first body Bullet gives back as NaN: the broken one or a body jointed to it.
    const d = phys.physicsOf(SHOWN_KEY)!.world.diverged;
    expect(d === k || m.joints.some((j) => (j.bodyA === k && j.bodyB === d) || (j.bodyB === k && j.bodyA === d))).toBe(true);
    expect(phys.lostBody(SHOWN_KEY)).toBe(m.rigidBodies[d].name);
    expect(lost).toBe(1);
    phys.dispose();
  }, 60_000);

  c('a head turned by hand at a paused frame: the hair bodies under it follow', async () => {
    const m = model('gene/Gene_light.pmx');
    const { rig, binding, physics } = await actor(m, null);
    const head = rig.byKey.get(matchKey('頭'))!;
    expect(head).toBeGreaterThanOrEqual(0);
    const sk = rig.pose.skeleton;
    const under = (b: number): boolean => (b < 0 ? false : b === head || under(sk.parent[b]));
    const hair = [...physics.world.driver.keys()].filter((b) => physics.world.driver[b] >= 0 && under(b));
    expect(hair.length).toBeGreaterThan(3);
    binding.apply(0);
    const rest = Float64Array.from(rig.pose.worldRotation);
    // The gizmo's stand-in: the head tipped 60° about X, then the same frame posed again as a drag does.
    const q = new THREE.Quaternion().setFromAxisAngle(new THREE.Vector3(1, 0, 0), (60 * Math.PI) / 180);
    binding.setOverride({ bone: head, position: rig.bones[head].position.clone(), quaternion: q });
    for (let k = 0; k < 20; k++) binding.apply(0);
    expect(physics.restarts).toBe(1);
    expect(physics.steps).toBe(20);
    // Gene's hair bodies are mode 2 (physics turns the bones, their positions follow the head), so the hair is
    // judged by its bones' world rotations: each against its settled rest rotation, and against that rotation
    // turned rigidly with the head (what physics off shows; MMD coordinates: x and y of the turn change sign).
    const turn = new THREE.Quaternion(-q.x, -q.y, q.z, q.w);
    const R = rig.pose.worldRotation;
    const angle = (a: THREE.Quaternion, b: THREE.Quaternion) => (2 * Math.acos(Math.min(1, Math.abs(a.dot(b)))) * 180) / Math.PI;
    let followed = 0, hanging = 0;
    for (const b of hair) {
      const now = new THREE.Quaternion(R[4 * b], R[4 * b + 1], R[4 * b + 2], R[4 * b + 3]);
      const r0 = new THREE.Quaternion(rest[4 * b], rest[4 * b + 1], rest[4 * b + 2], rest[4 * b + 3]);
      followed = Math.max(followed, angle(now, r0));
      hanging = Math.max(hanging, angle(now, turn.clone().multiply(r0)));
    }
    console.log(`[physics] head tipped 60° by hand: hair bones turned up to ${followed.toFixed(1)}° from rest, and hang up to ${hanging.toFixed(1)}° off a rigid turn with the head`);
    // They followed the head, and hang under gravity rather than turning with it as rigid parts.
    expect(followed).toBeGreaterThan(30);
    expect(hanging).toBeGreaterThan(5);
  }, 120_000);

  c('the rigid-body view: at rest each body where the model file puts it; with physics where Bullet has it', async () => {
    const m = model('gene/Gene_light.pmx');
    const view = new RigidBodiesView(m);
    const { rig, binding, physics } = await actor(m, null);
    binding.physics = null;
    binding.apply(0);
    view.update(rig.pose, null);
    const objs = view.group.children.slice(0, m.rigidBodies.length);
    m.rigidBodies.forEach((b, i) => {
      expect(objs[i].position.x).toBeCloseTo(b.position[0], 4);
      expect(objs[i].position.y).toBeCloseTo(b.position[1], 4);
      expect(objs[i].position.z).toBeCloseTo(-b.position[2], 4);
    });
    // Each joint's cube where the file puts the joint at rest.
    const cubes = view.group.children.slice(m.rigidBodies.length, m.rigidBodies.length + m.joints.length);
    let worstJoint = 0;
    m.joints.forEach((j, k) => {
      const p = cubes[k].position;
      worstJoint = Math.max(worstJoint, Math.hypot(p.x - j.position[0], p.y - j.position[1], p.z + j.position[2]));
    });
    expect(worstJoint).toBeLessThan(1e-4);
    binding.physics = physics;
    binding.apply(0);
    view.update(rig.pose, physics.world);
    const x = new Float64Array(7);
    m.rigidBodies.forEach((_, i) => {
      physics.world.readBody(i, x);
      expect(objs[i].position.x).toBeCloseTo(x[0], 5);
      expect(objs[i].position.z).toBeCloseTo(-x[2], 5);
    });
    expect(view.bodyCount).toBe(m.rigidBodies.length);
    view.dispose();
  }, 120_000);

  c('pointing at a drawn rigid body picks it: its name, bone, mode and groups for the tooltip, and it is highlighted', async () => {
    const m = model('gene/Gene_light.pmx');
    const rig = buildRig(m.bones);
    const binding = new PoseBinding(rig, null, ikSwitchesOf(null, null));
    const phys = new PreviewPhysics(async () => await testBullet());
    // The view hangs under the model's mesh (here an empty group standing at the origin, as the stage does).
    const mesh = new THREE.Group();
    phys.bind(SHOWN_KEY, { model: m, rig, mesh }, binding, null, null);
    phys.setBodiesShown(true);
    binding.apply(0);
    phys.afterPose();
    mesh.updateMatrixWorld(true);
    // Each body's bounding sphere where the file puts it at rest (three.js axes: z negated).
    const spheres = m.rigidBodies.map((b) => {
      const [x, y, z] = b.size;
      const r = b.shape === RigidShape.SPHERE ? x : b.shape === RigidShape.BOX ? Math.hypot(x, y, z) : x + y / 2;
      return { c: new THREE.Vector3(b.position[0], b.position[1], -b.position[2]), r };
    });
    // The joints' cubes (0.3 units a side) at rest: drawn over the bodies, so one on the ray is what is picked.
    const cubes = m.joints.map((j) => ({ c: new THREE.Vector3(j.position[0], j.position[1], -j.position[2]), r: 0.3 * Math.sqrt(3) / 2 }));
    const ray = new THREE.Raycaster();
    let checked = 0;
    for (const eye of [new THREE.Vector3(0, 12, 40), new THREE.Vector3(0, 14, -40), new THREE.Vector3(35, 12, 10)]) {
      const cam = new THREE.PerspectiveCamera(30, 16 / 9, 0.1, 1000);
      cam.position.copy(eye);
      cam.lookAt(0, 11, 0);
      cam.updateMatrixWorld(true);
      cam.updateProjectionMatrix();
      for (let i = 0; i < spheres.length; i++) {
        const { c: ci } = spheres[i];
        const dir = ci.clone().sub(eye).normalize(), ti = ci.distanceTo(eye);
        // Another body could be hit first only if its bounding sphere meets the ray and begins before i's centre.
        const covered = spheres.some((s, j) => {
          if (j === i) return false;
          const t = s.c.clone().sub(eye).dot(dir);
          const off = s.c.clone().sub(eye).sub(dir.clone().multiplyScalar(t)).length();
          return off < s.r && t - s.r < ti;
        }) || cubes.some((s) => {
          const t = s.c.clone().sub(eye).dot(dir);
          return s.c.clone().sub(eye).sub(dir.clone().multiplyScalar(t)).length() < s.r;
        });
        if (covered || ti < spheres[i].r) continue;
        ray.setFromCamera(new THREE.Vector2().copy(ci.clone().project(cam) as unknown as THREE.Vector2), cam);
        const hit = phys.pickBody(ray);
        expect(hit?.key, `body ${i} ${m.rigidBodies[i].name}`).toBe(SHOWN_KEY);
        expect(hit!.facts).toMatchObject({ kind: 'body', index: i, name: m.rigidBodies[i].name });
        checked++;
      }
    }
    console.log(`[physics] ${checked} uncovered body centres (3 views of Gene_light's ${m.rigidBodies.length} bodies) each picked its own body`);
    expect(checked).toBeGreaterThan(10);
    // What the tooltip says of one: its bone, mode and groups as the file stores them (groups counted from 1).
    const k = m.rigidBodies.findIndex((b, i) => b.mode === 2 && b.bone >= 0 && cubes.every((q) => Math.hypot(q.c.x - spheres[i].c.x, q.c.y - spheres[i].c.y) > 0.5));
    const b = m.rigidBodies[k];
    const front = new THREE.PerspectiveCamera(30, 16 / 9, 0.1, 1000);
    // Looked at from just in front of it (0.5 units out of its bounding sphere along +z): nothing else between.
    const c0 = spheres[k].c;
    front.position.set(c0.x, c0.y, c0.z + spheres[k].r + 0.5);
    front.lookAt(c0);
    front.updateMatrixWorld(true);
    ray.setFromCamera(new THREE.Vector2(0, 0), front);
    const hit = phys.pickBody(ray)!;
    expect(hit.facts).toMatchObject({ kind: 'body', index: k, name: b.name, nameEn: b.nameEn, bone: m.bones[b.bone].name, mode: 2, group: b.group + 1 });
    if (hit.facts.kind !== 'body') throw new Error('a body');
    expect(hit.facts.collides).toEqual([...Array(16).keys()].filter((g) => b.mask & (1 << g)).map((g) => g + 1));
    // Pointed at a joint's cube: the joint, with the bodies it joins.
    const jc = cubes[0].c, j0 = m.joints[0];
    const atJoint = new THREE.PerspectiveCamera(30, 16 / 9, 0.1, 1000);
    atJoint.position.set(jc.x, jc.y, jc.z + 30);
    atJoint.lookAt(jc);
    atJoint.updateMatrixWorld(true);
    ray.setFromCamera(new THREE.Vector2(0, 0), atJoint);
    expect(phys.pickBody(ray)!.facts).toEqual({ kind: 'joint', index: 0, name: j0.name, nameEn: j0.nameEn, bodyA: m.rigidBodies[j0.bodyA].name, bodyB: m.rigidBodies[j0.bodyB].name });
    // Highlighted: that body, and no other; none after.
    expect(phys.highlightBody({ key: SHOWN_KEY, kind: 'body', index: k })).toBe(true);
    expect(phys.highlightBody({ key: SHOWN_KEY, kind: 'body', index: k })).toBe(false);
    phys.highlightBody(null);
    // Far off to the side of the model: nothing.
    const side = new THREE.PerspectiveCamera(30, 16 / 9, 0.1, 1000);
    side.position.set(60, 11, 40);
    side.lookAt(60, 11, 0);
    side.updateMatrixWorld(true);
    ray.setFromCamera(new THREE.Vector2(0, 0), side);
    expect(phys.pickBody(ray)).toBeNull();
    // The view off: nothing to pick.
    phys.setBodiesShown(false);
    ray.setFromCamera(new THREE.Vector2(0, 0), front);
    expect(phys.pickBody(ray)).toBeNull();
    phys.dispose();
  }, 120_000);
});
