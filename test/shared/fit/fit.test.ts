// The curve-fitting engine (shared/fit): one segment's fit, rounding then re-check, turning points,
// camera cuts and fov, carry-over of bytes, order independence, and a property test over random
// tracks. Every error is measured by reading both motions back and playing them with the player
// (test/helpers/motion-error.ts) at every integer and half frame, never taken from the fitter.
import { describe, expect, it } from 'vitest';
import {
  BONE,
  CAMERA,
  blockFromRecords,
  buildBoneInterpolation,
  buildCameraInterpolation,
  buildTracks,
  curveProgress,
  emptyVmd,
  encodeBoneRecord,
  encodeCameraRecord,
  encodeIkRecord,
  encodeMorphRecord,
  frameOf,
  getBoneCurve,
  ikBlockFromRecords,
  getBoneCurves,
  readVmd,
  recordsOf,
  sampleBoneInto,
  writeVmd,
  type Curve,
  type VmdDocument,
} from '../../../shared/vmd';
import { bake, fitWindow, measureErrors, reduce, simplifyKeys, speedRefit, type SampledWindow } from '../../../shared/fit';
import { fitLinearFree } from '../../../shared/fit/linear-fit';
import { playedErrors } from '../../helpers/motion-error';
import { qmul } from '../../helpers/quat';
import { rng } from '../../helpers/rng';
import { bezierReference } from '../../helpers/bezier';
import { boneKeyBounds, morphKeyBounds } from './key-bounds';

const LIN: Curve = [20, 20, 107, 107];
const SLACK = 1e-6;

interface BoneKey {
  name: string | Uint8Array;
  frame: number;
  position: number[];
  rotation: number[];
  curves?: Curve[];
  flag?: [number, number];
}

function doc(bones: BoneKey[], morphs: { name: string; frame: number; weight: number }[] = [], camera: Uint8Array[] = []): VmdDocument {
  const base = emptyVmd('model');
  const recs = bones.map((k) => encodeBoneRecord({ ...k, interpolation: buildBoneInterpolation(k.curves ?? [LIN, LIN, LIN, LIN], k.flag) }));
  return { ...base, bone: blockFromRecords('bone', recs), morph: blockFromRecords('morph', morphs.map(encodeMorphRecord)), camera: blockFromRecords('camera', camera) };
}

function axisAngle(ax: number[], deg: number): number[] {
  const n = Math.hypot(ax[0], ax[1], ax[2]);
  const h = (deg * Math.PI) / 360;
  return [(ax[0] / n) * Math.sin(h), (ax[1] / n) * Math.sin(h), (ax[2] / n) * Math.sin(h), Math.cos(h)];
}

function ok(r: ReturnType<typeof reduce>): VmdDocument {
  if (!r.ok) throw new Error(r.error.message);
  return r.value.doc;
}

function boneFrames(d: VmdDocument, name: string): number[] {
  const t = buildTracks(d).bones;
  const i = t.index.get(name)!;
  return Array.from(t.frames.subarray(t.start[i], t.start[i + 1]));
}

describe('one segment', () => {
  const CURVES: Curve[] = [[40, 5, 90, 120], [10, 80, 60, 100], [64, 0, 64, 127], [100, 20, 30, 110], [127, 0, 0, 127], [0, 90, 30, 127]];

  it('recovers a known position curve exactly from its own samples', () => {
    for (const c of CURVES) {
      const L = 30;
      const v = new Float64Array(2 * L + 1).map((_, j) => 2 + 10 * curveProgress(c, j / (2 * L)));
      const fit = fitWindow({ g0: 0, g1: L, groups: [{ kind: 'curve', comps: [v], tol: 1e-6 }] });
      expect(fit.frames).toEqual([0, L]);
      expect(Array.from(fit.curves[1]!)).toEqual([...c]);
    }
  });

  it('recovers a known rotation timing exactly from its own samples', () => {
    const qa = axisAngle([1, 2, 3], 10), qb = axisAngle([0.5, -1, 2], 80);
    for (const c of CURVES) {
      const L = 40;
      const q = new Float64Array(4 * (2 * L + 1));
      for (let j = 0; j <= 2 * L; j++) {
        // slerp written out: qa·(qa⁻¹qb)^y
        const y = curveProgress(c, j / (2 * L));
        const d = qa[0] * qb[0] + qa[1] * qb[1] + qa[2] * qb[2] + qa[3] * qb[3];
        const th = Math.acos(Math.min(1, d));
        const sa = Math.sin((1 - y) * th) / Math.sin(th), sb = Math.sin(y * th) / Math.sin(th);
        for (let i = 0; i < 4; i++) q[4 * j + i] = sa * qa[i] + sb * qb[i];
      }
      const w: SampledWindow = { g0: 0, g1: L, groups: [{ kind: 'quat', q, tol: 1e-6 }] };
      const fit = fitWindow(w);
      expect(fit.frames).toEqual([0, L]);
      expect(Array.from(fit.curves[1]!)).toEqual([...c]);
    }
  });

  it('re-checks after rounding: where the nearest grid curve strays, the result still stays within tolerance', () => {
    // A curve between grid points, sampled on every frame of a baked track.
    const cf = [40.45 / 127, 5.5 / 127, 90.5 / 127, 119.55 / 127];
    // The Bézier solved by bisection, independently of shared/vmd/bezier.ts.
    const prog = (t: number) => bezierReference(cf[0], cf[1], cf[2], cf[3], t);
    const L = 60, range = 100;
    const rounded: Curve = [40, 6, 91, 120];
    let naive = 0;
    for (let f = 1; f < L; f++) naive = Math.max(naive, Math.abs(range * (prog(f / L) - curveProgress(rounded, f / L))));
    const tol = naive / 3;
    const keys: BoneKey[] = [];
    for (let f = 0; f <= L; f++) keys.push({ name: 'センター', frame: f, position: [range * prog(f / L), 0, 0], rotation: [0, 0, 0, 1] });
    const input = doc(keys);
    const out = ok(reduce(input, { position: tol }));
    expect(naive).toBeGreaterThan(tol);
    const e = playedErrors(input, out);
    expect(e.position).toBeLessThanOrEqual(tol + SLACK);
    expect(out.bone.count).toBeLessThan(input.bone.count / 4);
  });

  it('fits a bone that holds still as one segment with the linear curve, after a move and alone (float32 samples or not)', () => {
    // Position axes and rotation as a bone window holds them: a ramp on x over frames 0–40, then still to 400.
    const L = 400, M = 40, n = 2 * L + 1;
    const rot = axisAngle([1, 2, 3], 30);
    const q32 = new Float64Array(rot.map((v) => Math.fround(v)));
    const window = (ramp: boolean, rq: ArrayLike<number>): SampledWindow => {
      const x = new Float64Array(n).map((_, j) => (ramp ? Math.fround(2 * Math.min(j, 2 * M) / (2 * M)) : 2));
      const y = new Float64Array(n).fill(Math.fround(0.3)), z = new Float64Array(n).fill(-1);
      const q = new Float64Array(4 * n);
      for (let j = 0; j < n; j++) q.set(rq, 4 * j);
      return { g0: 0, g1: L, groups: [{ kind: 'curve', comps: [x], tol: 1e-4 }, { kind: 'curve', comps: [y], tol: 1e-4 }, { kind: 'curve', comps: [z], tol: 1e-4 }, { kind: 'quat', q, tol: (0.01 * Math.PI) / 180 }] };
    };
    const linear = [...LIN, ...LIN, ...LIN, ...LIN];
    // Still throughout: its two end keys. Float32 rotation samples (a reduce) and double ones (a re-timing's).
    for (const rq of [q32, rot]) {
      const still = fitWindow(window(false, rq));
      expect(still.frames).toEqual([0, L]);
      expect(Array.from(still.curves[1]!)).toEqual(linear);
    }
    // A move, then still: a key where the move stops and one segment for the hold.
    const moved = fitWindow(window(true, q32));
    expect(moved.frames).toEqual([0, M, L]);
    expect(Array.from(moved.curves[2]!)).toEqual(linear);
  });

  it('puts a key at each turning point (a curve cannot overshoot)', () => {
    const keys: BoneKey[] = [];
    for (let f = 0; f <= 60; f++) keys.push({ name: 'センター', frame: f, position: [5 * Math.sin((2 * Math.PI * f) / 60), 0, 0], rotation: [0, 0, 0, 1] });
    const input = doc(keys);
    const out = ok(reduce(input));
    const frames = boneFrames(out, 'センター');
    expect(frames).toContain(15);
    expect(frames).toContain(45);
    expect(frames.length).toBeLessThan(20);
    expect(playedErrors(input, out).position).toBeLessThanOrEqual(0.01 + SLACK);
  });

  it('splits a rotation that leaves the arc between its key rotations', () => {
    // Swing about X, then about Y: one slerp from start to end misses the corner by far more than 0.1°.
    const keys: BoneKey[] = [];
    for (let f = 0; f <= 40; f++) {
      const r = f <= 20 ? axisAngle([1, 0, 0], 2 * f) : qmul(axisAngle([0, 1, 0], 2 * (f - 20)), axisAngle([1, 0, 0], 40));
      keys.push({ name: '左腕', frame: f, position: [0, 0, 0], rotation: r });
    }
    const input = doc(keys);
    const out = ok(reduce(input));
    expect(boneFrames(out, '左腕')).toContain(20);
    expect(playedErrors(input, out).rotationDeg).toBeLessThanOrEqual(0.1 + SLACK);
  });
});

describe('camera', () => {
  const cam = (frame: number, target: number[], rotation: number[], distance: number, fov: number, curves?: Curve[]) =>
    encodeCameraRecord({ frame, target, rotation, distance, fov, interpolation: buildCameraInterpolation(curves ?? [LIN, LIN, LIN, LIN, LIN, LIN]) });

  it('keeps cuts as cuts and never fits across one', () => {
    const recs: Uint8Array[] = [];
    for (let f = 0; f <= 30; f += 2) recs.push(cam(f, [f * 0.3, 10 + Math.sin(f / 10), 0], [0.1, f * 0.01, 0], -40, 30));
    for (let f = 31; f <= 61; f += 2) recs.push(cam(f, [-5 + f * 0.1, 3, 2], [0.4, -f * 0.02, 0], -25, 30));
    const input = doc([], [], recs);
    const out = ok(reduce(input));
    const frames = Array.from(buildTracks(out).camera.frames);
    expect(frames).toContain(30);
    expect(frames).toContain(31);
    const gaps = frames.slice(1).map((f, i) => f - frames[i]);
    expect(gaps.filter((g) => g === 1)).toHaveLength(1);
    expect(frames.length).toBeLessThan(recs.length);
    // A name pattern picks bones and morphs only: the camera stays as it is.
    expect(Buffer.from(ok(reduce(input, { bones: '左*' })).camera.bytes)).toEqual(Buffer.from(input.camera.bytes));
    const e = playedErrors(input, out);
    expect(e.cameraTarget).toBeLessThanOrEqual(0.01 + SLACK);
    expect(e.cameraDistance).toBeLessThanOrEqual(0.01 + SLACK);
    expect(e.cameraAngleDeg).toBeLessThanOrEqual(0.1 + SLACK);
  });

  it('reports the cuts that show as cuts after a re-timing, and warns of one that merged', () => {
    // Cuts at 30→31 and 31→32: the middle shot is one input frame, less than one output frame at ×4,
    // so the two cuts merge into one (output 7 plays input 28, output 8 input 32); at ×1.5 both stay.
    const recs: Uint8Array[] = [];
    for (let f = 0; f <= 30; f += 3) recs.push(cam(f, [f * 0.3, 10, 0], [0.1, f * 0.01, 0], -40, 30));
    recs.push(cam(31, [5, 3, 2], [0.4, 0.2, 0], -25, 30));
    for (let f = 32; f <= 72; f += 4) recs.push(cam(f, [-5 + f * 0.1, 0, 2], [0.2, -f * 0.02, 0], -30, 40));
    const input = doc([], [], recs);
    const slow = speedRefit(input, { factor: 1.5 });
    if (!slow.ok) throw new Error(slow.error.message);
    expect(slow.value.report.extra.cameraCutsBefore).toBe(2);
    expect(slow.value.report.extra.cameraCutsKept).toBe(2);
    expect(slow.value.report.warnings).toEqual([]);
    const fast = speedRefit(input, { factor: 4 });
    if (!fast.ok) throw new Error(fast.error.message);
    expect(fast.value.report.extra.cameraCutsKept).toBe(1);
    expect(fast.value.report.warnings.join(' ')).toContain('1 camera cut fell inside one output frame');
    const frames = Array.from(buildTracks(fast.value.doc).camera.frames);
    expect(frames).toContain(7);
    expect(frames).toContain(8);
  });

  it('a re-timing puts no two keys one frame apart but at the input cut, where linear zig-zags turn between output frames', () => {
    // Sharp turns every 5 input frames (images at ×1.5 and ×2 mostly between output frames), one cut at 40→41.
    const recs: Uint8Array[] = [];
    for (let f = 0; f <= 40; f += 5) recs.push(cam(f, [(f / 5) % 2 ? 1 : -1, f * 0.05, (f / 5) % 3], [0.1 * ((f / 5) % 2), 0, 0], -30 - ((f / 5) % 2) * 2, 30));
    for (let f = 41; f <= 81; f += 5) recs.push(cam(f, [5 + ((f - 41) / 5) % 2, 2, 0], [0, 0.05 * (((f - 41) / 5) % 2), 0], -20, 30));
    const input = doc([], [], recs);
    for (const factor of [1.5, 2]) {
      const r = speedRefit(input, { factor });
      if (!r.ok) throw new Error(r.error.message);
      const frames = Array.from(buildTracks(r.value.doc).camera.frames);
      const units = frames.slice(1).filter((f, i) => f - frames[i] === 1);
      expect(units).toEqual([Math.ceil(41 / factor - 1e-9)]);
      expect(r.value.report.extra.cameraCutsAfter).toBe(1);
    }
  });

  it('stores fov as whole degrees and keeps angles past ±180° as they are', () => {
    const recs: Uint8Array[] = [];
    const ease: Curve = [40, 0, 80, 127];
    for (let f = 0; f <= 80; f += 2) {
      const t = f / 80;
      recs.push(cam(f, [0, 10, 0], [0, ((170 + 80 * t) * Math.PI) / 180, 0], -30, Math.round(20 + 40 * t * t), [LIN, LIN, LIN, LIN, LIN, ease]));
    }
    const input = doc([], [], recs);
    const out = ok(reduce(input));
    const ct = buildTracks(out).camera;
    expect(ct.frames.length).toBeLessThan(recs.length);
    // Fov values are whole numbers read back from the u32 field, and the played fov stays within ½° + tolerance.
    const e = playedErrors(input, out);
    expect(e.cameraFov).toBeLessThanOrEqual(0.5 + SLACK);
    expect(e.cameraAngleDeg).toBeLessThanOrEqual(0.1 + SLACK);
    const lastY = ct.rotation[3 * (ct.frames.length - 1) + 1];
    expect((lastY * 180) / Math.PI).toBeCloseTo(250, 3);
    for (let k = 0; k < ct.frames.length; k++) expect(ct.rotation[3 * k + 1]).toBeGreaterThan(Math.PI * (169 / 180));
  });
});

describe('what carries over', () => {
  it('keeps name bytes, physics bytes 2–3 and the model name; untouched tracks stay byte-identical', () => {
    const odd = new Uint8Array(15);
    odd.set([0x8d, 0xb6, 0x98, 0x72, 0, 0xfd, 0x33]); // 左腕 + bytes after the NUL
    const keys: BoneKey[] = [];
    for (let f = 0; f <= 40; f++) keys.push({ name: odd, frame: f, position: [f * 0.1, 0, 0], rotation: axisAngle([0, 0, 1], f), flag: [99, 15] });
    for (let f = 0; f <= 40; f += 5) keys.push({ name: '右腕', frame: f, position: [0, 0, 0], rotation: axisAngle([1, 0, 0], f) });
    const input = doc(keys);
    const out = ok(reduce(input, { bones: '左腕' }));
    expect(Array.from(out.modelName)).toEqual(Array.from(input.modelName));
    const recs = recordsOf(out.bone);
    const left = recs.filter((r) => r[0] === 0x8d);
    expect(left.length).toBeLessThan(41);
    for (const r of left) {
      expect(Array.from(r.subarray(0, 15))).toEqual(Array.from(odd));
      expect([r[BONE.INTERPOLATION + 2], r[BONE.INTERPOLATION + 3]]).toEqual([99, 15]);
    }
    const rightIn = recordsOf(input.bone).filter((r) => r[0] === 0x89).map((r) => Buffer.from(r).toString('hex'));
    const rightOut = recs.filter((r) => r[0] === 0x89).map((r) => Buffer.from(r).toString('hex'));
    expect(rightOut).toEqual(rightIn);
  });

  it('counts the records a refitted track repeated on one frame as dropped (never silently)', () => {
    const keys: BoneKey[] = [];
    for (let f = 0; f <= 30; f++) keys.push({ name: 'センター', frame: f, position: [f * 0.1, 0, 0], rotation: [0, 0, 0, 1] });
    keys.push({ name: 'センター', frame: 10, position: [9, 9, 9], rotation: [0, 0, 0, 1] }); // a repeat: the first in the file plays
    const r = reduce(doc(keys));
    if (!r.ok) throw new Error(r.error.message);
    const c = r.value.report.byKind.bone;
    expect(c.kept + c.added).toBe(r.value.doc.bone.count);
    expect(c.kept + c.dropped).toBe(32);
  });

  it('leaves a file with nothing to gain byte-identical', () => {
    const keys: BoneKey[] = [0, 10, 20].map((f) => ({ name: 'センター', frame: f, position: [f, 0, 0], rotation: [0, 0, 0, 1] }));
    keys[1].position = [3, 2, 0];
    const input = doc(keys);
    expect(Buffer.from(writeVmd(ok(reduce(input))))).toEqual(Buffer.from(writeVmd(input)));
  });

  it('does not depend on the order of records in the file', () => {
    const r = rng(7);
    const keys: BoneKey[] = [];
    for (const name of ['センター', '左腕', '右腕'])
      for (let f = 0; f <= 50; f++) keys.push({ name, frame: f, position: [Math.sin(f / 7 + name.length), r() * 0.001, 0], rotation: axisAngle([1, name.length, 0], 30 * Math.sin(f / 9)) });
    const morphs = Array.from({ length: 40 }, (_, f) => ({ name: 'あ', frame: f, weight: Math.abs(Math.sin(f / 5)) }));
    const a = doc(keys, morphs);
    const shuffled = [...keys];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
    }
    const b = doc(shuffled, [...morphs].reverse());
    const oa = writeVmd(ok(reduce(a))), ob = writeVmd(ok(reduce(b)));
    expect(oa.length).toBeLessThan(writeVmd(a).length);
    expect(Buffer.from(ob)).toEqual(Buffer.from(oa));
  });
});

describe('tolerance is never exceeded (random tracks)', () => {
  function randomDoc(seed: number): VmdDocument {
    const r = rng(seed);
    const keys: BoneKey[] = [];
    const morphs: { name: string; frame: number; weight: number }[] = [];
    const names = ['センター', '上半身', '左腕', '右腕', '頭', '左足ＩＫ'];
    for (const name of names) {
      let f = Math.floor(r() * 5);
      let q = axisAngle([r() - 0.5, r() - 0.5, r() - 0.5], r() * 90);
      const n = 2 + Math.floor(r() * 12);
      for (let i = 0; i < n; i++) {
        const cv = (): Curve => [Math.floor(r() * 128), Math.floor(r() * 128), Math.floor(r() * 128), Math.floor(r() * 128)];
        keys.push({ name, frame: f, position: [r() * 4 - 2, r() * 4 - 2, r() - 0.5], rotation: q, curves: [cv(), cv(), cv(), cv()] });
        f += 1 + Math.floor(r() * 12);
        q = qmul(axisAngle([r() - 0.5, r() - 0.5, r() - 0.5], r() * 70), q);
      }
    }
    for (let f = 0; f < 60; f += 1 + Math.floor(r() * 6)) morphs.push({ name: 'まばたき', frame: f, weight: r() });
    // Small bumps: corners a key a little off its sample can serve from both sides.
    for (let f = 0; f < 90; f += 1 + Math.floor(r() * 4)) morphs.push({ name: 'あ', frame: f, weight: 0.3 + 0.02 * r() });
    return doc(keys, morphs);
  }

  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`reduce, bake then reduce, and speed refits stay within tolerance (seed ${seed})`, () => {
      const input = randomDoc(seed);
      const tol = { position: 0.01, rotationDeg: 0.1, morph: 0.005 };
      const check = (e: ReturnType<typeof playedErrors>) => {
        expect(e.position).toBeLessThanOrEqual(tol.position + SLACK);
        expect(e.rotationDeg).toBeLessThanOrEqual(tol.rotationDeg + SLACK);
        expect(e.morph).toBeLessThanOrEqual(tol.morph + SLACK);
      };
      const red = ok(reduce(input, tol));
      check(playedErrors(input, red));
      const baked = ok(bake(input));
      const be = playedErrors(input, baked, { halfFrames: false });
      expect(be.position).toBeLessThan(1e-6); // float32 storage of interpolated values
      expect(be.rotationDeg).toBeLessThan(1e-4);
      const reduced = ok(reduce(baked, tol));
      expect(reduced.bone.count).toBeLessThan(baked.bone.count / 2);
      check(playedErrors(baked, reduced));
      for (const factor of [1.5, 0.5, 0.7]) {
        const sp = ok(speedRefit(input, { factor, ...tol }));
        check(playedErrors(input, sp, { factor, halfFrames: false }));
        // No fit within tolerance beats a sound lower bound: a cross-check of the bound and the fit.
        const lb = (bs: { lowerBound: number }[]) => bs.reduce((n, b) => n + b.lowerBound, 0);
        expect(sp.morph.count).toBeGreaterThanOrEqual(lb(morphKeyBounds(input, factor, tol.morph + SLACK)));
        expect(sp.bone.count).toBeGreaterThanOrEqual(lb(boneKeyBounds(input, factor, tol.position + SLACK, tol.rotationDeg + SLACK)));
      }
    });
  }

  it('bakes a key on every frame, exact at every integer frame', () => {
    const input = randomDoc(11);
    const out = ok(bake(input));
    const t = buildTracks(out).bones;
    for (let i = 0; i < t.names.length; i++) {
      const fr = t.frames.subarray(t.start[i], t.start[i + 1]);
      for (let k = 1; k < fr.length; k++) expect(fr[k] - fr[k - 1]).toBe(1);
    }
    const e = playedErrors(input, out, { halfFrames: false });
    expect(e.position).toBeLessThan(1e-6);
    expect(e.morph).toBeLessThan(1e-7);
    // Re-read: the file is valid and the curves are on the grid.
    const back = readVmd(writeVmd(out));
    expect(back.ok).toBe(true);
    const ip = out.bone.bytes.subarray(BONE.INTERPOLATION, BONE.INTERPOLATION + 64);
    for (const v of getBoneCurve(ip, 0)) expect(v).toBeLessThanOrEqual(127);
    expect(CAMERA.SIZE).toBe(61);
  });
});

describe('measureErrors (what the CLI reports)', () => {
  it('finds a known offset and a known rotation between two motions, at the half frame where it peaks', () => {
    const a = doc([0, 10].map((f) => ({ name: 'センター', frame: f, position: [0, 0, 0], rotation: [0, 0, 0, 1] })));
    const b = doc([
      { name: 'センター', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
      { name: 'センター', frame: 1, position: [0, 0.5, 0], rotation: axisAngle([0, 1, 0], 30) },
      { name: 'センター', frame: 2, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
      { name: 'センター', frame: 10, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
    ]);
    const e = measureErrors(a, b);
    expect(e.position).toBeCloseTo(0.5, 6);
    expect(e.rotationDeg).toBeCloseTo(30, 4);
    // Speed mapping: b at g against a at 2g.
    const c = doc([0, 20].map((f) => ({ name: 'センター', frame: f, position: [f, 0, 0], rotation: [0, 0, 0, 1] })));
    const d = doc([0, 10].map((f) => ({ name: 'センター', frame: f, position: [2 * f, 0, 0], rotation: [0, 0, 0, 1] })));
    expect(measureErrors(c, d, { factor: 2 }).position).toBeLessThan(1e-6);
    expect(measureErrors(c, d).position).toBeGreaterThan(5);
  });

  it('reports the largest rotation error of many bones whose errors grow and shrink near it, as the player measures it', () => {
    // Only samples that may exceed the largest error so far are measured exactly (mayExceed): here every
    // bone's error climbs towards the tolerance from below and the largest is reached late, by a bone
    // after others came within 0.1% of it, so a filter that dropped a sample it should not would be seen.
    const r = rng(31);
    const a: BoneKey[] = [], b: BoneKey[] = [];
    const names = ['左腕', '右腕', '左ひじ', '右ひじ', '首', '頭'];
    names.forEach((name, n) => {
      for (let f = 0; f <= 40; f += 4) {
        const base = axisAngle([r() - 0.5, r() - 0.5, r() - 0.5], 90 * r());
        const off = axisAngle([r() - 0.5, r() - 0.5, r() - 0.5], 0.1 * (0.99 + 0.001 * n) * Math.sin((Math.PI * f) / 40));
        a.push({ name, frame: f, position: [0, 0, 0], rotation: base });
        b.push({ name, frame: f, position: [0, 0, 0], rotation: qmul(off, base) });
      }
    });
    const e = measureErrors(doc(a), doc(b));
    const p = playedErrors(doc(a), doc(b));
    expect(e.rotationDeg).toBeGreaterThan(0.099);
    expect(Math.abs(e.rotationDeg - p.rotationDeg)).toBeLessThan(1e-9);
    // A rotation that is not a number (a damaged file) is reported as such, not passed over.
    const broken = b.map((k, i) => (i === 30 ? { ...k, rotation: [NaN, 0, 0, 1] } : k));
    expect(measureErrors(doc(a), doc(broken)).rotationDeg).toBeNaN();
  });
});

describe('simplify on selected keys (the editor)', () => {
  it('refits only the selected tracks between the first and the last selected key', () => {
    const keys: BoneKey[] = [];
    for (let f = 0; f <= 60; f++) keys.push({ name: 'センター', frame: f, position: [Math.sin(f / 9), 0, 0], rotation: [0, 0, 0, 1] });
    for (let f = 0; f <= 60; f++) keys.push({ name: '左腕', frame: f, position: [0, 0, 0], rotation: axisAngle([1, 0, 0], f) });
    const input = doc(keys);
    // Records 10..40 are センター's keys at frames 10..40.
    const sel = Array.from({ length: 31 }, (_, i) => ({ kind: 'bone' as const, record: 10 + i }));
    const out = ok(simplifyKeys(input, sel));
    const c = boneFrames(out, 'センター');
    for (let f = 0; f <= 10; f++) expect(c).toContain(f);
    for (let f = 40; f <= 60; f++) expect(c).toContain(f);
    expect(c.length).toBeLessThan(61 - 10);
    expect(boneFrames(out, '左腕')).toHaveLength(61);
    const e = playedErrors(input, out);
    expect(e.position).toBeLessThanOrEqual(0.01 + SLACK);
    expect(e.rotationDeg).toBeLessThanOrEqual(0.1 + SLACK);
    expect(simplifyKeys(input, []).ok).toBe(false);
  });
});

describe('linear tracks (morphs) with free key values', () => {
  const play = (frames: number[], values: number[], f: number) => {
    let k = 0;
    while (k + 1 < frames.length && frames[k + 1] <= f) k++;
    if (k + 1 >= frames.length || f <= frames[k]) return values[k];
    return values[k] + (values[k + 1] - values[k]) * ((f - frames[k]) / (frames[k + 1] - frames[k]));
  };

  it('puts keys exactly at the corners of a track that is linear between integer frames', () => {
    const corners = [[0, 0], [5, 1], [9, 0.2], [14, 0.2], [20, 0.9]];
    const s = new Float64Array(2 * 20 + 1);
    for (let j = 0; j < s.length; j++) s[j] = play(corners.map((c) => c[0]), corners.map((c) => c[1]), j / 2);
    const fit = fitLinearFree(s, 2, 0, 20, 0.005)!;
    expect(fit.frames).toEqual([0, 5, 9, 14, 20]);
    for (let j = 0; j < s.length; j++) expect(Math.abs(play(fit.frames, fit.values, j / 2) - s[j])).toBeLessThanOrEqual(0.005);
  });

  it('moves keys off their samples where that saves a key (pinned values need one more)', () => {
    // Samples 0, 0.017, 0.006, 0.014, 0 within 0.005, ends pinned. Pinned keys 0,1,3,4 play frame 2 at
    // (0.017 + 0.014)/2 = 0.0155 (0.0095 off), so pinning needs all 5; with keys at 1 and 3 lowered to
    // 0.012 and 0.009 (each 0.005 off) frame 2 plays 0.0105, within 0.005 of 0.006: 4 keys. Three
    // cannot do: 0,2,4 plays frame 1 at ≤ 0.0055 (needs ≥ 0.012); 0,1,4 plays frame 3 at ≤ 0.0073
    // (needs ≥ 0.009); 0,3,4 plays frame 1 at ≤ 0.0063.
    const s = Float64Array.from([0, 0.017, 0.006, 0.014, 0]);
    const pinned = fitWindow({ g0: 0, g1: 4, perFrame: 1, groups: [{ kind: 'linear', comps: [s], tol: 0.005 }] });
    expect(pinned.frames).toEqual([0, 1, 2, 3, 4]);
    const fit = fitLinearFree(s, 1, 0, 4, 0.005)!;
    expect(fit.frames).toEqual([0, 1, 3, 4]);
    for (let j = 0; j < s.length; j++) expect(Math.abs(play(fit.frames, fit.values, j) - s[j])).toBeLessThanOrEqual(0.005);
    expect(fit.values[0]).toBe(0); // the ends stay pinned
    expect(fit.values[3]).toBe(0);
  });

  it('re-times a corner that falls between output frames with its peak on the nearest frame, and no fit can do with fewer', () => {
    // Keys 0:0, 2:1, 4:0 at ×1.5: output frames 0…3 play input 0, 1.5, 3, 4.5 = 0, 0.75, 0.5, 0, but the
    // peak 1 plays at 1.33, between frames 1 and 2: it is shown at frame 1 (the nearer), which then plays 1.
    // 0, 1, 0.5, 0: the line from 1@1 to 0@3 plays 0.5 at 2, and no line through 0, 1, 0.5 or a hold of 0
    // and 1 meets the rest: keys at 0, 1 and 3. (Before, the fit met 0, 0.75, 0.5, 0 with 4 keys and never
    // reached 1: a blink at ×1.5 lost a quarter of its height, or all of it.)
    const d = doc([], [{ name: 'あ', frame: 0, weight: 0 }, { name: 'あ', frame: 2, weight: 1 }, { name: 'あ', frame: 4, weight: 0 }]);
    const out = ok(speedRefit(d, { factor: 1.5 }));
    const m = buildTracks(out).morphs;
    expect(Array.from(m.frames)).toEqual([0, 1, 3]);
    expect(Array.from(m.weight)).toEqual([0, 1, 0]);
    expect(morphKeyBounds(d, 1.5, 0.005)[0].lowerBound).toBe(3);
    expect(playedErrors(d, out, { factor: 1.5, halfFrames: false }).morph).toBeLessThanOrEqual(0.005 + SLACK);
  });

  it('re-times a track whose two keys hold one value as one key (bones and morphs)', () => {
    const q = axisAngle([0, 1, 0], 30);
    const d = doc([{ name: '頭', frame: 0, position: [1, 2, 3], rotation: q }, { name: '頭', frame: 30, position: [1, 2, 3], rotation: q }], [{ name: 'あ', frame: 0, weight: 0.5 }, { name: 'あ', frame: 30, weight: 0.5 }]);
    const out = ok(speedRefit(d, { factor: 1.5 }));
    expect(out.bone.count).toBe(1);
    expect(out.morph.count).toBe(1);
    const e = playedErrors(d, out, { factor: 1.5, halfFrames: false });
    expect(e.position).toBe(0);
    expect(e.morph).toBe(0);
  });
});

describe('bone keys off their samples when re-timing', () => {
  /** Rotation angle (degrees) from orientation s to the nearest orientation on the great circle through a and b. */
  const circleDistanceDeg = (a: number[], b: number[], s: number[]) => {
    const unit = (q: number[]) => {
      const n = Math.hypot(...q);
      return q.map((x) => x / n);
    };
    const u1 = unit(a), bb = unit(b), ss = unit(s);
    const d = u1.reduce((acc, x, i) => acc + x * bb[i], 0);
    const u2 = unit(bb.map((x, i) => x - d * u1[i]));
    const p1 = ss.reduce((acc, x, i) => acc + x * u1[i], 0), p2 = ss.reduce((acc, x, i) => acc + x * u2[i], 0);
    return (2 * Math.asin(Math.min(1, Math.sqrt(Math.max(0, 1 - p1 * p1 - p2 * p2)))) * 180) / Math.PI;
  };

  it('carries a rotation corner that falls between output frames with one key where keys on their samples need two', () => {
    // 6° about X over input frames 0..4, then 5° more about an axis 30° from X over 4..12 (linear), at
    // ×1.5: output frames 0…8 play input 0, 1.5, …, 12, and the corner (input 4) falls at output 2⅔.
    const q0 = [0, 0, 0, 1], q1 = axisAngle([1, 0, 0], 6);
    const q2 = qmul(axisAngle([Math.cos(Math.PI / 6), Math.sin(Math.PI / 6), 0], 5), q1);
    const d = doc([{ name: '頭', frame: 0, position: [0, 0, 0], rotation: q0 }, { name: '頭', frame: 4, position: [0, 0, 0], rotation: q1 }, { name: '頭', frame: 12, position: [0, 0, 0], rotation: q2 }]);
    const tb = buildTracks(d).bones;
    const pos = [0, 0, 0];
    const sample = (g: number) => {
      const r = [0, 0, 0, 1];
      sampleBoneInto(tb, 0, g * 1.5, pos, r, 0);
      return r;
    };
    // With every key on its sample, no three keys 0, x, 8 (and not 0, 8 alone) can play it: some frame
    // lies more than 0.1° off the great circle of its segment's keys, and a curve only times the slerp
    // along that circle. So such a fit needs four keys or more.
    const offArc = (a: number, b: number) => {
      let worst = 0;
      for (let g = a + 1; g < b; g++) worst = Math.max(worst, circleDistanceDeg(sample(a), sample(b), sample(g)));
      return worst;
    };
    expect(offArc(0, 8)).toBeGreaterThan(0.1);
    for (let x = 1; x < 8; x++) expect(Math.max(offArc(0, x), offArc(x, 8))).toBeGreaterThan(0.1);
    const out = ok(speedRefit(d, { factor: 1.5 }));
    expect(boneFrames(out, '頭')).toHaveLength(3);
    expect(playedErrors(d, out, { factor: 1.5, halfFrames: false }).rotationDeg).toBeLessThanOrEqual(0.1 + SLACK);
    // The middle key is off its sample (within the tolerance: the key plays its own frame).
    const mid = boneFrames(out, '頭')[1];
    const stored = [0, 0, 0, 1];
    sampleBoneInto(buildTracks(out).bones, 0, mid, pos, stored, 0);
    const at = sample(mid);
    const off = (2 * Math.acos(Math.min(1, Math.abs(stored.reduce((acc, x, i) => acc + x * at[i], 0)) / Math.hypot(...stored))) * 180) / Math.PI;
    expect(off).toBeGreaterThan(0.01);
    expect(off).toBeLessThanOrEqual(0.1);
  });
});

describe('the search of the whole 0..127 grid (re-timing)', () => {
  /**
   * Curves of the grid, most with a control point at or near a corner of the square (a steep start or
   * end: what a short segment across a re-timed corner needs), drawn with a seed, and the segment
   * lengths (integer frames, as a re-timing samples) the search takes on.
   */
  const draw = rng(1207);
  const edge = () => (draw() < 0.5 ? Math.floor(draw() * 12) : 127 - Math.floor(draw() * 12));
  const any = () => Math.floor(draw() * 128);
  const cases: { c: Curve; L: number }[] = [];
  for (let k = 0; k < 120; k++) {
    const c: Curve = [k % 3 === 0 ? any() : edge(), edge(), k % 3 === 1 ? any() : edge(), any()];
    cases.push({ c, L: 3 + Math.floor(draw() * 30) });
  }
  for (const c of [[8, 1, 8, 5], [0, 127, 3, 127], [127, 0, 127, 2], [1, 126, 126, 0]] as Curve[]) for (const L of [4, 9, 17, 32]) cases.push({ c, L });

  /**
   * The window of one segment of L frames whose samples play curve c exactly: a bone position axis or
   * rotation (searched in a re-timing with free values), or the camera's three angles under one curve
   * (searched in a re-timing: `search`).
   */
  const windowOf = (c: Curve, L: number, kind: 'curve' | 'quat' | 'angles', searched: boolean): SampledWindow => {
    if (kind === 'curve') {
      const v = new Float64Array(L + 1).map((_, j) => 1 + 3 * curveProgress(c, j / L));
      return { g0: 0, g1: L, perFrame: 1, groups: [{ kind: 'curve', comps: [v], tol: 0.01 }], freeValues: searched };
    }
    if (kind === 'angles') {
      // Angles (radians) from (0.1, −0.2, 3) to (0.6, −0.2, 3.9): one channel holds still, as often.
      const comps = [0.5, 0, 0.9].map((d, k) => new Float64Array(L + 1).map((_, j) => [0.1, -0.2, 3][k] + d * curveProgress(c, j / L)));
      return { g0: 0, g1: L, perFrame: 1, groups: [{ kind: 'curve', comps, tol: (0.1 * Math.PI) / 180 }], search: searched };
    }
    const qa = axisAngle([1, 2, 3], 10), qb = axisAngle([0.5, -1, 2], 70);
    const d = qa.reduce((acc, x, i) => acc + x * qb[i], 0);
    const th = Math.acos(Math.min(1, d));
    const q = new Float64Array(4 * (L + 1));
    for (let j = 0; j <= L; j++) {
      const y = curveProgress(c, j / L);
      const sa = Math.sin((1 - y) * th) / Math.sin(th), sb = Math.sin(y * th) / Math.sin(th);
      for (let i = 0; i < 4; i++) q[4 * j + i] = sa * qa[i] + sb * qb[i];
    }
    return { g0: 0, g1: L, perFrame: 1, groups: [{ kind: 'quat', q, tol: (0.1 * Math.PI) / 180 }], freeValues: searched };
  };

  it('finds a curve for every segment some grid curve plays within tolerance, where the least-squares fit alone misses many', () => {
    for (const kind of ['curve', 'quat', 'angles'] as const) {
      let missed = 0;
      for (const { c, L } of cases) {
        // Without the search (no re-timing): the fit's own curves, which miss corner curves.
        if (fitWindow(windowOf(c, L, kind, false)).frames.length > 2) missed++;
        const w = windowOf(c, L, kind, true);
        const fit = fitWindow(w);
        expect(fit.frames, `${kind} (${c.join(',')}) over ${L} frames`).toEqual([0, L]);
        // Played back independently of the fitter: within tolerance at every frame.
        const got = fit.curves[1]!;
        for (let j = 1; j < L; j++) {
          const y = curveProgress([got[0], got[1], got[2], got[3]], j / L), yTrue = curveProgress(c, j / L);
          if (kind === 'curve') expect(Math.abs(3 * (y - yTrue))).toBeLessThanOrEqual(0.01 + SLACK);
          else if (kind === 'angles') expect((Math.abs(0.9 * (y - yTrue)) * 180) / Math.PI).toBeLessThanOrEqual(0.1 + SLACK);
          else expect(Math.abs(y - yTrue) * 60).toBeLessThanOrEqual(0.1 + SLACK); // 60°: the arc from qa to qb
        }
      }
      console.log(`${kind}: the least-squares fit alone missed ${missed} of ${cases.length} grid curves; the search found every one`);
      expect(missed).toBeGreaterThan(cases.length / 10);
    }
  });

  it('splits where no grid curve plays the samples (a step sharper than any cubic), within tolerance', () => {
    for (const L of [6, 12, 24]) {
      // Progress 0 for the first half, 1 from the frame after: no curve of the square turns that fast.
      const v = new Float64Array(L + 1).map((_, j) => (j <= L / 2 ? 0 : 1));
      const w: SampledWindow = { g0: 0, g1: L, perFrame: 1, groups: [{ kind: 'curve', comps: [v], tol: 0.01 }], freeValues: true };
      const fit = fitWindow(w);
      expect(fit.frames.length).toBeGreaterThan(2);
      for (let k = 1; k < fit.frames.length; k++) {
        const a = fit.frames[k - 1], b = fit.frames[k], c = fit.curves[k]!;
        const va = fit.values ? fit.values[k - 1][0] : v[a], vb = fit.values ? fit.values[k][0] : v[b];
        for (let f = a + 1; f < b; f++) {
          const played = va + (vb - va) * curveProgress([c[0], c[1], c[2], c[3]], (f - a) / (b - a));
          expect(Math.abs(played - v[f])).toBeLessThanOrEqual(0.01 + SLACK);
        }
      }
    }
  });
});

describe('re-timing where input keys play at output frames', () => {
  it("keeps the input's own curves on a segment between two consecutive input keys (×0.5: key k plays at 2k)", () => {
    // Three keys close together with uneven curves: the few output frames between them leave the fit
    // free to choose among many curves, and the input's own curve, which plays the re-timed segment
    // exactly (a curve times its segment as a fraction of it), is the one kept.
    const qa = [0, 0, 0, 1], qb = axisAngle([0, 1, 0], 40), qc = axisAngle([0, 1, 0], 75);
    const cx: Curve = [97, 3, 11, 121], cr: Curve = [64, 0, 100, 127], cy: Curve = [5, 90, 33, 44];
    const keys: BoneKey[] = [
      { name: '右腕', frame: 0, position: [0, 0, 0], rotation: qa },
      { name: '右腕', frame: 2, position: [2, 1, 0], rotation: qb, curves: [cx, cy, LIN, cr] },
      { name: '右腕', frame: 5, position: [3, -1, 0], rotation: qc, curves: [cr, cx, LIN, cy] },
    ];
    const d = doc(keys);
    const out = ok(speedRefit(d, { factor: 0.5 }));
    expect(boneFrames(out, '右腕')).toEqual([0, 4, 10]);
    const r = buildTracks(out).bones;
    const curvesAt = (i: number) => getBoneCurves(out.bone.bytes.subarray(r.record[i] * BONE.SIZE + BONE.INTERPOLATION, r.record[i] * BONE.SIZE + BONE.INTERPOLATION + BONE.INTERPOLATION_LENGTH));
    expect(curvesAt(1)).toEqual([cx, cy, LIN, cr]);
    expect(curvesAt(2)).toEqual([cr, cx, LIN, cy]);
    expect(playedErrors(d, out, { factor: 0.5, halfFrames: false }).rotationDeg).toBeLessThanOrEqual(1e-4);
  });

  it('keeps long hand-made segments whole at a tight tolerance (reduce and ×0.5): the input curve is tried from each key', () => {
    // Segments of 40–80 frames with uneven curves: at 1e-6 units / 1e-5° no part of one is a curve on
    // the 0..127 grid, so a fit that only grows segments from short ones keeps a key on nearly every
    // frame; the input's own curve from each key plays its whole segment exactly.
    const cx: Curve = [97, 3, 11, 121], cr: Curve = [64, 0, 100, 127], cy: Curve = [5, 90, 33, 44];
    const keys: BoneKey[] = [
      { name: '左腕', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
      { name: '左腕', frame: 40, position: [2, 1, 0], rotation: axisAngle([0, 1, 0], 40), curves: [cx, cy, LIN, cr] },
      { name: '左腕', frame: 120, position: [3, -1, 0.5], rotation: axisAngle([1, 1, 0], 75), curves: [cr, cx, cy, cy] },
      { name: '左腕', frame: 190, position: [0, 0, 1], rotation: axisAngle([0, 0, 1], -30), curves: [cy, cr, cx, cx] },
    ];
    const d = doc(keys);
    const tight = { position: 1e-6, rotationDeg: 1e-5 };
    const reduced = ok(reduce(d, tight));
    expect(boneFrames(reduced, '左腕')).toEqual([0, 40, 120, 190]);
    const slow = ok(speedRefit(d, { factor: 0.5, ...tight }));
    expect(boneFrames(slow, '左腕')).toEqual([0, 80, 240, 380]);
    const r = buildTracks(slow).bones;
    const curvesAt = (i: number) => getBoneCurves(slow.bone.bytes.subarray(r.record[i] * BONE.SIZE + BONE.INTERPOLATION, r.record[i] * BONE.SIZE + BONE.INTERPOLATION + BONE.INTERPOLATION_LENGTH));
    expect([curvesAt(1), curvesAt(2), curvesAt(3)]).toEqual([keys[1].curves, keys[2].curves, keys[3].curves]);
  });
});

describe('key lower bounds (test/shared/fit/key-bounds.ts)', () => {
  it('finds the key a rotation turning back along one axis needs (the played rotation moves one way along its arc)', () => {
    // 0→20° about X over frames 0..10, back to 0° over 10..20, at ×1: one plane holds every sample
    // (so the wedge test alone allows one segment), but 0..20 turns back by 40°: 3 keys.
    const q0 = [0, 0, 0, 1], q1 = axisAngle([1, 0, 0], 20);
    const d = doc([{ name: '頭', frame: 0, position: [0, 0, 0], rotation: q0 }, { name: '頭', frame: 10, position: [0, 0, 0], rotation: q1 }, { name: '頭', frame: 20, position: [0, 0, 0], rotation: q0 }]);
    expect(boneKeyBounds(d, 1, 0.01, 0.1)[0].lowerBound).toBe(3);
  });

  it('finds the keys a bone position turning between output frames needs on both sides', () => {
    // x: keys 0:0, 2:1, 4:0 (linear curves) at ×1.5 plays 0, 0.75, 0.5, 0, 0 at output 0…4. Frames 0..2
    // rise then fall by 0.25 (not monotonic within 0.01), frames 0..1 do not hold one value, frames 2..4
    // do not either: a key at 0, one at 1, and the last at 3 or later; [1, 3] is monotonic: 3 keys.
    const q = [0, 0, 0, 1];
    const d = doc([{ name: 'センター', frame: 0, position: [0, 0, 0], rotation: q }, { name: 'センター', frame: 2, position: [1, 0, 0], rotation: q }, { name: 'センター', frame: 4, position: [0, 0, 0], rotation: q }]);
    expect(boneKeyBounds(d, 1.5, 0.01, 0.1)[0].lowerBound).toBe(3);
  });

  it('finds the key a rotation changing axis needs (the samples leave every plane through the origin)', () => {
    // 0→30° about X over frames 0..10, then 30° about Y on top over 10..20, at ×1: frames 0..20 cannot
    // be one slerp (the corner at 10 is far from the arc 0→20), while each half is one: 3 keys.
    const q0 = [0, 0, 0, 1], q1 = axisAngle([1, 0, 0], 30), q2 = qmul(axisAngle([0, 1, 0], 30), q1);
    const d = doc([{ name: '頭', frame: 0, position: [0, 0, 0], rotation: q0 }, { name: '頭', frame: 10, position: [0, 0, 0], rotation: q1 }, { name: '頭', frame: 20, position: [0, 0, 0], rotation: q2 }]);
    expect(boneKeyBounds(d, 1, 0.01, 0.1)[0].lowerBound).toBe(3);
  });
});

describe('re-timing a capture: every input frame a sample (samplesPerFrame)', () => {
  // A dense track as a capture gives it: a key on every input frame (120 fps), played at ×4 (30 fps).
  const keys: BoneKey[] = [];
  for (let f = 0; f <= 160; f++) {
    keys.push({ name: 'センター', frame: f, position: [5 * Math.sin(f / 9), 2 * Math.cos(f / 13), f * 0.05], rotation: qmul(axisAngle([0, 1, 0], 60 * Math.sin(f / 15)), axisAngle([1, 0, 0], 10 * Math.sin(f / 7))) });
  }
  const input = doc(keys);
  const angleDeg = (p: number[], q: number[]) => (2 * Math.acos(Math.min(1, Math.abs(p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3]))) * 180) / Math.PI;
  function slerp(p: number[], q: number[], t: number): number[] {
    let d = p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3];
    const s = d < 0 ? -1 : 1;
    d = Math.min(1, d * s);
    const th = Math.acos(d);
    if (th < 1e-12) return p.slice();
    const wa = Math.sin((1 - t) * th) / Math.sin(th), wb = (s * Math.sin(t * th)) / Math.sin(th);
    return [0, 1, 2, 3].map((c) => wa * p[c] + wb * q[c]);
  }
  /**
   * Over the input frames f between output frames: how far out, played at f/4, is from the input at f
   * beyond what no keys on whole frames can reach (per position axis, outside the range of the input at
   * the two output frames around f; the rotation, off the arc between the input's rotations there).
   */
  function excess(out: VmdDocument): { position: number; rotationDeg: number; unreachable: number } {
    const a = buildTracks(input).bones, b = buildTracks(out).bones;
    const at = (t: typeof a, f: number) => {
      const p = [0, 0, 0], r = [0, 0, 0, 1];
      sampleBoneInto(t, 0, f, p, r, 0);
      return { p, r };
    };
    let position = 0, rotationDeg = 0, unreachable = 0;
    for (let f = 1; f < 160; f++) {
      if (f % 4 === 0) continue;
      const x = at(a, f), y = at(b, f / 4), l = at(a, f - (f % 4)), h = at(a, f - (f % 4) + 4);
      for (let c = 0; c < 3; c++) {
        const far = Math.max(0, Math.min(l.p[c], h.p[c]) - x.p[c], x.p[c] - Math.max(l.p[c], h.p[c]));
        unreachable = Math.max(unreachable, far);
        position = Math.max(position, Math.abs(x.p[c] - y.p[c]) - far);
      }
      let arc = Infinity;
      for (let i = 0; i <= 2000; i++) arc = Math.min(arc, angleDeg(slerp(l.r, h.r, i / 2000), x.r));
      rotationDeg = Math.max(rotationDeg, angleDeg(x.r, y.r) - arc);
    }
    return { position, rotationDeg, unreachable };
  }

  it('holds the frames between output frames within tolerance too, as far as keys on whole frames reach them; the default holds only the output frames', () => {
    const every = speedRefit(input, { factor: 4, samplesPerFrame: 4 });
    const grid = speedRefit(input, { factor: 4 });
    if (!every.ok || !grid.ok) throw new Error('refused');
    const e = excess(every.value.doc), g = excess(grid.value.doc);
    console.log(`[fit] ×4 capture, between output frames, beyond the reach of whole-frame keys (${e.unreachable.toFixed(3)} units unreachable): ${e.position.toFixed(4)} / ${e.rotationDeg.toFixed(3)}° with every input frame a sample (${every.value.doc.bone.count} keys), ${g.position.toFixed(4)} / ${g.rotationDeg.toFixed(3)}° with output frames only (${grid.value.doc.bone.count} keys)`);
    expect(e.unreachable).toBeGreaterThan(0.05); // the sines turn back between output frames: the reach matters here
    expect(e.position).toBeLessThanOrEqual(0.02 + SLACK);
    expect(e.rotationDeg).toBeLessThanOrEqual(0.5 + 1e-2);
    expect(g.position).toBeGreaterThan(0.02);
    // At the output frames both hold the tolerance.
    for (const d of [every.value.doc, grid.value.doc]) {
      const p = playedErrors(input, d, { factor: 4, halfFrames: false });
      expect(p.position).toBeLessThanOrEqual(0.02 + SLACK);
      expect(p.rotationDeg).toBeLessThanOrEqual(0.5 + 1e-3);
    }
  });

  it('lastFrame ends every track there: 162 frames at ×4 end at 161/4 = 40.25, and the key at 40 plays input frame 160', () => {
    const longer = doc([...keys, { name: 'センター', frame: 161, position: [9, 9, 9], rotation: [0, 0, 0, 1] }]);
    // An IK step on the last input frame too: it shows from the first output frame that reaches it (41), or the last one.
    const ik = encodeIkRecord({ frame: 161, visible: 1, iks: [{ name: '右足ＩＫ', enabled: 0 }] });
    const withIk = { ...longer, ik: ikBlockFromRecords([ik]) };
    const free = speedRefit(withIk, { factor: 4, samplesPerFrame: 4 });
    const capped = speedRefit(withIk, { factor: 4, samplesPerFrame: 4, lastFrame: 40 });
    if (!free.ok || !capped.ok) throw new Error('refused');
    expect(Math.max(...boneFrames(free.value.doc, 'センター'))).toBe(41);
    expect(Math.max(...boneFrames(capped.value.doc, 'センター'))).toBe(40);
    expect(frameOf(capped.value.doc.ik, 0)).toBe(40);
    expect(frameOf(free.value.doc.ik, 0)).toBe(41);
    // At 40 the input's frame 160 (the sines), not frame 161's jump to (9, 9, 9).
    const p = [0, 0, 0], r = [0, 0, 0, 1];
    sampleBoneInto(buildTracks(capped.value.doc).bones, 0, 40, p, r, 0);
    const want = [5 * Math.sin(160 / 9), 2 * Math.cos(160 / 13), 160 * 0.05];
    for (let c = 0; c < 3; c++) expect(Math.abs(p[c] - want[c])).toBeLessThanOrEqual(0.02 + SLACK);
    for (const n of [-1, 2.5]) expect(!speedRefit(input, { factor: 4, lastFrame: n }).ok).toBe(true);
  });

  it('refuses a samplesPerFrame that is not a whole number from 1 to 16', () => {
    for (const n of [0, 2.5, 17]) {
      const r = speedRefit(input, { factor: 4, samplesPerFrame: n });
      expect(!r.ok && r.error.code).toBe('E_ARGUMENT');
    }
  });
});
