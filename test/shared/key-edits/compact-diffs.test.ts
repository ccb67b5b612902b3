/**
 * The compact diffs of whole-selection edits (issue 31): a move is a shift (the records and the offset),
 * a kind deleted whole is one replaced block. On real motions and on seeded random ones: the bytes after
 * the edit equal bytes built here by hand from the file (every moved record's frame field + delta, the
 * emptied blocks), revert gives the original bytes back and re-applying the edit's bytes again; a move
 * is refused exactly when a key would land below frame 0, and removes exactly the keys a brute-force check
 * over the tracks finds on a landing frame without moving (MMD replaces them); the tracks updated by shiftTracks equal buildTracks of the new document.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  applyDiff, applyDiffSteps, deleteRecords, drain, setCurves, setCurvesOnRecords, tracksAfterSteps, updateTrackCurves, diffBytes, EDIT_KINDS, isEmptyDiff, moveRecords, RecordSet, replacedCount, revertDiff, shiftTracks, trackRange, tracksOf,
  type EditKind, type EditOutcome, type KeyEdit, type RecordsByKind,
} from '../../../shared/key-edits';
import {
  blockFromRecords, buildTracks, emptyVmd, encodeBoneRecord, encodeCameraRecord, encodeMorphRecord, FRAME_OFFSET, ikBlockFromRecords, readVmd, recordOffset, writeVmd,
  type MotionTracks, type VmdDocument,
} from '../../../shared/vmd';
import type { Curve } from '../../../shared/vmd/bezier';
import { corpusPath, corpusPresent } from '../../helpers/corpus';
import { rng } from '../../helpers/rng';

const FILES = [
  'mmd-viewer-js/vmd/wavefile_v2.vmd',
  'gene/motion/02_laugh.vmd',
  'babylon-mmd/res/motion/physics_toggle_test_yyb10th.vmd',
  'threejs/vmds/wavefile_camera.vmd',
];

function open(bytes: Uint8Array): VmdDocument {
  const r = readVmd(bytes);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

function ok(o: EditOutcome): KeyEdit {
  if (!o.ok) throw new Error(o.error.message);
  return o.value;
}

const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

/**
 * The file's bytes with each selected record's frame field moved by delta, written here field by field, and
 * the records in `dropped` (the keys landed on) left out.
 */
function movedByHand(doc: VmdDocument, sets: RecordsByKind, delta: number, dropped: RecordsByKind = {}): Uint8Array {
  const blocks: Record<string, unknown> = {};
  for (const kind of EDIT_KINDS) {
    const set = sets[kind];
    if (!set?.size) continue;
    const b = blockCopy(doc, kind);
    const v = new DataView(b.bytes.buffer);
    set.forEach((r) => {
      const o = recordOffset(doc[kind], r) + FRAME_OFFSET[kind];
      v.setUint32(o, v.getUint32(o, true) + delta, true);
    });
    const src = doc[kind];
    const kept: Uint8Array[] = [];
    for (let r = 0; r < src.count; r++) {
      if (dropped[kind]?.has(r)) continue;
      const o = recordOffset(src, r);
      kept.push(b.bytes.slice(o, src.kind === 'ik' ? src.offsets[r + 1] : o + src.size));
    }
    blocks[kind] = kind === 'ik' ? ikBlockFromRecords(kept) : blockFromRecords(kind, kept);
  }
  return writeVmd({ ...doc, ...blocks } as VmdDocument);
}

function blockCopy(doc: VmdDocument, kind: EditKind) {
  const src = doc[kind];
  const bytes = src.bytes.slice();
  const block = src.kind === 'ik' ? { ...src, bytes, view: new DataView(bytes.buffer) } : { ...src, bytes, view: new DataView(bytes.buffer) };
  return { bytes, block };
}

/** Whether a move must be refused, decided from the records: a landing frame below 0. */
function mustRefuse(doc: VmdDocument, sets: RecordsByKind, delta: number): boolean {
  for (const kind of EDIT_KINDS) {
    let bad = false;
    sets[kind]?.forEach((r) => {
      if (r < doc[kind].count && doc[kind].view.getUint32(recordOffset(doc[kind], r) + FRAME_OFFSET[kind], true) + delta < 0) bad = true;
    });
    if (bad) return true;
  }
  return false;
}

/**
 * The keys a move replaces, decided over the tracks: on each track, a key that does not move where a moving
 * key lands (as MMD: the key landed on is deleted).
 */
function landedOn(tracks: MotionTracks, sets: RecordsByKind, delta: number): RecordsByKind {
  const out: RecordsByKind = {};
  for (const kind of EDIT_KINDS) {
    const set = sets[kind];
    if (!set?.size) continue;
    const t = tracksOf(tracks, kind);
    const n = 'start' in t ? t.names.length : t.frames.length ? 1 : 0;
    const hit = (out[kind] = new RecordSet());
    for (let tr = 0; tr < n; tr++) {
      const [a, b] = trackRange(t, tr);
      const staying = new Map<number, number>();
      for (let k = a; k < b; k++) if (!set.has(t.record[k])) staying.set(t.frames[k], t.record[k]);
      for (let k = a; k < b; k++) if (set.has(t.record[k]) && staying.has(t.frames[k] + delta)) hit.add(staying.get(t.frames[k] + delta)!);
    }
  }
  return out;
}

function expectSameTracks(a: MotionTracks, b: MotionTracks) {
  for (const kind of EDIT_KINDS) {
    const x = tracksOf(a, kind), y = tracksOf(b, kind);
    expect(Array.from(x.frames), kind).toEqual(Array.from(y.frames));
    expect(Array.from(x.record), kind).toEqual(Array.from(y.record));
  }
  expect(Array.from(a.bones.start)).toEqual(Array.from(b.bones.start));
  expect(Array.from(a.bones.curves)).toEqual(Array.from(b.bones.curves));
  expect(a.lastFrame).toBe(b.lastFrame);
}

/** Move, then check bytes, revert, re-apply, the diff's size and the incremental tracks. */
function checkMove(bytes: Uint8Array, sets: RecordsByKind, delta: number, wholeTracks: boolean): 'moved' | 'replaced' | 'refused' {
  const doc = open(bytes);
  const tracks = buildTracks(doc);
  const out = moveRecords(doc, tracks, sets, delta);
  if (!EDIT_KINDS.some((k) => sets[k]?.size)) {
    expect(!out.ok && out.error.code).toBe('E_EMPTY');
    return 'refused';
  }
  if (delta === 0) {
    expect(isEmptyDiff(ok(out).diff)).toBe(true);
    return 'moved';
  }
  if (!out.ok) {
    expect(mustRefuse(doc, sets, delta), out.error.message).toBe(true);
    return 'refused';
  }
  expect(mustRefuse(doc, sets, delta)).toBe(false);
  const gone = landedOn(tracks, sets, delta);
  const written = writeVmd(out.value.doc);
  expect(same(written, movedByHand(doc, sets, delta, gone))).toBe(true);
  // Only the records and the offset are kept: 4 bytes per moved key, nothing per record's bytes, and the
  // bytes of each key replaced (for undo).
  let moved = 0, goneBytes = 0, goneCount = 0;
  for (const kind of EDIT_KINDS) {
    moved += sets[kind]?.size ?? 0;
    gone[kind]?.forEach((r) => {
      goneCount++;
      goneBytes += doc[kind].kind === 'ik' ? doc.ik.offsets[r + 1] - doc.ik.offsets[r] : doc[kind].size;
    });
  }
  expect(replacedCount(out.value.diff)).toBe(goneCount);
  expect(diffBytes(out.value.diff)).toBe(4 * moved + goneBytes);
  for (const b of out.value.diff.blocks) expect(b.patches.length + b.appended.length).toBe(0);
  const back = revertDiff(out.value.doc, out.value.diff);
  expect(same(writeVmd(back), bytes)).toBe(true);
  expect(same(writeVmd(applyDiff(back, out.value.diff)), written)).toBe(true);
  // The sliced forms the editor runs between frames give the same bytes.
  expect(same(writeVmd(drain(applyDiffSteps(doc, out.value.diff, 'apply'))), written)).toBe(true);
  expect(same(writeVmd(drain(applyDiffSteps(out.value.doc, out.value.diff, 'revert'))), bytes)).toBe(true);
  // Incremental tracks: equal to a rebuild whenever given; always given for whole tracks without duplicates.
  const dup = EDIT_KINDS.some((k) => tracksOf(tracks, k).duplicates > 0);
  const fwd = shiftTracks(tracks, out.value.doc, out.value.diff);
  if (wholeTracks && !dup && !goneCount) expect(fwd).not.toBeNull();
  if (fwd) {
    expectSameTracks(fwd, buildTracks(out.value.doc));
    const rev = shiftTracks(fwd, back, out.value.diff);
    expect(rev).not.toBeNull();
    expectSameTracks(rev!, tracks);
  }
  return goneCount ? 'replaced' : 'moved';
}

function checkDeleteAll(bytes: Uint8Array) {
  const doc = open(bytes);
  const sets: RecordsByKind = {};
  for (const kind of EDIT_KINDS) if (doc[kind].count) sets[kind] = RecordSet.all(doc[kind].count);
  const out = ok(deleteRecords(doc, sets));
  const emptied = writeVmd({ ...emptyVmd(), header: doc.header, modelName: doc.modelName, blocksPresent: doc.blocksPresent, trailing: doc.trailing });
  expect(same(writeVmd(out.doc), emptied)).toBe(true);
  for (const b of out.diff.blocks) expect(b.replaced).toBeDefined();
  const back = revertDiff(out.doc, out.diff);
  expect(same(writeVmd(back), bytes)).toBe(true);
  expect(same(writeVmd(applyDiff(back, out.diff)), emptied)).toBe(true);
}

/** A seeded random motion: bones and morphs with repeated frames (duplicates), camera keys. */
function randomMotion(seed: number): Uint8Array {
  const r = rng(seed);
  const bones = [];
  for (let i = 0, n = 50 + Math.floor(r() * 300); i < n; i++) {
    bones.push({ name: `b${Math.floor(r() * 8)}`, frame: Math.floor(r() * 60), position: [r(), r(), r()], rotation: [0, 0, 0, 1] });
  }
  const morphs = Array.from({ length: Math.floor(r() * 80) }, () => ({ name: `m${Math.floor(r() * 4)}`, frame: Math.floor(r() * 40), weight: r() }));
  const cams = Array.from({ length: Math.floor(r() * 30) }, () => encodeCameraRecord({ frame: Math.floor(r() * 100), distance: -20, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30, perspective: 0 }));
  return writeVmd({
    ...emptyVmd('random'),
    bone: blockFromRecords('bone', bones.map(encodeBoneRecord)),
    morph: blockFromRecords('morph', morphs.map(encodeMorphRecord)),
    camera: blockFromRecords('camera', cams),
  });
}

/** A random selection: each record with probability p, or whole tracks (every key of each chosen track). */
function randomSets(doc: VmdDocument, r: () => number, whole: boolean): RecordsByKind {
  const sets: RecordsByKind = {};
  const tracks = buildTracks(doc);
  for (const kind of EDIT_KINDS) {
    if (!doc[kind].count || r() < 0.3) continue;
    const s = new RecordSet();
    if (whole) {
      const t = tracksOf(tracks, kind);
      const n = 'start' in t ? t.names.length : 1;
      for (let tr = 0; tr < n; tr++) {
        if (r() < 0.5) continue;
        const [a, b] = trackRange(t, tr);
        for (let k = a; k < b; k++) s.add(t.record[k]);
      }
    } else {
      const p = r();
      for (let i = 0; i < doc[kind].count; i++) if (r() < p) s.add(i);
    }
    if (s.size) sets[kind] = s;
  }
  return sets;
}

describe('compact diffs: moves as shifts, whole-kind deletes as replaced blocks', () => {
  it.skipIf(!corpusPresent)('moves every key, whole tracks and random keys of real motions, byte for byte, and back', () => {
    const r = rng(3131);
    const seen = { moved: 0, replaced: 0, refused: 0 };
    for (const rel of FILES) {
      const bytes = new Uint8Array(readFileSync(corpusPath(rel)));
      const doc = open(bytes);
      const all: RecordsByKind = {};
      for (const kind of EDIT_KINDS) if (doc[kind].count) all[kind] = RecordSet.all(doc[kind].count);
      expect(checkMove(bytes, all, 7, true), rel).toBe('moved');
      for (let i = 0; i < 4; i++) checkMove(bytes, randomSets(doc, r, true), Math.floor(r() * 40) - 10, true);
      for (let i = 0; i < 6; i++) seen[checkMove(bytes, randomSets(doc, r, false), Math.floor(r() * 20) - 5, false)]++;
      checkDeleteAll(bytes);
    }
    expect(seen.moved).toBeGreaterThan(0);
    expect(seen.replaced).toBeGreaterThan(0);
    expect(seen.refused).toBeGreaterThan(0);
  });

  it('moves random keys of 40 seeded random motions (duplicates, camera) exactly as a brute-force check allows, and back', () => {
    const seen = { moved: 0, replaced: 0, refused: 0 };
    for (let seed = 1; seed <= 40; seed++) {
      const bytes = randomMotion(seed);
      const doc = open(bytes);
      const r = rng(seed * 7919);
      for (let i = 0; i < 5; i++) seen[checkMove(bytes, randomSets(doc, r, i % 2 === 0), Math.floor(r() * 30) - 10, i % 2 === 0)]++;
      checkDeleteAll(bytes);
    }
    // Every outcome was reached, so every branch was checked.
    expect(seen.moved).toBeGreaterThan(5);
    expect(seen.replaced).toBeGreaterThan(5);
    expect(seen.refused).toBeGreaterThan(5);
  });

  it.skipIf(!corpusPresent)('a curve on many keys as packed fields writes what setCurves writes, and reverts and re-applies exactly', () => {
    const r = rng(77);
    for (const rel of FILES) {
      const bytes = new Uint8Array(readFileSync(corpusPath(rel)));
      const doc = open(bytes);
      for (const kind of ['bone', 'camera'] as const) {
        if (!doc[kind].count) continue;
        for (const p of [1, 0.3]) {
          const set = new RecordSet();
          for (let i = 0; i < doc[kind].count; i++) if (r() < p) set.add(i);
          if (!set.size) continue;
          const curve: Curve = [Math.floor(r() * 128), Math.floor(r() * 128), Math.floor(r() * 128), Math.floor(r() * 128)];
          const curves = { [Math.floor(r() * (kind === 'bone' ? 4 : 6))]: curve };
          const packed = ok(setCurvesOnRecords(doc, kind, set.toArray(), curves));
          const perRecord = ok(setCurves(doc, Array.from(set.toArray(), (record) => ({ kind, record })), curves));
          const written = writeVmd(packed.doc);
          expect(same(written, writeVmd(perRecord.doc)), rel).toBe(true);
          for (const b of packed.diff.blocks) expect(b.patches.length).toBe(0);
          const back = revertDiff(packed.doc, packed.diff);
          expect(same(writeVmd(back), bytes)).toBe(true);
          expect(same(writeVmd(applyDiff(back, packed.diff)), written)).toBe(true);
          // The sliced forms: same bytes both ways; new tracks made beside the old ones, which stay as they were.
          expect(same(writeVmd(drain(applyDiffSteps(doc, packed.diff, 'apply'))), written)).toBe(true);
          expect(same(writeVmd(drain(applyDiffSteps(packed.doc, packed.diff, 'revert'))), bytes)).toBe(true);
          const old = buildTracks(doc);
          const oldCurves = old.bones.curves.slice();
          const sliced = drain(tracksAfterSteps(old, packed.doc, packed.diff));
          if (packed.diff.blocks.length) {
            expect(sliced).not.toBeNull();
            expectSameTracks(sliced!, buildTracks(packed.doc));
            expect(Array.from(sliced!.camera.curves)).toEqual(Array.from(buildTracks(packed.doc).camera.curves));
          }
          expect(Array.from(old.bones.curves)).toEqual(Array.from(oldCurves));
          // The tracks' curves follow in place, as after a per-record curve edit.
          const tracks = buildTracks(doc);
          expect(updateTrackCurves(tracks, packed.doc, packed.diff)).toBe(true);
          expectSameTracks(tracks, buildTracks(packed.doc));
          expect(Array.from(tracks.camera.curves)).toEqual(Array.from(buildTracks(packed.doc).camera.curves));
        }
      }
    }
  });

  it.skipIf(!corpusPresent)('undo of a curve on many keys keeps one copy of the touched fields (the bytes before), and undo and redo stay exact however often they alternate', () => {
    const r = rng(31);
    for (const rel of FILES) {
      const bytes = new Uint8Array(readFileSync(corpusPath(rel)));
      const doc = open(bytes);
      for (const kind of ['bone', 'camera'] as const) {
        if (!doc[kind].count) continue;
        const len = kind === 'bone' ? 64 : 24;
        // A preset on every key (all channels), then a handle drag's curve on one channel of every key.
        const all = RecordSet.all(doc[kind].count).toArray();
        const channels = kind === 'bone' ? 4 : 6;
        const preset: Record<number, Curve> = {};
        for (let ch = 0; ch < channels; ch++) preset[ch] = [20, 0, 107, 127];
        for (const curves of [preset, { [Math.floor(r() * channels)]: [60, 10, 107, 107] as Curve }]) {
          const packed = ok(setCurvesOnRecords(doc, kind, all, curves));
          const expected = writeVmd(ok(setCurves(doc, Array.from(all, (record) => ({ kind, record })), curves)).doc);
          expect(same(writeVmd(packed.doc), expected), rel).toBe(true);
          // Records whose bytes the curve changes, counted here from the two documents.
          let changed = 0;
          for (let i = 0; i < doc[kind].count; i++) {
            const o = i * doc[kind].size;
            if (!same(doc[kind].bytes.subarray(o, o + doc[kind].size), packed.doc[kind].bytes.subarray(o, o + doc[kind].size))) changed++;
          }
          expect(changed, rel).toBeGreaterThan(0);
          // The indices (4 bytes each) and the field before the edit: not a second copy of it after.
          expect(diffBytes(packed.diff), rel).toBe(changed * (4 + len));
          let now = packed.doc;
          for (let round = 0; round < 3; round++) {
            now = revertDiff(now, packed.diff);
            expect(same(writeVmd(now), bytes), `${rel} undo ${round}`).toBe(true);
            now = applyDiff(now, packed.diff);
            expect(same(writeVmd(now), expected), `${rel} redo ${round}`).toBe(true);
            // The sliced forms the editor runs at 600,000 keys.
            const undone = drain(applyDiffSteps(now, packed.diff, 'revert'));
            expect(same(writeVmd(undone), bytes), `${rel} sliced undo ${round}`).toBe(true);
            expect(same(writeVmd(drain(applyDiffSteps(undone, packed.diff, 'apply'))), expected), `${rel} sliced redo ${round}`).toBe(true);
          }
        }
      }
    }
  });

  it('a partial delete keeps its per-record diff and round-trips', () => {
    const bytes = randomMotion(99);
    const doc = open(bytes);
    const out = ok(deleteRecords(doc, { bone: RecordSet.of([0, 2, 4]) }));
    expect(out.doc.bone.count).toBe(doc.bone.count - 3);
    expect(out.diff.blocks[0].removed.map((x) => x.index)).toEqual([0, 2, 4]);
    expect(same(writeVmd(revertDiff(out.doc, out.diff)), bytes)).toBe(true);
  });
});
