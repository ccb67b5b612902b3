// Property tests of the edits over every real VMD in ../shared/corpus (read-only, never copied here).
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { corpusDir } from '../../helpers/corpus';
import { buildTracks, readVmd, samplePose, writeVmd, type VmdDocument, type MotionTracks } from '../../../shared/vmd';
import { merge, mirror, shift, speed, trim } from '../../../shared/motion-ops';

const CORPUS = corpusDir;

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(dir).sort()) {
    const p = path.join(dir, n);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (n.toLowerCase().endsWith('.vmd')) out.push(p);
  }
  return out;
}

const files = walk(CORPUS);
const load = (f: string): { bytes: Uint8Array; doc: VmdDocument } => {
  const bytes = new Uint8Array(readFileSync(f));
  const r = readVmd(bytes);
  if (!r.ok) throw new Error(`${f}: ${r.error.message}`);
  return { bytes, doc: r.value };
};
const rel = (f: string) => path.relative(CORPUS, f);

/** Angle between two quaternions in degrees, written independently of the code under test. */
function angleDeg(a: number[], b: number[]): number {
  const na = Math.hypot(...a), nb = Math.hypot(...b);
  const dot = Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]) / (na * nb);
  // sin of half the angle from the chord length, accurate for small angles
  const d = Math.min(
    Math.hypot(a[0] / na - b[0] / nb, a[1] / na - b[1] / nb, a[2] / na - b[2] / nb, a[3] / na - b[3] / nb),
    Math.hypot(a[0] / na + b[0] / nb, a[1] / na + b[1] / nb, a[2] / na + b[2] / nb, a[3] / na + b[3] / nb),
  );
  void dot;
  return (4 * Math.asin(Math.min(1, d / 2)) * 180) / Math.PI;
}

/** Every (name, frame) pair and record count per kind, read independently from the records. */
function keyPairs(doc: VmdDocument): { bone: string[]; morph: string[]; camera: string[] } {
  const bone: string[] = [], morph: string[] = [], camera: string[] = [];
  for (let i = 0; i < doc.bone.count; i++) {
    const o = i * 111;
    bone.push(Buffer.from(doc.bone.bytes.subarray(o, o + 15)).toString('latin1').split('\0')[0] + '@' + doc.bone.view.getUint32(o + 15, true));
  }
  for (let i = 0; i < doc.morph.count; i++) {
    const o = i * 23;
    morph.push(Buffer.from(doc.morph.bytes.subarray(o, o + 15)).toString('latin1').split('\0')[0] + '@' + doc.morph.view.getUint32(o + 15, true));
  }
  for (let i = 0; i < doc.camera.count; i++) camera.push('@' + doc.camera.view.getUint32(i * 61, true));
  return { bone, morph, camera };
}

describe('edits over the corpus', () => {
  it('finds the corpus', () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
  });

  it('mirror twice is byte-identical for every corpus VMD; a key the mirror leaves equal keeps its bytes (no +0 → −0)', () => {
    // Fields the mirror negates, by FORMAT.md's layout: bone position X (19), rotation Y, Z (35, 39);
    // camera target X (8), angles Y, Z (24, 28); light direction X (16). Records keep their order.
    const negated = { bone: { size: 111, at: [19, 35, 39] }, camera: { size: 61, at: [8, 24, 28] }, light: { size: 28, at: [16] } } as const;
    let identical = 0, flipped = 0;
    for (const f of files) {
      const { bytes, doc } = load(f);
      const once = mirror(doc);
      if (!once.ok) throw new Error(`${rel(f)}: mirror refused`);
      for (const kind of ['bone', 'camera', 'light'] as const) {
        const { size, at } = negated[kind];
        const a = doc[kind], b = once.value.doc[kind];
        expect(b.count, rel(f)).toBe(a.count);
        let changed = 0;
        for (let i = 0; i < a.count; i++) {
          const o = i * size;
          const rin = a.bytes.subarray(o, o + size), rout = b.bytes.subarray(o, o + size);
          // The same name (no side): every value the mirror maps to itself (an exact zero, +0 or −0) keeps its
          // four bytes; every other one differs from its input in the sign bit alone.
          const sameName = kind !== 'bone' || Buffer.compare(Buffer.from(rin.subarray(0, 15)), Buffer.from(rout.subarray(0, 15))) === 0;
          let allZero = true;
          for (const c of at) {
            const x = a.view.getFloat32(o + c, true), bitsIn = a.view.getUint32(o + c, true), bitsOut = b.view.getUint32(o + c, true);
            if (x === 0) expect(bitsOut, `${rel(f)} ${kind} ${i} +${c}`).toBe(bitsIn);
            else {
              allZero = false;
              expect((bitsOut ^ bitsIn) >>> 0, `${rel(f)} ${kind} ${i} +${c}`).toBe(0x80000000);
            }
          }
          const same = Buffer.compare(Buffer.from(rin), Buffer.from(rout)) === 0;
          if (sameName && allZero) {
            expect(same, `${rel(f)} ${kind} ${i}`).toBe(true);
            identical++;
          } else flipped++;
          if (!same) changed++;
        }
        // The report counts the keys whose bytes changed.
        expect(once.value.report.byKind[kind].changed, `${rel(f)} ${kind}`).toBe(changed);
      }
      const twice = mirror(once.value.doc);
      if (!twice.ok) throw new Error(`${rel(f)}: mirror refused`);
      expect(Buffer.compare(Buffer.from(writeVmd(twice.value.doc)), Buffer.from(bytes)), rel(f)).toBe(0);
    }
    // The corpus has both: keys at rest on centre bones (babylon-mmd's physics_toggle_test files are all
    // such keys) and keys that do change.
    expect(identical).toBeGreaterThan(100);
    expect(flipped).toBeGreaterThan(10_000);
  });

  it('mirror swaps 左/右 names and negates x / rotation y,z on wavefile_v2', () => {
    const f = files.find((x) => x.endsWith('wavefile_v2.vmd'))!;
    const { doc } = load(f);
    const r = mirror(doc);
    if (!r.ok) throw new Error('mirror failed');
    const a = buildTracks(doc), b = buildTracks(r.value.doc);
    expect(a.bones.index.has('左腕')).toBe(true);
    const pa = samplePose(a, 100), pb = samplePose(b, 100);
    const l = pa.bones['左腕'], rr = pb.bones['右腕'];
    expect(rr.position[0]).toBeCloseTo(-l.position[0], 6);
    expect(rr.rotation[1]).toBeCloseTo(-l.rotation[1], 6);
    expect(rr.rotation[2]).toBeCloseTo(-l.rotation[2], 6);
    expect(rr.rotation[3]).toBeCloseTo(l.rotation[3], 6);
    expect(r.value.report.extra.namesSwapped).toBeGreaterThan(0);
  });

  it('shift +N then −N is byte-identical', () => {
    for (const f of files) {
      const { bytes, doc } = load(f);
      const up = shift(doc, { by: 37 });
      if (!up.ok) throw new Error(up.error.message);
      const down = shift(up.value.doc, { by: -37 });
      if (!down.ok) throw new Error(down.error.message);
      expect(Buffer.compare(Buffer.from(writeVmd(down.value.doc)), Buffer.from(bytes)), rel(f)).toBe(0);
      // and −N without --clip fails when a key is at frame < N
      if (doc.bone.count && buildTracks(doc).bones.frames.some((x) => x < 5)) expect(shift(doc, { by: -5 }).ok).toBe(false);
    }
  });

  it('speed ×2: collision counts match a brute-force count, per kind', () => {
    for (const f of files) {
      const { doc } = load(f);
      const r = speed(doc, { factor: 2 });
      if (!r.ok) throw new Error(r.error.message);
      const pairs = keyPairs(doc);
      // Camera keys follow the cut rule instead (a cut's second key one frame after its first): see
      // 'speed keeps camera cuts' below.
      for (const kind of ['bone', 'morph'] as const) {
        // brute force: count records whose (name, round(frame/2)) equals that of any earlier record
        const list = pairs[kind].map((p) => {
          const [n, fr] = [p.slice(0, p.lastIndexOf('@')), Number(p.slice(p.lastIndexOf('@') + 1))];
          return { n, fr: Math.floor(fr / 2 + 0.5) };
        });
        let brute = 0;
        const byName = new Map<string, number[]>();
        for (const k of list) {
          const prev = byName.get(k.n) ?? [];
          if (prev.includes(k.fr)) brute++;
          else prev.push(k.fr);
          byName.set(k.n, prev);
        }
        // Morph keys that land on a frame a peak keeps go to a free frame beside it when there is one
        // (speed.ts, morphFrames): moved, not lost.
        const moved = kind === 'morph' ? r.value.report.extra.morphKeysMoved : 0;
        expect(r.value.report.byKind[kind].collisions + moved, `${rel(f)} ${kind}`).toBe(brute);
        expect(r.value.report.byKind[kind].kept + r.value.report.byKind[kind].collisions).toBe(pairs[kind].length);
      }
      // slowing down never collides: only (name, frame) pairs the file already repeats are dropped
      const slow = speed(doc, { factor: 0.5 });
      if (!slow.ok) throw new Error(slow.error.message);
      const repeats = (['bone', 'morph', 'camera'] as const).reduce((s, k) => s + pairs[k].length - new Set(pairs[k]).size, 0);
      expect(slow.value.report.collisions, rel(f)).toBe(repeats);
    }
  });

  it('merge (concatenate) keeps all keys with zero duplicates', () => {
    const docs = files.slice(0, 8).map((f) => load(f).doc);
    const r = merge(docs, { gap: 1 });
    if (!r.ok) throw new Error(r.error.message);
    // some corpus files already repeat a (name, frame) pair; those repeats are the only keys dropped
    const unique = (k: 'bone' | 'morph' | 'camera') => docs.reduce((s, d) => s + new Set(keyPairs(d)[k]).size, 0);
    const all = (k: 'bone' | 'morph' | 'camera') => docs.reduce((s, d) => s + d[k].count, 0);
    expect(r.value.doc.bone.count).toBe(unique('bone'));
    expect(r.value.doc.morph.count).toBe(unique('morph'));
    expect(r.value.report.collisions).toBe(all('bone') - unique('bone') + all('morph') - unique('morph'));
    expect(all('bone') - unique('bone')).toBeLessThan(20);
    const pairs = keyPairs(r.value.doc);
    expect(new Set(pairs.bone).size).toBe(pairs.bone.length);
    expect(new Set(pairs.morph).size).toBe(pairs.morph.length);
    // round trip through bytes keeps it
    const back = readVmd(writeVmd(r.value.doc));
    expect(back.ok).toBe(true);
  });

  it('merge of a file with itself without a gap: every key of the second copy at frame 0 collides', () => {
    const { doc } = load(files.find((x) => x.endsWith('walk.vmd'))!);
    const atZero = keyPairs(doc).bone.filter((p) => p.endsWith('@0')).length;
    const r = merge([doc, doc], { overlay: true });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.report.collisions).toBe(doc.bone.count);
    expect(r.value.doc.bone.count).toBe(doc.bone.count);
    expect(atZero).toBeGreaterThan(0);
  });

  describe('trim with hold', () => {
    const cases = files
      .map((f) => ({ f, ...load(f) }))
      .map((c) => ({ ...c, tracks: buildTracks(c.doc) }))
      .filter((c) => c.tracks.lastFrame >= 8);
    for (const c of cases) {
      it(`pose at output 0 = input pose at A, and the range plays the same: ${rel(c.f)}`, () => {
        const last = c.tracks.lastFrame;
        const A = Math.floor(last * 0.37) + 1;
        const B = Math.floor(last * 0.71) + 1;
        const r = trim(c.doc, { from: A, to: B });
        if (!r.ok) throw new Error(r.error.message);
        const out = buildTracks(readVmdOrThrow(writeVmd(r.value.doc)));
        checkRange(c.tracks, out, A, B, r.value.report.extra);
        // Re-fitting keeps the error at quantisation level: without it these files show up to
        // 0.55 units and 4° (measured on swim.vmd and elytraFly.vmd).
        expect(r.value.report.extra.maxPositionError).toBeLessThan(0.01);
        expect(r.value.report.extra.maxRotationErrorDeg).toBeLessThan(0.15);
        expect(r.value.report.extra.maxCameraPositionError).toBeLessThan(0.01);
        // trimmed length
        expect(out.lastFrame).toBeLessThanOrEqual(B - A);
      });
    }
  });
});

function readVmdOrThrow(b: Uint8Array): VmdDocument {
  const r = readVmd(b);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const F32 = 2e-4; // float32 noise for values up to a few hundred units
const ROT_NOISE = 2e-3; // degrees

function checkRange(inT: MotionTracks, outT: MotionTracks, A: number, B: number, extra: Record<string, number>): void {
  const p0 = samplePose(inT, A), q0 = samplePose(outT, 0);
  for (const [name, b] of Object.entries(p0.bones)) {
    const o = q0.bones[name];
    if (!o) {
      // dropped tracks must be at rest
      expect(Math.hypot(...b.position), name).toBeLessThan(1e-5);
      expect(angleDeg(b.rotation, [0, 0, 0, 1]), name).toBeLessThan(1e-3);
      continue;
    }
    for (let i = 0; i < 3; i++) expect(Math.abs(o.position[i] - b.position[i]), `${name} pos`).toBeLessThan(F32);
    expect(angleDeg(o.rotation, b.rotation), `${name} rot`).toBeLessThan(ROT_NOISE);
  }
  for (const [name, w] of Object.entries(p0.morphs)) {
    const o = q0.morphs[name];
    if (o === undefined) expect(Math.abs(w), name).toBeLessThan(1e-6);
    else expect(Math.abs(o - w), name).toBeLessThan(1e-6);
  }
  if (p0.camera) {
    const o = q0.camera!;
    for (let i = 0; i < 3; i++) expect(Math.abs(o.target[i] - p0.camera.target[i])).toBeLessThan(F32);
    expect(Math.abs(o.distance - p0.camera.distance)).toBeLessThan(F32);
    expect(Math.abs(o.fov - p0.camera.fov)).toBeLessThanOrEqual(0.5);
  }
  // Between keys: the whole range, every quarter frame for bones and morphs, whole frames for the camera.
  let worstPos = 0, worstRot = 0;
  for (let f = A; f <= B; f += 0.25) {
    const p = samplePose(inT, f), q = samplePose(outT, f - A);
    for (const [name, b] of Object.entries(p.bones)) {
      const o = q.bones[name];
      if (!o) continue;
      for (let i = 0; i < 3; i++) worstPos = Math.max(worstPos, Math.abs(o.position[i] - b.position[i]));
      worstRot = Math.max(worstRot, angleDeg(o.rotation, b.rotation));
    }
    for (const [name, w] of Object.entries(p.morphs)) {
      const o = q.morphs[name];
      expect(Math.abs((o ?? 0) - w), `${name} @${f}`).toBeLessThan(1e-5);
    }
    if (p.camera && Number.isInteger(f)) {
      const o = q.camera!;
      for (let i = 0; i < 3; i++) expect(Math.abs(o.target[i] - p.camera.target[i])).toBeLessThanOrEqual(extra.maxCameraPositionError + F32);
      expect(Math.abs(o.distance - p.camera.distance)).toBeLessThanOrEqual(extra.maxCameraPositionError + F32);
    }
  }
  expect(worstPos).toBeLessThanOrEqual(extra.maxPositionError + F32);
  expect(worstRot).toBeLessThanOrEqual(extra.maxRotationErrorDeg + ROT_NOISE);
}

describe('speed keeps camera cuts', () => {
  it('keeps camera cuts as cuts at any factor (the second key one frame after the first), on wavefile_camera.vmd', () => {
    const r0 = readVmd(new Uint8Array(readFileSync(path.join(CORPUS, 'threejs/vmds/wavefile_camera.vmd'))));
    if (!r0.ok) throw new Error(r0.error.message);
    const frames = (d: VmdDocument) => Array.from({ length: d.camera.count }, (_, i) => new DataView(d.camera.bytes.buffer, d.camera.bytes.byteOffset + i * d.camera.size).getUint32(0, true)).sort((a, b) => a - b);
    const cutsOf = (f: number[]) => f.filter((x, i) => i > 0 && x - f[i - 1] === 1).length;
    const inCuts = cutsOf(frames(r0.value));
    expect(inCuts).toBe(29);
    for (const factor of [0.5, 0.75, 1.5, 2]) {
      const r = speed(r0.value, { factor });
      if (!r.ok) throw new Error(r.error.message);
      const f = frames(r.value.doc);
      expect(cutsOf(f), `×${factor}`).toBe(inCuts);
      expect(r.value.report.byKind.camera.collisions, `×${factor}`).toBe(0);
      expect(f.length).toBe(r0.value.camera.count);
    }
  });
});

describe('trim and shift without hold keys report what they change', () => {
  // The pose error was reported as 0 there (nothing was measured); now it is the largest difference
  // between the input at f and the output at f − A over the kept range, which this test measures itself
  // over every bone and every quarter frame (a bone the output lost plays its rest pose).
  const worst = (inT: MotionTracks, outT: MotionTracks, A: number, B: number) => {
    let pos = 0, rot = 0;
    for (let f = A; f <= B; f += 0.25) {
      const p = samplePose(inT, f), q = samplePose(outT, f - A);
      for (const [name, b] of Object.entries(p.bones)) {
        const o = q.bones[name] ?? { position: [0, 0, 0], rotation: [0, 0, 0, 1] };
        pos = Math.max(pos, ...b.position.map((v, i) => Math.abs(v - o.position[i])));
        rot = Math.max(rot, angleDeg(b.rotation, o.rotation));
      }
    }
    return { pos, rot };
  };
  const laugh = files.find((f) => f.endsWith('02_laugh.vmd'))!;

  it('trim --no-hold on 02_laugh.vmd: the reported errors are the measured ones (well above zero)', () => {
    const { doc } = load(laugh);
    const r = trim(doc, { from: 10, to: 100, hold: false });
    if (!r.ok) throw new Error(r.error.message);
    const m = worst(buildTracks(doc), buildTracks(r.value.doc), 10, 100);
    expect(m.rot).toBeGreaterThan(1);
    expect(r.value.report.extra.maxRotationErrorDeg).toBeCloseTo(m.rot, 6);
    expect(r.value.report.extra.maxPositionError).toBeCloseTo(m.pos, 6);
  });

  it('shift −10 --clip --no-hold says how far the first frames stray; with hold they stay put', () => {
    const { doc } = load(laugh);
    const last = buildTracks(doc).lastFrame;
    const loose = shift(doc, { by: -10, clip: true, hold: false });
    const held = shift(doc, { by: -10, clip: true });
    if (!loose.ok || !held.ok) throw new Error('shift failed');
    const m = worst(buildTracks(doc), buildTracks(loose.value.doc), 10, last);
    expect(m.rot).toBeGreaterThan(1);
    expect(loose.value.report.extra.maxRotationErrorDeg).toBeCloseTo(m.rot, 6);
    expect(held.value.report.extra.maxRotationErrorDeg).toBeLessThan(0.1);
  });
});
