// How far a motion carries its model (shared/scene/motion-reach.ts), which the preview's framing adds to the
// models' footprints: checked against the motion sampled at every frame here (shared/vmd's sampler), on CMU
// 131_01 imported onto the standard skeleton where the capture was recorded (21.65 units from the origin along
// Z on Gene: a reach at frame 0 alone would leave the walk out of view), and on a turned stage.
import { describe, expect, it } from 'vitest';
import { readBvh } from '../../../shared/bvh/bvh-reader';
import { importBvh } from '../../../shared/bvh/import';
import { standardFigureModel } from '../../../shared/skeleton/standard-figure';
import { buildTracks } from '../../../shared/vmd/tracks';
import { sampleBoneInto } from '../../../shared/vmd/sample';
import { motionReach, motionReachFrom, turnReach } from '../../../shared/scene/motion-reach';
import { buildVmd } from '../../../shared/vmd/vmd-build';
import { corpusPresent, readCorpus } from '../../helpers/corpus';

describe.skipIf(!corpusPresent)('motionReach', () => {
  it("holds センター at every frame of the CMU walk, and reaches well past frame 0's place", () => {
    const walk = readBvh(readCorpus('bvh11/resources/131_01.bvh'));
    if (!walk.ok) throw new Error(walk.error.message);
    const r = importBvh(walk.value, standardFigureModel(), {});
    if (!r.ok) throw new Error(r.error.message);
    const bones = buildTracks(r.value.doc).bones;
    const reach = motionReach(bones);
    const t = bones.names.indexOf('センター');
    const p = new Float64Array(3), q = new Float64Array(4);
    let x0 = Infinity, x1 = -Infinity, z0 = Infinity, z1 = -Infinity;
    for (let f = 0; f <= r.value.report.lastFrame; f += 0.5) {
      sampleBoneInto(bones, t, f, p, q, 0);
      x0 = Math.min(x0, p[0]); x1 = Math.max(x1, p[0]); z0 = Math.min(z0, p[2]); z1 = Math.max(z1, p[2]);
      expect(p[0], `X at ${f}`).toBeGreaterThanOrEqual(reach.minX - 1e-4);
      expect(p[0], `X at ${f}`).toBeLessThanOrEqual(reach.maxX + 1e-4);
      expect(p[2], `Z at ${f}`).toBeGreaterThanOrEqual(reach.minZ - 1e-4);
      expect(p[2], `Z at ${f}`).toBeLessThanOrEqual(reach.maxZ + 1e-4);
    }
    // No wider than the path (and the origin, where a model with no key stands) by more than a hair.
    expect(reach.minX).toBeCloseTo(Math.min(0, x0), 3);
    expect(reach.maxX).toBeCloseTo(Math.max(0, x1), 3);
    expect(reach.minZ).toBeCloseTo(Math.min(0, z0), 3);
    expect(reach.maxZ).toBeCloseTo(Math.max(0, z1), 3);
    expect(reach.maxZ - reach.minZ).toBeGreaterThan(10);
  });

  it('turnReach: a stage turned 90° takes a path along +Z onto +X, as the preview turns the model', () => {
    // The preview (companion-actors.ts placeObject) sets three.js rotation.y = −turn on a model whose MMD Z is
    // three.js's −Z: a point at MMD (0, 0, 10), three.js (0, 0, −10), turned by θ = −90° about Y
    // (x' = x cos θ + z sin θ) lands at three.js x' = (−10)·(−1) = 10, z' = 0: MMD X 10.
    const r = turnReach({ minX: 0, maxX: 0, minZ: 0, maxZ: 10 }, 90);
    expect(r.minX).toBeCloseTo(0, 6);
    expect(r.maxX).toBeCloseTo(10, 6);
    expect(r.minZ).toBeCloseTo(0, 6);
    expect(r.maxZ).toBeCloseTo(0, 6);
  });
});

describe('motionReachFrom', () => {
  // センター from X 0 (frame 0) to X 30 (frame 60), linear; 全ての親 at Z 4 throughout.
  const bones = buildTracks(
    buildVmd({
      bones: [
        { name: 'センター', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
        { name: 'センター', frame: 60, position: [30, 0, 0], rotation: [0, 0, 0, 1] },
        { name: '全ての親', frame: 0, position: [0, 0, 4], rotation: [0, 0, 0, 1] },
      ],
    }),
  ).bones;

  it('is the path as seen from where the body stands at that frame: all ahead at 0, all behind at 60, half each way at 30', () => {
    // The whole range is X 0…30 and Z 0…4 (the origin counts); the body stands at (0, 4) at frame 0, (15, 4) at 30
    // (halfway on a linear segment), (30, 4) at 60 and after.
    const at = (f: number) => motionReachFrom(bones, f);
    expect(at(0)).toEqual({ minX: 0, maxX: 30, minZ: -4, maxZ: 0 });
    expect(at(30).minX).toBeCloseTo(-15, 4);
    expect(at(30).maxX).toBeCloseTo(15, 4);
    expect(at(60)).toEqual({ minX: -30, maxX: 0, minZ: -4, maxZ: 0 });
    expect(at(90)).toEqual({ minX: -30, maxX: 0, minZ: -4, maxZ: 0 });
  });

  it('a motion that keeps the body in place reaches nowhere', () => {
    expect(motionReachFrom(buildTracks(buildVmd({ bones: [{ name: '上半身', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] }] })).bones, 10)).toEqual({ minX: 0, maxX: 0, minZ: 0, maxZ: 0 });
  });
});
