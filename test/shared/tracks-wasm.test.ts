/**
 * The WebAssembly path of tracks.ts (tracks.wat: grouping, placement, radix sort of blocks of 2,048
 * records or more) against two oracles: tracks.ts's own JS loops (setTracksWasm(false)), field by
 * field and byte by byte, and an independent construction (names decoded one record at a time,
 * grouped in a Map, each group stably sorted by frame with Array.prototype.sort, later duplicates
 * dropped). Blocks are built to reach each branch: interleaved, shuffled, reversed and nearly sorted
 * tracks, a track that insertion sort gives up on, duplicates, frames of one, two and three radix
 * digits and near 2^32, 3,000 names (the table grows), garbage after the NUL, spellings that decode
 * alike. Also: the committed tracks-wasm.gen.ts is what build/wasm.mjs makes of tracks.wat.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { blockFromRecords, decodeName, encodeNameField, type FixedBlock } from '../../shared/vmd';
import { buildBoneTracks, buildMorphTracks, groupByName, indexBoneTracks } from '../../shared/vmd/tracks';
import { releaseTracksWasm, setTracksWasm, wasmInstance } from '../../shared/vmd/tracks-wasm';
import { ROOT } from '../helpers/build';
import { lcg } from '../helpers/rng';

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

interface Key {
  name: Uint8Array; // the 15-byte field
  frame: number;
}

/** A bone or morph block of these keys, in this order; values from a seeded generator. */
function blockOf(kind: 'bone' | 'morph', keys: Key[], seed: number): FixedBlock {
  const size = kind === 'bone' ? 111 : 23;
  const rnd = lcg(seed);
  const recs = keys.map((k) => {
    const rec = new Uint8Array(size);
    const v = new DataView(rec.buffer);
    rec.set(k.name);
    v.setUint32(15, k.frame, true);
    for (let o = 19; o + 4 <= size; o += 4) v.setFloat32(o, rnd() * 2 - 1, true);
    if (kind === 'bone') for (let o = 47; o < 111; o++) rec[o] = Math.floor(rnd() * 128);
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
  ['spellings that decode alike share a track', () => shuffle(interleaved([...aliases, ...names40.slice(0, 4)], 300), 9)],
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
