/**
 * buildTracks against an independent, deliberately simple construction: every record read one by
 * one through the field accessors (records.ts, interpolation.ts), grouped by decoded name in a Map,
 * stably sorted by frame with Array.prototype.sort, later duplicates of a (name, frame) dropped.
 * indexBoneTracks and boneTrackOf (one track's values at a time, for the fitter) give the same, track
 * by track. Run over every corpus VMD, over seeded random motions built to hit the fast paths' edges
 * (interleaved and grouped bones, shuffled and reversed tracks, duplicates, padding garbage after the
 * NUL, names cut mid-character, hundreds of names), and over small hand-worked cases.
 */
import { describe, expect, it } from 'vitest';
import {
  boneInterpolation,
  boneName,
  bonePosition,
  boneRotation,
  boneTrackOf,
  buildTracks,
  cameraInterpolation,
  cameraKey,
  frameOf,
  getBoneCurves,
  getCameraCurves,
  indexBoneTracks,
  lightKey,
  morphName,
  morphWeight,
  readVmd,
  type Block,
  type MotionTracks,
  type NamedTracks,
  type VmdDocument,
} from '../../shared/vmd';
import { groupByName } from '../../shared/vmd/tracks';
import { corpusFiles, corpusPresent, readCorpus, relName } from '../helpers/corpus';
import { lcg as rng } from '../helpers/rng';
import { SJIS, buildFixture, interpBlock, type FixtureBone } from '../helpers/vmd-fixtures';

interface RefTrack {
  name: string;
  records: number[]; // kept records, by frame
  frames: number[];
}

/** Groups records by name (first appearance order), sorts each group by frame (stable), keeps the first of equal frames. */
function reference(block: Block, nameOf: ((i: number) => string) | null): { tracks: RefTrack[]; duplicates: number } {
  const groups = new Map<string, number[]>();
  for (let i = 0; i < block.count; i++) {
    const name = nameOf ? nameOf(i) : '';
    if (!groups.has(name)) groups.set(name, []);
    groups.get(name)!.push(i);
  }
  const tracks: RefTrack[] = [];
  let duplicates = 0;
  for (const [name, recs] of groups) {
    const sorted = [...recs].sort((a, b) => frameOf(block, a) - frameOf(block, b) || a - b);
    const records: number[] = [];
    const frames: number[] = [];
    for (const r of sorted) {
      const f = frameOf(block, r);
      if (frames.length > 0 && frames[frames.length - 1] === f) {
        duplicates++;
        continue;
      }
      records.push(r);
      frames.push(f);
    }
    tracks.push({ name, records, frames });
  }
  return { tracks, duplicates };
}

/** Flattens reference tracks into the struct-of-arrays shape for direct comparison. */
function flat(ref: { tracks: RefTrack[] }) {
  const start = [0];
  const record: number[] = [];
  const frames: number[] = [];
  for (const t of ref.tracks) {
    record.push(...t.records);
    frames.push(...t.frames);
    start.push(record.length);
  }
  return { names: ref.tracks.map((t) => t.name), start, record, frames };
}

const f32 = (xs: number[]) => Array.from(new Float32Array(xs));

/** Checks every field of buildTracks(doc) against the reference; returns the tracks. */
function expectMatchesReference(doc: VmdDocument, label = ''): MotionTracks {
  const t = buildTracks(doc);

  /** The name index of a named block (bones, morphs) against the reference; returns the flattened reference. */
  const named = (block: Block, nameOf: (i: number) => string, got: NamedTracks) => {
    const ref = reference(block, nameOf);
    const r = flat(ref);
    expect(got.names, `${label} ${block.kind}`).toEqual(r.names);
    expect(Array.from(got.start), `${label} ${block.kind}`).toEqual(r.start);
    expect(Array.from(got.record), `${label} ${block.kind}`).toEqual(r.record);
    expect(Array.from(got.frames), `${label} ${block.kind}`).toEqual(r.frames);
    expect(got.duplicates, `${label} ${block.kind}`).toBe(ref.duplicates);
    expect([...got.index.entries()], `${label} ${block.kind}`).toEqual(r.names.map((n, k) => [n, k]));
    return r;
  };
  const b = named(doc.bone, (i) => boneName(doc.bone, i), t.bones);
  expect(Array.from(t.bones.position), label).toEqual(f32(b.record.flatMap((r) => bonePosition(doc.bone, r))));
  expect(Array.from(t.bones.rotation), label).toEqual(f32(b.record.flatMap((r) => boneRotation(doc.bone, r))));
  expect(Array.from(t.bones.curves), label).toEqual(b.record.flatMap((r) => getBoneCurves(boneInterpolation(doc.bone, r)).flat()));
  // The fitter's one-track-at-a-time form: the same order, and each track's values decoded alone.
  const order = indexBoneTracks(doc.bone);
  expect([order.names, Array.from(order.start), Array.from(order.frames), Array.from(order.record), order.duplicates], label).toEqual([t.bones.names, Array.from(t.bones.start), Array.from(t.bones.frames), Array.from(t.bones.record), t.bones.duplicates]);
  for (let i = 0; i < order.names.length; i++) {
    const one = boneTrackOf(doc.bone, order, i), a = t.bones.start[i], e = t.bones.start[i + 1];
    expect([one.names, Array.from(one.start), Array.from(one.frames), Array.from(one.record)], `${label} ${order.names[i]}`).toEqual([[order.names[i]], [0, e - a], Array.from(t.bones.frames.subarray(a, e)), Array.from(t.bones.record.subarray(a, e))]);
    expect([Array.from(one.position), Array.from(one.rotation), Array.from(one.curves)], `${label} ${order.names[i]}`).toEqual([Array.from(t.bones.position.subarray(3 * a, 3 * e)), Array.from(t.bones.rotation.subarray(4 * a, 4 * e)), Array.from(t.bones.curves.subarray(16 * a, 16 * e))]);
  }

  const m = named(doc.morph, (i) => morphName(doc.morph, i), t.morphs);
  expect(Array.from(t.morphs.weight), label).toEqual(f32(m.record.map((r) => morphWeight(doc.morph, r))));

  const unnamed = (block: Block, got: { record: Uint32Array; frames: Uint32Array; duplicates: number }) => {
    const ref = reference(block, null);
    const r = flat(ref);
    expect(Array.from(got.record), `${label} ${block.kind}`).toEqual(r.record);
    expect(Array.from(got.frames), `${label} ${block.kind}`).toEqual(r.frames);
    expect(got.duplicates, `${label} ${block.kind}`).toBe(ref.duplicates);
    return r.record;
  };
  const cams = unnamed(doc.camera, t.camera);
  const keys = cams.map((r) => cameraKey(doc.camera, r));
  expect(Array.from(t.camera.distance), label).toEqual(f32(keys.map((k) => k.distance)));
  expect(Array.from(t.camera.target), label).toEqual(f32(keys.flatMap((k) => k.target)));
  expect(Array.from(t.camera.rotation), label).toEqual(f32(keys.flatMap((k) => k.rotation)));
  expect(Array.from(t.camera.fov), label).toEqual(f32(keys.map((k) => k.fov)));
  expect(Array.from(t.camera.perspective), label).toEqual(keys.map((k) => k.perspective));
  expect(Array.from(t.camera.curves), label).toEqual(cams.flatMap((r) => getCameraCurves(cameraInterpolation(doc.camera, r)).flat()));
  const lights = unnamed(doc.light, t.light).map((r) => lightKey(doc.light, r));
  expect(Array.from(t.light.color), label).toEqual(f32(lights.flatMap((k) => k.color)));
  expect(Array.from(t.light.direction), label).toEqual(f32(lights.flatMap((k) => k.direction)));
  unnamed(doc.shadow, t.shadow);
  unnamed(doc.ik, t.ik);

  let last = 0;
  for (const block of [doc.bone, doc.morph, doc.camera, doc.light, doc.shadow, doc.ik] as Block[])
    for (let i = 0; i < block.count; i++) last = Math.max(last, frameOf(block, i));
  expect(t.lastFrame, label).toBe(last);
  return t;
}

function docOf(bytes: Uint8Array): VmdDocument {
  const r = readVmd(bytes);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe.skipIf(!corpusPresent)('buildTracks on the corpus', () => {
  const files = corpusFiles('.vmd');
  it('finds the corpus motions', () => expect(files.length).toBeGreaterThan(10));
  for (const f of files) {
    it(`matches the simple construction: ${relName(f)}`, () => {
      expectMatchesReference(docOf(readCorpus(f)), relName(f));
    });
  }
});

describe('buildTracks, hand-worked', () => {
  it('groups interleaved names, sorts each track by frame and keeps the first key of a (name, frame)', () => {
    const bones: FixtureBone[] = [
      { name: 'A', frame: 10, pos: [1, 0, 0] }, // 0
      { name: 'B', frame: 0, pos: [2, 0, 0] }, // 1
      { name: 'A', frame: 5, pos: [3, 0, 0] }, // 2
      { name: 'B', frame: 0, pos: [4, 0, 0] }, // 3: duplicate of 1
      { name: 'A', frame: 10, pos: [5, 0, 0] }, // 4: duplicate of 0, not adjacent to it in the file
      { name: 'A', frame: 0, pos: [6, 0, 0] }, // 5
    ];
    const t = buildTracks(docOf(buildFixture({ bones })));
    expect(t.bones.names).toEqual(['A', 'B']);
    expect(Array.from(t.bones.start)).toEqual([0, 3, 4]);
    expect(Array.from(t.bones.frames)).toEqual([0, 5, 10, 0]);
    expect(Array.from(t.bones.record)).toEqual([5, 2, 0, 1]);
    expect(Array.from(t.bones.position).filter((_, k) => k % 3 === 0)).toEqual([6, 3, 1, 2]);
    expect(t.bones.duplicates).toBe(2);
    expect(t.lastFrame).toBe(10);
  });

  it('treats bytes after the NUL as padding and a name cut mid-character as the name without it', () => {
    const cut = [...SJIS.センター, ...SJIS.左腕, 0x98, 0x72, 0x8d]; // 15 bytes: the last is half a character
    const whole = [...SJIS.センター, ...SJIS.左腕, 0x98, 0x72]; // the same name, 14 bytes
    const bones: FixtureBone[] = [
      { name: [0x41, 0, 0x55, 0x66], frame: 3 }, // "A" with garbage after the NUL
      { name: cut, frame: 1 },
      { name: 'A', frame: 1 },
      { name: whole, frame: 0 },
      { name: [0x41, 0, 0x77], frame: 2 },
      { name: [0x41, 0x42], frame: 2 }, // "AB" is another bone
    ];
    const t = buildTracks(docOf(buildFixture({ bones })));
    expect(t.bones.names).toEqual(['A', 'センター左腕腕', 'AB']);
    expect(Array.from(t.bones.start)).toEqual([0, 3, 5, 6]);
    expect(Array.from(t.bones.frames)).toEqual([1, 2, 3, 0, 1, 2]);
    expect(Array.from(t.bones.record)).toEqual([2, 4, 0, 3, 1, 5]);
  });

  it('gives names that decode alike one track, whichever spelling comes first (pairs CP932 maps twice, a cut character)', () => {
    // ≒ is both 81E0 and 8790 in CP932; "AB" followed by a lead byte cut by the NUL decodes as "AB". Names
    // spelt in units no other spelling stands in for skip the index's lookup (issue 31): these may not.
    const nearlyEqual1 = [0x81, 0xe0], nearlyEqual2 = [0x87, 0x90], cutAB = [0x41, 0x42, 0x82];
    const first: { name: number[] | string; frame: number }[] = [
      { name: nearlyEqual1, frame: 4 }, // 0
      { name: 'A', frame: 1 }, // 1
      { name: nearlyEqual2, frame: 2 }, // 2: ≒ again
      { name: 'AB', frame: 0 }, // 3
      { name: cutAB, frame: 3 }, // 4: AB again
      { name: 'A', frame: 0 }, // 5
    ];
    // The plain spelling first, the one that decodes alike after it.
    const plainFirst: { name: number[] | string; frame: number }[] = [
      { name: 'AB', frame: 0 }, // 0
      { name: 'C', frame: 1 }, // 1
      { name: cutAB, frame: 2 }, // 2: AB again
    ];
    for (const [keys, names, start, frames, record] of [
      [first, ['≒', 'A', 'AB'], [0, 2, 4, 6], [2, 4, 0, 1, 0, 3], [2, 0, 5, 1, 3, 4]],
      [plainFirst, ['AB', 'C'], [0, 2, 3], [0, 2, 1], [0, 2, 1]],
    ] as const) {
      const t = buildTracks(docOf(buildFixture({ bones: keys.map((k) => ({ ...k })), morphs: keys.map((k) => ({ ...k, weight: 0 })) })));
      for (const got of [t.bones, t.morphs]) {
        expect(got.names).toEqual(names);
        expect([...got.index.entries()]).toEqual(names.map((n, k) => [n, k]));
        expect([Array.from(got.start), Array.from(got.frames), Array.from(got.record)]).toEqual([start, frames, record]);
      }
    }
  });

  it('tells apart names that differ in one byte, next to each other in the file, and joins those that differ after the NUL only', () => {
    const bytes = (s: string) => Array.from(s, (c) => c.charCodeAt(0));
    const keys: { name: number[]; frame: number }[] = [
      { name: bytes('abcdefghijklmnX'), frame: 0 }, // 0: 15 bytes, no NUL
      { name: bytes('abcdefghijklmnY'), frame: 0 }, // 1: the last byte differs
      { name: bytes('abcdefghijklmnY'), frame: 1 }, // 2
      { name: [0x41, 0, 0x11], frame: 5 }, // 3: "A"
      { name: [0x41, 0, 0x22], frame: 4 }, // 4: "A", other bytes after the NUL
      { name: [0x41, 0, 0x22], frame: 3 }, // 5: "A"
      { name: [0x42, 0, 0x22], frame: 3 }, // 6: "B", only the first byte differs from the record before
      { name: bytes('Xbcdefghijklmn'), frame: 2 }, // 7: 14 bytes
      { name: bytes('abcdefghijklmnY'), frame: 9 }, // 8
    ];
    const t = buildTracks(docOf(buildFixture({ bones: keys.map((k) => ({ ...k })), morphs: keys.map((k, i) => ({ ...k, weight: i })) })));
    for (const got of [t.bones, t.morphs]) {
      expect(got.names).toEqual(['abcdefghijklmnX', 'abcdefghijklmnY', 'A', 'B', 'Xbcdefghijklmn']);
      expect(Array.from(got.start)).toEqual([0, 1, 4, 7, 8, 9]);
      expect(Array.from(got.frames)).toEqual([0, 0, 1, 9, 3, 4, 5, 3, 2]);
      expect(Array.from(got.record)).toEqual([0, 1, 2, 8, 5, 4, 3, 6, 7]);
    }
    expect(Array.from(t.morphs.weight)).toEqual([0, 1, 2, 8, 5, 4, 3, 6, 7]);
  });

  it('sorts a track in no order with every frame twice, keeping the first record of each (bones and morphs)', () => {
    // Frames 1000 × ((33 i) mod 64) for records i = 0..127: each frame twice (i and i + 64), steps going down
    // about half the time (the radix sort, straight from file order; frames past 2^11 take two digits). Frame
    // 1000 f's first record is 33 f mod 64 (33 is its own inverse mod 64), and is kept; its value is its record number.
    const keys = Array.from({ length: 128 }, (_, i) => ({ name: 'S', frame: 1000 * ((33 * i) % 64) }));
    const t = buildTracks(docOf(buildFixture({ bones: keys.map((k, i) => ({ ...k, pos: [i, 0, 0] })), morphs: keys.map((k, i) => ({ ...k, weight: i })) })));
    const kept = Array.from({ length: 64 }, (_, f) => (33 * f) % 64);
    for (const got of [t.bones, t.morphs]) {
      expect(Array.from(got.frames)).toEqual(Array.from({ length: 64 }, (_, f) => 1000 * f));
      expect(Array.from(got.record)).toEqual(kept);
      expect(got.duplicates).toBe(64);
    }
    expect(Array.from(t.morphs.weight)).toEqual(kept);
    expect(Array.from(t.bones.position).filter((_, k) => k % 3 === 0)).toEqual(kept);
  });

  it('keeps float values bit for bit (−0, a denormal, a NaN with a payload)', () => {
    const bits = [0x80000000, 0x00000001, 0x7fc12345, 0x3f800000, 0xff800000, 0x7f7fffff, 0xbf000000];
    const w = new DataView(new ArrayBuffer(4));
    const asFloat = (b: number) => (w.setUint32(0, b, true), w.getFloat32(0, true));
    const bytes = buildFixture({
      bones: [{ name: 'a', frame: 0, pos: bits.slice(0, 3).map(asFloat), rot: bits.slice(3).map(asFloat) }],
      morphs: [{ name: 'm', frame: 0, weight: asFloat(0x80000000) }],
    });
    // Write the NaN's bits into the file directly: a float64 round trip in the fixture writer may not keep them.
    const doc = docOf(bytes);
    new DataView(doc.bone.bytes.buffer, doc.bone.bytes.byteOffset).setUint32(19 + 8, 0x7fc12345, true);
    const t = buildTracks(doc);
    const got = [...new Uint32Array(t.bones.position.buffer, t.bones.position.byteOffset, 3), ...new Uint32Array(t.bones.rotation.buffer, t.bones.rotation.byteOffset, 4)];
    expect(got.map((b) => b.toString(16))).toEqual(bits.map((b) => b.toString(16)));
    expect(new Uint32Array(t.morphs.weight.buffer, t.morphs.weight.byteOffset, 1)[0]).toBe(0x80000000);
  });

  it('sorts a long reversed track (past the insertion-sort budget) stably', () => {
    const n = 3000;
    const bones: FixtureBone[] = [];
    for (let i = 0; i < n; i++) bones.push({ name: 'R', frame: Math.floor((n - 1 - i) / 2) }); // pairs of equal frames
    const t = buildTracks(docOf(buildFixture({ bones })));
    expect(t.bones.duplicates).toBe(n / 2);
    expect(Array.from(t.bones.frames)).toEqual(Array.from({ length: n / 2 }, (_, k) => k));
    // Frame k is held by records n-2-2k (first in the file) and n-1-2k: the first is kept.
    expect(Array.from(t.bones.record)).toEqual(Array.from({ length: n / 2 }, (_, k) => n - 2 - 2 * k));
  });

  it('sorts tracks written mostly last to first stably: equal frames keep the first record, short and past the budget', () => {
    const rand = rng(3131);
    const bones: FixtureBone[] = [];
    // Short: descending, every seventh frame written twice (the reversal puts such pairs back in file order).
    for (let f = 400; f >= 0; f--) for (let c = f % 7 === 0 ? 2 : 1; c > 0; c--) bones.push({ name: 'D', frame: f, pos: [bones.length, 0, 0] });
    // Long: descending with one key in fifty far out of place (past the insertion sort's budget), and repeats.
    for (let i = 0; i < 3000; i++) {
      const frame = i % 50 === 0 ? Math.floor(rand() * 3000) : 3000 - i;
      bones.push({ name: 'L', frame, pos: [bones.length, 0, 0] });
      if (i % 13 === 0) bones.push({ name: 'L', frame, pos: [bones.length, 0, 0] });
    }
    const t = expectMatchesReference(docOf(buildFixture({ bones })), 'mostly reversed');
    expect(t.bones.duplicates).toBeGreaterThan(57 + 200);
    // Each kept key is the first record of its (name, frame): its x holds its place in the file.
    const firstAt = new Map<string, number>();
    bones.forEach((b, i) => {
      const key = `${b.name}@${b.frame}`;
      if (!firstAt.has(key)) firstAt.set(key, i);
    });
    for (let tr = 0; tr < t.bones.names.length; tr++) {
      for (let k = t.bones.start[tr]; k < t.bones.start[tr + 1]; k++) {
        expect(t.bones.position[3 * k]).toBe(firstAt.get(`${t.bones.names[tr]}@${t.bones.frames[k]}`));
      }
    }
  });

  it('sorts tracks in no order (past the insertion budget, sorted by radix) beside nearly sorted and reversed ones, interleaved', () => {
    const rand = rng(3132);
    const bones: FixtureBone[] = [];
    const morphs: { name: string; frame: number; weight: number }[] = [];
    // H1, H2: shuffled, long enough to pass the budget, with repeats; H2's frames need all three radix digits
    // (past 2^22 and 2^31); shuffled keys go down about half the time, so they go to the radix sort without an
    // insertion try. S: sorted but for one key in forty. R: last to first. B: four ascending runs of 600, the
    // last first (three steps down: insertion sort tries it and gives up past its budget, then radix).
    // All five interleaved at random.
    const left = { H1: 2500, H2: 2500, S: 2000, R: 2000, B: 2400 };
    let s = 0, r = 2000, bk = 0;
    while (left.H1 + left.H2 + left.S + left.R > 0) {
      const names = (Object.keys(left) as (keyof typeof left)[]).filter((k) => left[k] > 0);
      const name = names[Math.floor(rand() * names.length)];
      left[name]--;
      let frame: number;
      if (name === 'H1') frame = Math.floor(rand() * 1500);
      else if (name === 'H2') frame = rand() < 0.5 ? Math.floor(rand() * 1500) : 0xffffffff - Math.floor(rand() * 1500) * 4099;
      else if (name === 'S') frame = s++ % 40 === 0 ? Math.floor(rand() * 2000) : s;
      else if (name === 'B') frame = (3 - Math.floor(bk / 600)) * 600 + (bk++ % 600);
      else frame = r--;
      bones.push({ name, frame, pos: [bones.length, 0, 0] });
      if (rand() < 0.5) morphs.push({ name, frame: Math.floor(rand() * 3000), weight: morphs.length });
    }
    const t = expectMatchesReference(docOf(buildFixture({ bones, morphs })), 'radix beside insertion');
    expect(t.bones.names.sort()).toEqual(['B', 'H1', 'H2', 'R', 'S']);
    expect(t.bones.duplicates).toBeGreaterThan(1000); // H1 repeats most of its frames
  });

  it('keeps the first record of equal frames when insertion sort gives up half way and radix finishes the track', () => {
    // One track: four ascending runs of 600 frames, the last first (insertion sort goes past its budget
    // inside the second run, leaving a sorted head and the rest in file order), then every frame again,
    // ascending. Each frame's first record is in the head or the tail's first part; its repeat comes
    // later. The radix sort starts from that half-sorted range, and still keeps the first record.
    const bones: FixtureBone[] = [];
    for (let run = 3; run >= 0; run--) for (let f = run * 600; f < (run + 1) * 600; f++) bones.push({ name: 'P', frame: f, pos: [bones.length, 0, 0] });
    for (let f = 0; f < 2400; f++) bones.push({ name: 'P', frame: f, pos: [bones.length, 0, 0] });
    // The same written last to first (reversed before insertion sort, which gives up too): repeats come first
    // in the track's reversed order, and must still lose to the earlier record.
    for (let i = 0; i < 2400; i++) bones.push({ name: 'Q', frame: i % 600 === 0 ? (i * 7) % 2400 : 2399 - i, pos: [bones.length, 0, 0] });
    for (let f = 2399; f >= 0; f -= 3) bones.push({ name: 'Q', frame: f, pos: [bones.length, 0, 0] });
    const t = expectMatchesReference(docOf(buildFixture({ bones })), 'half-sorted then radix');
    const p = t.bones.index.get('P')!;
    expect(t.bones.start[p + 1] - t.bones.start[p]).toBe(2400);
    const firstAt = new Map<string, number>();
    bones.forEach((b, i) => {
      const key = `${b.name}@${b.frame}`;
      if (!firstAt.has(key)) firstAt.set(key, i);
    });
    expect(t.bones.duplicates).toBe(bones.length - firstAt.size);
    for (let tr = 0; tr < t.bones.names.length; tr++) {
      for (let k = t.bones.start[tr]; k < t.bones.start[tr + 1]; k++) {
        expect(t.bones.position[3 * k]).toBe(firstAt.get(`${t.bones.names[tr]}@${t.bones.frames[k]}`));
      }
    }
  });

  it('reads curves with and without row copies, and the physics flag bytes never leak into Z or rotation', () => {
    const curves = [
      [1, 2, 3, 4],
      [5, 6, 7, 8],
      [9, 10, 11, 12],
      [13, 14, 15, 16],
    ];
    const withCopies = interpBlock(curves, [99, 15]);
    // Rows 1–3 all zero: bytes 2 and 3 are then the only copy of x1 of Z and rotation.
    const rowOnly = interpBlock(curves, [9, 13]).map((v, j) => (j < 16 ? v : 0));
    const t = buildTracks(
      docOf(buildFixture({ bones: [{ name: 'a', frame: 0, interp: withCopies }, { name: 'b', frame: 0, interp: rowOnly }] })),
    );
    expect(Array.from(t.bones.curves.subarray(0, 16))).toEqual(curves.flat());
    expect(Array.from(t.bones.curves.subarray(16, 32))).toEqual(curves.flat());
  });
});

describe('buildTracks on seeded random motions', () => {
  // Name fields: several spellings per bone (garbage after the NUL, a cut last character), plus many plain names.
  const pool: number[][] = [
    [...SJIS.センター],
    [...SJIS.センター, 0, 0x11, 0x22],
    [...SJIS.センター, 0, 0xfd, 0xfe, 0xff],
    [...SJIS.左腕],
    [...SJIS.右腕],
    [...SJIS.センター, ...SJIS.左腕, 0x98, 0x72, 0x8d],
    [...SJIS.センター, ...SJIS.左腕, 0x98, 0x72],
    [...SJIS.センター, ...SJIS.左腕, 0x98, 0x72, 0x81],
    Array.from('abcdefghijklmno', (c) => c.charCodeAt(0)), // all 15 bytes, no NUL
    [0x82], // a lone lead byte: decodes to nothing but U+FFFD
    [],
  ];
  for (let k = 0; k < 600; k++) pool.push(Array.from(`bone${k}`, (c) => c.charCodeAt(0)));

  function randomMotion(seed: number) {
    const rand = rng(seed);
    const names = 1 + Math.floor(rand() * (rand() < 0.3 ? 600 : 40));
    const chosen = Array.from({ length: names }, () => pool[Math.floor(rand() * pool.length)]);
    const frames = 1 + Math.floor(rand() * 200);
    const style = Math.floor(rand() * 4); // 0 interleaved by frame, 1 grouped by bone, 2 random, 3 reversed
    const bones: FixtureBone[] = [];
    const morphs: { name: number[]; frame: number; weight: number }[] = [];
    const total = 1 + Math.floor(rand() * 3000);
    for (let i = 0; i < total; i++) {
      let name: number[], frame: number;
      if (style === 0) {
        name = chosen[i % names];
        frame = Math.floor(i / names) * 3 + (rand() < 0.1 ? -Math.floor(rand() * 9) : 0);
      } else if (style === 1) {
        name = chosen[Math.floor((i * names) / total)];
        frame = rand() < 0.05 ? Math.floor(rand() * frames) : i % frames;
      } else if (style === 2) {
        name = chosen[Math.floor(rand() * names)];
        frame = Math.floor(rand() * frames);
      } else {
        name = chosen[Math.floor(rand() * Math.min(names, 3))];
        frame = total - i + (rand() < 0.1 ? 1 : 0);
      }
      frame = Math.max(0, frame);
      if (rand() < 0.01) frame = 0xffffffff - Math.floor(rand() * 3); // frames past 2^31
      const r = () => Math.round((rand() * 2 - 1) * 1e4) / 1e3;
      const c = () => Math.floor(rand() * 128);
      bones.push({
        name,
        frame,
        pos: [r(), r(), r()],
        rot: [r(), r(), r(), r()],
        interp: interpBlock([[c(), c(), c(), c()], [c(), c(), c(), c()], [c(), c(), c(), c()], [c(), c(), c(), c()]], rand() < 0.5 ? [99, 15] : [0, 0]).map((v, j) =>
          style === 2 && j >= 16 ? 0 : v,
        ),
      });
      if (rand() < 0.3) morphs.push({ name, frame: Math.floor(rand() * frames), weight: rand() });
    }
    const cameras = Array.from({ length: Math.floor(rand() * 20) }, () => ({
      frame: Math.floor(rand() * 10),
      distance: -rand() * 50,
      target: [rand(), rand(), rand()],
      rotation: [rand(), rand(), rand()],
      interp: Array.from({ length: 24 }, () => Math.floor(rand() * 128)),
      fov: 10 + Math.floor(rand() * 60),
      perspective: rand() < 0.5 ? 0 : 1,
    }));
    const lights = Array.from({ length: Math.floor(rand() * 10) }, () => ({
      frame: Math.floor(rand() * 10),
      color: [rand(), rand(), rand()],
      direction: [rand(), -1, rand()],
    }));
    return buildFixture({ bones, morphs, cameras, lights });
  }

  it('match the simple construction on 60 motions', () => {
    let dups = 0, tracks = 0;
    for (let s = 1; s <= 60; s++) {
      const t = expectMatchesReference(docOf(randomMotion(s)), `seed ${s}`);
      dups += t.bones.duplicates;
      tracks += t.bones.names.length;
    }
    // The generator did reach the cases it is there for.
    expect(dups).toBeGreaterThan(100);
    expect(tracks).toBeGreaterThan(1000);
  });

  it('read a name up to its NUL wherever the NUL falls, whatever follows it, record by record', () => {
    // Names of 0 to 15 bytes, from bytes that trip a word-at-a-time NUL search (0x01 just after a
    // NUL, 0x80 and 0xff with the high bit set), each written 6 times with other bytes after the NUL.
    const rand = rng(4242);
    const tricky = [0x01, 0x80, 0xff, 0x41, 0x7f, 0x81, 0x9f, 0x02];
    const byte = () => tricky[Math.floor(rand() * tricky.length)];
    const bones: FixtureBone[] = [];
    const morphs: { name: number[]; frame: number; weight: number }[] = [];
    const names: number[][] = [];
    for (let len = 0; len <= 15; len++) for (let v = 0; v < 4; v++) names.push(Array.from({ length: len }, byte));
    for (let copy = 0; copy < 6; copy++) {
      for (const [k, name] of names.entries()) {
        const field = [...name];
        if (field.length < 15) field.push(0);
        while (field.length < 15) field.push(rand() < 0.3 ? 0 : rand() < 0.3 ? 0x01 : Math.floor(rand() * 256));
        bones.push({ name: field, frame: copy * 7 + (k % 5) });
        morphs.push({ name: field, frame: copy * 3, weight: rand() });
      }
    }
    const doc = docOf(buildFixture({ bones, morphs }));
    const t = expectMatchesReference(doc, 'NUL at every byte');
    const decoded = new Set(names.map((n) => boneName(docOf(buildFixture({ bones: [{ name: n, frame: 0 }] })).bone, 0)));
    expect(t.bones.names.length).toBe(decoded.size);
    // What follows the NUL made no entry of its own: one per name's bytes.
    const spelled = new Set(names.map((n) => n.join()));
    expect(groupByName(doc.bone).spellings).toBe(spelled.size);
    expect(groupByName(doc.morph).spellings).toBe(spelled.size);
  });

  it('respect a non-zero byteOffset (a motion inside a larger buffer)', () => {
    const bytes = randomMotion(77);
    const big = new Uint8Array(bytes.length + 5);
    big.set(bytes, 5);
    expectMatchesReference(docOf(big.subarray(5)), 'offset 5');
  });

  it('keep a version 0001 file (10-byte model name) readable', () => {
    const bones = [{ name: 'x', frame: 2 }, { name: 'y', frame: 0 }, { name: 'x', frame: 1 }];
    const t = expectMatchesReference(docOf(buildFixture({ version: 1, bones })), 'v1');
    expect(Array.from(t.bones.record)).toEqual([2, 0, 1]);
  });
});
