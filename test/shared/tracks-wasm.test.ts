/**
 * The WebAssembly path of tracks.ts (tracks.wat: grouping, placement, the sort of tracks out of order,
 * bone values decoded and morph weights gathered, for blocks of 2,048 records or more) against two oracles: tracks.ts's own JS loops (setTracksWasm(false)), field by
 * field and byte by byte, and an independent construction (names decoded one record at a time,
 * grouped in a Map, each group stably sorted by frame with Array.prototype.sort, later duplicates
 * dropped). Blocks are built to reach each branch: interleaved, shuffled, reversed and nearly sorted
 * tracks, a track that insertion sort gives up on, duplicates, frames of one, two and three radix
 * digits and near 2^32, 3,000 names (the table grows), garbage after the NUL (and the NUL at every byte),
 * names apart only in bytes 8–14 (the second of the two words the grouping reads), spellings that decode
 * alike, reversed and nearly sorted tracks with repeated frames (ties put back in file order), bone
 * curves with rows 1–3 empty and filled. Then every corpus motion's bone and morph blocks (as stored,
 * shuffled and reversed, repeated up to 2,048 records) and seeded random motions of every order at
 * once. Also: the committed tracks-wasm.gen.ts is what build/wasm.mjs makes of tracks.wat.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { blockFromRecords, boneInterpolation, decodeName, encodeNameField, getBoneCurves, readVmd, type FixedBlock } from '../../shared/vmd';
import { buildBoneTracks, buildMorphTracks, groupByName, indexBoneTracks } from '../../shared/vmd/tracks';
import { releaseTracksWasm, setTracksWasm, wasmInstance } from '../../shared/vmd/tracks-wasm';
import { ROOT } from '../helpers/build';
import { lcg } from '../helpers/rng';
import { corpusFiles, corpusPresent, readCorpus, relName } from '../helpers/corpus';

afterAll(() => setTracksWasm(true));

/** Every field of a result as plain arrays (typed arrays byte for byte, Maps as entries). */
function plain(x: unknown): unknown {
  if (x instanceof Map) return [...x.entries()];
  if (ArrayBuffer.isView(x)) return [x.constructor.name, Array.from(new Uint8Array(x.buffer, x.byteOffset, x.byteLength))];
  if (Array.isArray(x)) return x.map(plain);
  if (x !== null && typeof x === 'object') return Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, plain(v)]));
  return x;
}

/**
 * Where two values differ first ('' when equal), as a path: a failing case then reports in a line
 * instead of a diff of arrays of thousands of keys.
 */
function firstDifference(a: unknown, b: unknown, at = ''): string {
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const d = firstDifference(a[i], b[i], `${at}[${i}]`);
      if (d !== '') return d;
    }
    return '';
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') return firstDifference(Object.entries(a), Object.entries(b), at);
  return Object.is(a, b) ? '' : `${at}: ${String(a)} vs ${String(b)}`;
}

/** fn with the WebAssembly path, then with the JS loops. */
function bothPaths<T>(fn: () => T): [T, T] {
  setTracksWasm(true);
  const wasm = fn();
  setTracksWasm(false);
  const js = fn();
  setTracksWasm(true);
  return [wasm, js];
}

/** The independent construction: track names, records and frames per track, duplicates. */
function reference(block: FixedBlock) {
  const groups = new Map<string, number[]>();
  const frame = (i: number) => block.view.getUint32(i * block.size + 15, true);
  for (let i = 0; i < block.count; i++) {
    const name = decodeName(block.bytes, i * block.size, 15);
    if (!groups.has(name)) groups.set(name, []);
    groups.get(name)!.push(i);
  }
  const start = [0], record: number[] = [], frames: number[] = [];
  let duplicates = 0;
  for (const recs of groups.values()) {
    for (const r of [...recs].sort((a, b) => frame(a) - frame(b) || a - b)) {
      if (frames.length > start[start.length - 1] && frames[frames.length - 1] === frame(r)) {
        duplicates++;
        continue;
      }
      record.push(r);
      frames.push(frame(r));
    }
    start.push(record.length);
  }
  return { names: [...groups.keys()], start, record, frames, duplicates };
}

/**
 * Every key's rotation (its stored bits) and curves, read from its record through records.ts and
 * interpolation.ts (getBoneCurves: rows 1–3 decide where x1 of Z and rotation come from).
 */
function expectBoneValues(t: ReturnType<typeof buildBoneTracks>, block: FixedBlock, record: number[]): void {
  const rot = new Int32Array(t.rotation.buffer, t.rotation.byteOffset, t.rotation.length);
  for (let k = 0; k < record.length; k++) {
    const o = record[k] * block.size;
    for (let c = 0; c < 4; c++) if (rot[4 * k + c] !== block.view.getInt32(o + 31 + 4 * c, true)) expect.fail(`key ${k}: rotation ${c}`);
    const want = getBoneCurves(boneInterpolation(block, record[k])).flat();
    for (let j = 0; j < 16; j++) if (t.curves[16 * k + j] !== want[j]) expect.fail(`key ${k}: curve byte ${j} is ${t.curves[16 * k + j]}, not ${want[j]}`);
  }
}

interface Key {
  name: Uint8Array; // the 15-byte field
  frame: number;
}

/**
 * A bone or morph block of these keys, in this order; values from a seeded generator. A third of the
 * bone records have rows 1–3 of their curves empty (bytes 2 and 3 of row 0 are then the curves' own, not
 * MMD's physics flag), and one in 50 has only the last byte of row 3 set (the last word the test reads).
 */
function blockOf(kind: 'bone' | 'morph', keys: Key[], seed: number): FixedBlock {
  const size = kind === 'bone' ? 111 : 23;
  const rnd = lcg(seed);
  const recs = keys.map((k, i) => {
    const rec = new Uint8Array(size);
    const v = new DataView(rec.buffer);
    rec.set(k.name);
    v.setUint32(15, k.frame, true);
    for (let o = 19; o + 4 <= size; o += 4) v.setFloat32(o, rnd() * 2 - 1, true);
    if (kind === 'bone') {
      // (The floats above ran on over the curves: every byte from 47 is set here.)
      const rows = i % 3 === 0 ? 16 : 64;
      for (let o = 47; o < 111; o++) rec[o] = o < 47 + rows ? Math.floor(rnd() * 128) : 0;
      if (i % 50 === 0) rec[110] = 1 + (i % 127);
    }
    return rec;
  });
  return blockFromRecords(kind, recs);
}

function field(name: string): Uint8Array {
  const f = encodeNameField(name, 15);
  if (!f.ok) throw new Error(f.error.message);
  return f.value;
}

/** Fisher–Yates with a seeded generator. */
function shuffle<T>(xs: T[], seed: number): T[] {
  const rnd = lcg(seed);
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
  return xs;
}

/** `tracks` names of `perTrack` keys each at frames step·k, interleaved track by track (a dance's order). */
function interleaved(names: Uint8Array[], perTrack: number, step = 1): Key[] {
  const keys: Key[] = [];
  for (let k = 0; k < perTrack; k++) for (const name of names) keys.push({ name, frame: step * k });
  return keys;
}

const names40 = Array.from({ length: 40 }, (_, i) => field(`bone${i}`));
const kanji = '髪左右腕肘手首指親人中薬小足膝目眉口舌胸腰尻肩頭前後上下';
const names3000 = Array.from({ length: 3000 }, (_, k) => field(kanji[k % 28] + kanji[Math.floor(k / 28) % 28] + kanji[Math.floor(k / 784) % 28] + String(k % 7)));

/** ≒ spelled 81E0 and 8790, and "AB" with and without a cut lead byte: two names, four spellings. */
const aliases = (() => {
  const a = new Uint8Array(15), b = new Uint8Array(15), c = new Uint8Array(15), d = new Uint8Array(15);
  a.set([0x58, 0x81, 0xe0]);
  b.set([0x58, 0x87, 0x90]);
  c.set([0x41, 0x42]);
  d.set([0x41, 0x42, 0x81]);
  return [a, b, c, d];
})();

/** The named blocks: what each exercises in the WebAssembly path. */
const cases: [string, () => Key[]][] = [
  ['interleaved, in order', () => interleaved(names40, 80)],
  ['shuffled (radix, two digits)', () => shuffle(interleaved(names40, 80, 37), 1)],
  ['shuffled, frames below 2,048 (one digit)', () => shuffle(interleaved(names40, 60), 2)],
  ['shuffled, frames past 4,194,303 (three digits)', () => shuffle(interleaved(names40, 80, 99_991), 3)],
  ['shuffled, frames near 2^32', () => shuffle(interleaved(names40, 80).map((k) => ({ ...k, frame: 0xffffffff - 3 * k.frame })), 4)],
  [
    'shuffled with many duplicates',
    () => shuffle(interleaved(names40, 80).map((k, i) => ({ ...k, frame: i % 3 === 0 ? k.frame % 7 : k.frame })), 5),
  ],
  ['each track reversed', () => interleaved(names40, 80).reverse()],
  [
    'nearly sorted (a few keys moved back)',
    () => interleaved(names40, 80).map((k, i) => ({ ...k, frame: i % 97 === 0 ? Math.max(0, k.frame - 5) : k.frame })),
  ],
  [
    'a third of the steps down (insertion sort gives up, ties put back in file order)',
    () => {
      const rnd = lcg(6);
      return Array.from({ length: 3000 }, (_, i) => ({ name: names40[i % 2], frame: i % 3 === 2 ? Math.floor(rnd() * 3000) : i >> 1 }));
    },
  ],
  ['3,000 Japanese names, shuffled', () => shuffle(interleaved(names3000, 3, 11), 7)],
  ['runs of one name (the previous record predicts)', () => names40.flatMap((name) => Array.from({ length: 60 }, (_, k) => ({ name, frame: 2 * k })))],
  [
    'garbage after the NUL, different every record',
    () => {
      const rnd = lcg(8);
      return interleaved(names40, 60).map((k) => {
        const name = k.name.slice();
        for (let j = name.indexOf(0) + 1; j > 0 && j < 15; j++) name[j] = Math.floor(rnd() * 256);
        return { ...k, name };
      });
    },
  ],
  [
    'neighbours that differ in the last byte only (bytes 12–14: the fourth word)',
    () => interleaved(Array.from({ length: 10 }, (_, i) => field(`abcdefghijklm${String.fromCharCode(65 + i)}`)), 300),
  ],
  [
    'the NUL at every byte of the field, garbage after it; names alike in bytes 0–7 (the first i64 word), apart in one of 8–14',
    () => {
      const rnd = lcg(13);
      // Lengths 0 to 15 ("" to 15 bytes, no NUL), then 15-byte names that share "abcdefgh" and differ in one later byte.
      const byLength = Array.from({ length: 16 }, (_, len) => Uint8Array.from({ length: 15 }, (_, j) => (j < len ? 0x61 + ((len + j) % 26) : 0)));
      const tails = Array.from({ length: 14 }, (_, k) => Uint8Array.from({ length: 15 }, (_, j) => (j < 8 ? 0x61 + j : j === 8 + (k % 7) ? 0x41 + k : 0x7a)));
      return shuffle(interleaved([...byLength, ...tails], 70, 3), 14).map((k) => {
        const name = k.name.slice();
        const nul = name.indexOf(0);
        for (let j = nul + 1; nul >= 0 && j < 15; j++) name[j] = Math.floor(rnd() * 256);
        return { ...k, name };
      });
    },
  ],
  ['spellings that decode alike share a track', () => shuffle(interleaved([...aliases, ...names40.slice(0, 4)], 300), 9)],
  [
    'each track reversed, frames repeated (equal frames put back in file order)',
    () => interleaved(names40, 90).map((k) => ({ ...k, frame: k.frame % 10 === 1 ? k.frame - 1 : k.frame })).reverse(),
  ],
  [
    'nearly sorted, frames repeated',
    () => interleaved(names40, 80).map((k, i) => ({ ...k, frame: i % 89 === 0 ? Math.max(0, k.frame - 3) : i % 61 === 0 ? Math.max(0, k.frame - 1) : k.frame })),
  ],
  [
    'mostly reversed with keys out of place, frames repeated (insertion sort gives up after the reversal)',
    () => {
      const rnd = lcg(12);
      return Array.from({ length: 4000 }, (_, i) => ({ name: names40[i % 2], frame: i % 5 === 0 ? Math.floor(rnd() * 2000) : 2000 - (i >> 1) })).map((k, i) =>
        i % 7 === 0 ? { ...k, frame: 1000 } : k,
      );
    },
  ],
];

describe('tracks.ts through WebAssembly', () => {
  it('runs WebAssembly here (else the cases below would test the JS loops twice)', () => {
    expect(wasmInstance(1)).not.toBeNull();
  });

  it('the committed tracks-wasm.gen.ts is what build/wasm.mjs makes of tracks.wat', async () => {
    const { wasmModuleText } = (await import(path.join(ROOT, 'build/wasm.mjs'))) as { wasmModuleText: (p: string) => Promise<string> };
    expect(readFileSync(path.join(ROOT, 'shared/vmd/tracks-wasm.gen.ts'), 'utf8')).toBe(await wasmModuleText('shared/vmd/tracks.wat'));
  });

  for (const [label, make] of cases) {
    it(label, () => {
      const keys = make();
      expect(keys.length).toBeGreaterThanOrEqual(2048);
      for (const kind of ['bone', 'morph'] as const) {
        const block = blockOf(kind, keys, keys.length);
        const ref = reference(block);
        const [wasm, js] = bothPaths(() => (kind === 'bone' ? buildBoneTracks(block) : buildMorphTracks(block)));
        expect(firstDifference(plain(wasm), plain(js)), `${kind}: WebAssembly and JS`).toBe('');
        expect(firstDifference(wasm.names, ref.names), kind).toBe('');
        expect(firstDifference(Array.from(wasm.start), ref.start), kind).toBe('');
        expect(firstDifference(Array.from(wasm.record), ref.record), kind).toBe('');
        expect(firstDifference(Array.from(wasm.frames), ref.frames), kind).toBe('');
        expect(wasm.duplicates, kind).toBe(ref.duplicates);
        // Values: each key's, read from its record.
        const bits = kind === 'bone' ? new Int32Array((wasm as ReturnType<typeof buildBoneTracks>).position.buffer) : new Int32Array((wasm as ReturnType<typeof buildMorphTracks>).weight.buffer);
        const per = kind === 'bone' ? 3 : 1;
        for (let k = 0; k < ref.record.length; k += 97) {
          for (let c = 0; c < per; c++) expect(bits[per * k + c]).toBe(block.view.getInt32(ref.record[k] * block.size + 19 + 4 * c, true));
        }
        if (kind === 'bone') expectBoneValues(wasm as ReturnType<typeof buildBoneTracks>, block, ref.record);
        if (kind === 'bone') {
          const [iw, ij] = bothPaths(() => indexBoneTracks(block));
          expect(firstDifference(plain(iw), plain(ij)), 'indexBoneTracks').toBe('');
          expect(firstDifference(Array.from(iw.record), ref.record)).toBe('');
        }
        const [gw, gj] = bothPaths(() => groupByName(block, kind === 'morph' ? 19 : -1));
        expect(firstDifference(plain(gw), plain(gj)), 'groupByName').toBe('');
      }
    });
  }

  it('reads again after the memory is let go, and a smaller block after a larger one', () => {
    const big = blockOf('morph', shuffle(interleaved(names3000, 4), 10), 1);
    const small = blockOf('morph', shuffle(interleaved(names40, 60), 11), 2);
    const [smallJs] = bothPaths(() => buildMorphTracks(small)).slice(1);
    const [bigJs] = bothPaths(() => buildMorphTracks(big)).slice(1);
    releaseTracksWasm();
    expect(firstDifference(plain(buildMorphTracks(small)), plain(smallJs))).toBe('');
    expect(firstDifference(plain(buildMorphTracks(big)), plain(bigJs))).toBe('');
    expect(firstDifference(plain(buildMorphTracks(small)), plain(smallJs))).toBe('');
  });
});

/** Both paths and the independent construction on one block: the same tracks, field by field. */
function expectSame(block: FixedBlock, label: string): void {
  const ref = reference(block);
  const [wasm, js] = bothPaths(() => (block.kind === 'bone' ? buildBoneTracks(block) : buildMorphTracks(block)));
  expect(firstDifference(plain(wasm), plain(js)), `${label}: WebAssembly and JS`).toBe('');
  expect(firstDifference([wasm.names, Array.from(wasm.start), Array.from(wasm.record), Array.from(wasm.frames), wasm.duplicates], [ref.names, ref.start, ref.record, ref.frames, ref.duplicates]), label).toBe('');
  if (block.kind === 'bone') {
    expectBoneValues(wasm as ReturnType<typeof buildBoneTracks>, block, ref.record);
    const [iw, ij] = bothPaths(() => indexBoneTracks(block));
    expect(firstDifference(plain(iw), plain(ij)), `${label}: indexBoneTracks`).toBe('');
  } else {
    const weight = new Int32Array((wasm as ReturnType<typeof buildMorphTracks>).weight.buffer);
    for (let k = 0; k < ref.record.length; k++) if (weight[k] !== block.view.getInt32(ref.record[k] * 23 + 19, true)) expect.fail(`${label}: weight of key ${k}`);
  }
}

/** The block's records in this order (indices into it), repeated until there are at least 2,048, each round later by `shift` frames. */
function reordered(block: FixedBlock, order: number[], shift: number): FixedBlock {
  const recs: Uint8Array[] = [];
  for (let round = 0; recs.length < 2048 || round === 0; round++) {
    for (const i of order) {
      const rec = block.bytes.slice(i * block.size, (i + 1) * block.size);
      const v = new DataView(rec.buffer);
      v.setUint32(15, v.getUint32(15, true) + round * shift, true);
      recs.push(rec);
    }
  }
  return blockFromRecords(block.kind as 'bone' | 'morph', recs);
}

describe.skipIf(!corpusPresent)('tracks.ts through WebAssembly on the corpus', () => {
  const files = corpusFiles('.vmd');
  it('finds the corpus motions', () => expect(files.length).toBeGreaterThan(10));
  for (const f of files) {
    it(`the same tracks both ways: ${relName(f)}`, () => {
      const r = readVmd(readCorpus(f));
      if (!r.ok) return; // a damaged sample: the reader's own tests cover it
      for (const block of [r.value.bone, r.value.morph]) {
        if (block.count === 0) continue;
        const asStored = Array.from({ length: block.count }, (_, i) => i);
        // As stored (repeated, later each round: longer tracks; or on the same frames: duplicates), shuffled, reversed.
        expectSame(reordered(block, asStored, 100_000), `${relName(f)} ${block.kind}`);
        expectSame(reordered(block, asStored, 0), `${relName(f)} ${block.kind} repeated`);
        expectSame(reordered(block, shuffle([...asStored], block.count), 7_919), `${relName(f)} ${block.kind} shuffled`);
        expectSame(reordered(block, [...asStored].reverse(), 50), `${relName(f)} ${block.kind} reversed`);
      }
    });
  }
});

describe('tracks.ts through WebAssembly on random motions', () => {
  // Each motion mixes tracks of every order: sorted, reversed, nearly sorted, in no order, with repeats;
  // few or many names, frames small or up to 2^32 - 1.
  for (let seed = 1; seed <= 12; seed++) {
    it(`random motion ${seed}`, () => {
      const rnd = lcg(1000 + seed);
      const trackCount = 1 + Math.floor(rnd() ** 2 * 2500);
      const names = Array.from({ length: trackCount }, (_, t) => (t < 3000 && rnd() < 0.5 ? names3000[t] : field(`t${t}_${seed}`)));
      const maxFrame = [100, 5000, 200_000, 0xffffffff][Math.floor(rnd() * 4)];
      const keys: Key[][] = names.map((name) => {
        const n = 1 + Math.floor(rnd() * (trackCount < 20 ? 600 : 40));
        const frames = Array.from({ length: n }, () => Math.floor(rnd() * (maxFrame + 1))).sort((a, b) => a - b);
        const how = Math.floor(rnd() * 5);
        if (how === 1) frames.reverse();
        if (how === 2) for (let k = 0; k + 1 < n; k += 7) [frames[k], frames[k + 1]] = [frames[k + 1], frames[k]];
        if (how === 3) shuffle(frames, seed * 31 + n);
        if (how === 4) for (let k = 1; k < n; k += 3) frames[k] = frames[k - 1];
        return frames.map((frame) => ({ name, frame }));
      });
      // Interleaved track by track as dances are, or shuffled whole.
      let all: Key[] = [];
      if (rnd() < 0.5) all = shuffle(keys.flat(), seed);
      else for (let k = 0; keys.some((ks) => k < ks.length); k++) for (const ks of keys) if (k < ks.length) all.push(ks[k]);
      while (all.length < 2048) all = all.concat(all.map((k) => ({ ...k, frame: (k.frame + 1) >>> 0 })));
      for (const kind of ['bone', 'morph'] as const) expectSame(blockOf(kind, all, seed), `seed ${seed} ${kind}`);
    });
  }
});
