// The physics world on babylon-mmd's Bullet bindings, with MMD's rules: small worlds built here whose outcome
// physics gives in closed form (a box at rest on a static body, a pendulum's period), a chain that settles, the
// per-key physics toggle, and bit-identical reruns.
import { describe, expect, it } from 'vitest';
import { RigidMode, RigidShape, readModel } from '../../../shared/pmx';
import { readVmd, buildVmd, buildTracks } from '../../../shared/vmd';
import { Simulation, isPhysicsOff, physicsBake, PhysicsToggles, physicsBoneMask } from '../../../shared/physics';
import { testBullet } from '../../helpers/bullet';
import { corpusPresent, readCorpus } from '../../helpers/corpus';
import { body, bone, joint, physicsModel } from '../../helpers/physics-model';

const c = corpusPresent ? it : it.skip;

describe('physics world', () => {
  it('a box dropped onto a static body comes to rest on its top face', async () => {
    const bullet = await testBullet();
    // Ground: a static (follow-bone) box 20 × 1 × 20 (half extents 10, 0.5, 10) with its top at y = 0.5.
    // A 2 × 2 × 2 box (half extent 1) dropped from y = 10: at rest its centre is at 0.5 + 1 = 1.5.
    const m = physicsModel(
      [bone('ground', [0, 0, 0]), bone('box', [0, 10, 0])],
      [
        body('ground', 0, RigidMode.FOLLOW_BONE, RigidShape.BOX, [10, 0.5, 10], [0, 0, 0]),
        body('box', 1, RigidMode.PHYSICS, RigidShape.BOX, [1, 1, 1], [0, 10, 0], { linearDamping: 0.2, angularDamping: 0.2 }),
      ],
    );
    const sim = new Simulation(bullet, m, null);
    sim.seek(0, 0);
    const y = () => sim.pose.worldPosition[3 * 1 + 1];
    let below = false;
    for (let f = 0; f < 180; f++) {
      sim.advance();
      if (y() < 1.4) below = true;
    }
    // Free fall first: it left y = 10 (falling 8.5 units takes √(2·8.5/98) s ≈ 0.42 s ≈ 12.5 frames).
    expect(below).toBe(false);
    expect(y()).toBeCloseTo(1.5, 1);
    const y0 = y();
    for (let f = 0; f < 30; f++) sim.advance();
    expect(Math.abs(y() - y0)).toBeLessThan(1e-3);
    // It stays on the body: x and z where it fell.
    expect(Math.abs(sim.pose.worldPosition[3])).toBeLessThan(0.05);
    sim.dispose();
  });

  it('the box does not fall through until its group is masked out of the ground (groups and masks)', async () => {
    const bullet = await testBullet();
    // Box in group 1; the ground's mask without bit 1 → no collision: the box falls through.
    const m = physicsModel(
      [bone('ground', [0, 0, 0]), bone('box', [0, 10, 0])],
      [
        body('ground', 0, RigidMode.FOLLOW_BONE, RigidShape.BOX, [10, 0.5, 10], [0, 0, 0], { group: 0, mask: 0xffff & ~(1 << 1) }),
        body('box', 1, RigidMode.PHYSICS, RigidShape.BOX, [1, 1, 1], [0, 10, 0], { group: 1 }),
      ],
    );
    const sim = new Simulation(bullet, m, null);
    sim.seek(0, 0);
    for (let f = 0; f < 60; f++) sim.advance();
    expect(sim.pose.worldPosition[4]).toBeLessThan(-20);
    sim.dispose();
  });

  it('a pendulum on a hinge joint swings with the period its length gives: 2π√(L/g), g = 98', async () => {
    const bullet = await testBullet();
    // Pivot (static, tiny sphere) at y = 20; bob (sphere r = 1, physics) at L = 10 below, released 10° out.
    // A physical pendulum: T = 2π√((L² + 2/5·r²)/(g·L)).
    const L = 10, a0 = (10 * Math.PI) / 180;
    const bx = L * Math.sin(a0), by = 20 - L * Math.cos(a0);
    const m = physicsModel(
      [bone('pivot', [0, 20, 0]), bone('bob', [bx, by, 0])],
      [
        body('pivot', 0, RigidMode.FOLLOW_BONE, RigidShape.SPHERE, [0.1, 0, 0], [0, 20, 0], { group: 0, mask: 0xfffe }),
        body('bob', 1, RigidMode.PHYSICS, RigidShape.SPHERE, [1, 0, 0], [bx, by, 0], { group: 1, mask: 0xfffe }),
      ],
      // Free about Z (lower > upper = free in Bullet), locked otherwise.
      [joint('hinge', 0, 1, [0, 20, 0], { angularLower: [0, 0, 1], angularUpper: [0, 0, -1] })],
    );
    const sim = new Simulation(bullet, m, null);
    sim.seek(0, 0);
    const xs: number[] = [];
    for (let f = 0; f < 400; f++) {
      sim.advance();
      xs.push(sim.pose.worldPosition[3]);
    }
    // Zero crossings (linear interpolation between frames), in frames.
    const crossings: number[] = [];
    for (let f = 1; f < xs.length; f++) if (Math.sign(xs[f]) !== Math.sign(xs[f - 1])) crossings.push(f - 1 + xs[f - 1] / (xs[f - 1] - xs[f]));
    expect(crossings.length).toBeGreaterThanOrEqual(6);
    const period = ((crossings[crossings.length - 1] - crossings[0]) / (crossings.length - 1)) * 2 / 30;
    const expected = 2 * Math.PI * Math.sqrt((L * L + 0.4 * 1) / (98 * L));
    expect(Math.abs(period - expected) / expected).toBeLessThan(0.03);
    // The bob stays at length L from the pivot (the joint holds).
    const d = Math.hypot(sim.pose.worldPosition[3], sim.pose.worldPosition[4] - 20);
    expect(Math.abs(d - L)).toBeLessThan(0.1);
    sim.dispose();
  });

  it('a chain of five bodies hanging from a static one settles', async () => {
    const bullet = await testBullet();
    const bones = [bone('root', [0, 20, 0])];
    const bodies = [body('root', 0, RigidMode.FOLLOW_BONE, RigidShape.SPHERE, [0.3, 0, 0], [0, 20, 0], { group: 0, mask: 0 })];
    const joints = [];
    // Links laid out sideways (x = 2k), so they must swing down and settle.
    for (let k = 1; k <= 5; k++) {
      bones.push(bone(`c${k}`, [2 * k, 20, 0], k - 1));
      bodies.push(body(`c${k}`, k, RigidMode.PHYSICS, RigidShape.SPHERE, [0.8, 0, 0], [2 * k, 20, 0], { group: 1, mask: 0, linearDamping: 0.5, angularDamping: 0.5 }));
      joints.push(joint(`j${k}`, k - 1, k, [2 * (k - 1), 20, 0], { angularLower: [-1, -1, -1], angularUpper: [1, 1, 1] }));
    }
    const sim = new Simulation(bullet, physicsModel(bones, bodies, joints), null);
    sim.seek(0, 0);
    for (let f = 0; f < 600; f++) sim.advance();
    const before = Float64Array.from(sim.pose.worldPosition);
    for (let f = 0; f < 10; f++) sim.advance();
    let moved = 0;
    for (let i = 0; i < before.length; i++) moved = Math.max(moved, Math.abs(sim.pose.worldPosition[i] - before[i]));
    expect(moved).toBeLessThan(1e-3);
    // It hangs: the last link is well below the root.
    expect(sim.pose.worldPosition[3 * 5 + 1]).toBeLessThan(20 - 4);
    sim.dispose();
  });

  it('a bone key with physics off (99, 15 at bytes 2–3) makes the bone follow its key; other bytes there do not', async () => {
    const bullet = await testBullet();
    const m = physicsModel(
      [bone('ground', [0, 0, 0]), bone('box', [0, 10, 0])],
      [body('ground', 0, RigidMode.FOLLOW_BONE, RigidShape.BOX, [10, 0.5, 10], [0, 0, 0]), body('box', 1, RigidMode.PHYSICS, RigidShape.BOX, [1, 1, 1], [0, 10, 0])],
    );
    const interp = (b2: number, b3: number) => {
      const x = new Uint8Array(64).fill(20);
      x[2] = b2; x[3] = b3;
      return x;
    };
    const run = (b2: number, b3: number) => {
      const doc = buildVmd({ bones: [{ name: 'box', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1], interpolation: interp(b2, b3) }] });
      const sim = new Simulation(bullet, m, doc);
      sim.seek(0, 0);
      for (let f = 0; f < 30; f++) sim.advance();
      const y = sim.pose.worldPosition[4];
      sim.dispose();
      return y;
    };
    expect(isPhysicsOff(interp(99, 15))).toBe(true);
    expect(isPhysicsOff(interp(20, 20))).toBe(false);
    expect(run(99, 15)).toBe(10); // held at its key
    expect(run(20, 20)).toBeLessThan(5); // physics: it fell
    expect(run(0, 0)).toBeLessThan(5);
  });

  it('counts the physics bones that follow their keys at a frame (the preview\'s status): keys with physics off on bones of mode 1 or 2 bodies only', () => {
    const m = physicsModel(
      [bone('ground', [0, 0, 0]), bone('hair', [0, 10, 0]), bone('skirt', [0, 5, 0]), bone('head', [0, 12, 0])],
      [
        body('ground', 0, RigidMode.FOLLOW_BONE, RigidShape.BOX, [10, 0.5, 10], [0, 0, 0]),
        body('hair', 1, RigidMode.PHYSICS, RigidShape.BOX, [1, 1, 1], [0, 10, 0]),
        body('skirt', 2, RigidMode.PHYSICS_WITH_BONE, RigidShape.BOX, [1, 1, 1], [0, 5, 0]),
      ],
    );
    const interp = (off: boolean) => {
      const x = new Uint8Array(64).fill(20);
      if (off) [x[2], x[3]] = [99, 15];
      return x;
    };
    const key = (name: string, frame: number, off: boolean) => ({ name, frame, position: [0, 0, 0] as [number, number, number], rotation: [0, 0, 0, 1] as [number, number, number, number], interpolation: interp(off) });
    // hair: off from frame 0, back on at 10; skirt off from 0 on; ground (mode 0) and head (no body) off too, not counted.
    const doc = buildVmd({ bones: [key('hair', 0, true), key('hair', 10, false), key('skirt', 0, true), key('ground', 0, true), key('head', 0, true)] });
    const mask = physicsBoneMask(m);
    expect([...mask]).toEqual([0, 1, 1, 0]);
    const toggles = new PhysicsToggles(m, doc, buildTracks(doc).bones);
    expect(toggles.offCount(0, mask)).toBe(2);
    expect(toggles.offCount(9.5, mask)).toBe(2);
    expect(toggles.offCount(10, mask)).toBe(1);
    expect(toggles.offCount(300, mask)).toBe(1);
    // A motion with no key off: none.
    const plain = buildVmd({ bones: [key('hair', 0, false), key('skirt', 0, false)] });
    expect(new PhysicsToggles(m, plain, buildTracks(plain).bones).offCount(0, mask)).toBe(0);
  });

  c('two runs of Gene_light under a motion are bit-identical', async () => {
    const bullet = await testBullet();
    const r = readModel(readCorpus('gene/Gene_light.pmx'));
    const v = readVmd(readCorpus('gene/motion/02_laugh.vmd'));
    if (!r.ok || !v.ok) throw new Error('read');
    const run = () => {
      const sim = new Simulation(bullet, r.value, v.value);
      sim.seek(0, 0);
      const out: number[] = [];
      for (let f = 0; f < 90; f++) {
        sim.advance();
        out.push(...sim.pose.worldPosition, ...sim.pose.worldRotation);
      }
      sim.dispose();
      return Float64Array.from(out);
    };
    const a = run(), b = run();
    expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true);
  });

  // The readers refuse such numbers (model-physics.test); a model built in memory can still hold them. Bullet
  // takes a NaN mass without complaint and hands back NaN transforms, which the pose used to take on.
  it('a body Bullet loses (NaN) leaves its bone to the motion, never NaN; the bake refuses, naming the body and frame', async () => {
    const bullet = await testBullet();
    // A chain hanging from a static body: root (follows its bone), a (physics: NaN mass), b (physics).
    const m = physicsModel(
      [bone('root', [0, 20, 0]), bone('a', [0, 15, 0], 0), bone('b', [0, 10, 0], 1)],
      [
        body('root', 0, RigidMode.FOLLOW_BONE, RigidShape.SPHERE, [0.5, 0, 0], [0, 20, 0], { group: 0, mask: 0xfffe }),
        body('a', 1, RigidMode.PHYSICS, RigidShape.BOX, [1, 1, 1], [0, 15, 0], { group: 1, mask: 0xfffe, mass: NaN }),
        body('b', 2, RigidMode.PHYSICS, RigidShape.SPHERE, [1, 0, 0], [0, 10, 0], { group: 1, mask: 0xfffe }),
      ],
      [joint('j1', 0, 1, [0, 17.5, 0]), joint('j2', 1, 2, [0, 12.5, 0])],
    );
    const doc = buildVmd({ bones: [{ name: 'root', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] }, { name: 'root', frame: 60, position: [3, 0, 0], rotation: [0, 0, 0, 1] }] });
    const sim = new Simulation(bullet, m, doc);
    sim.seek(0, 0);
    for (let f = 0; f < 60; f++) {
      sim.advance();
      for (const v of [...sim.pose.worldPosition, ...sim.pose.worldRotation]) expect(Number.isFinite(v), `frame ${sim.frame}`).toBe(true);
    }
    expect(sim.world.diverged).toBe(1);
    expect(sim.divergedAt).toBeGreaterThanOrEqual(0);
    // Bone a follows the motion (its rest place under the root, which moved 3 units by frame 60).
    expect(sim.pose.worldPosition[3]).toBeCloseTo(3, 6);
    expect(sim.pose.worldPosition[4]).toBeCloseTo(15, 6);
    sim.dispose();
    const r = physicsBake(bullet, m, doc, { raw: true });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ code: 'E_PHYSICS', message: expect.stringMatching(/^Bullet lost rigid body 1 "a" at frame \d+: .*nothing was baked$/) });
  });
});
