// Incremental track update for curve-only edits (document store fast path): after a curve edit, its
// undo and its redo, the patched tracks must equal a full buildTracks of the same document, on real
// motions (bone curves, including duplicate keys and physics-flagged blocks) and a real camera.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  applyDiff, deleteKeys, editValues, isCurveOnlyDiff, moveKeys, revertDiff, setCurves, updateTrackCurves,
  type KeyEdit, type KeyRef,
} from '../../../shared/key-edits';
import { buildTracks, readVmd, type MotionTracks, type VmdDocument } from '../../../shared/vmd';
import { corpusDir, corpusPresent } from '../../helpers/corpus';

function open(rel: string): VmdDocument {
  const r = readVmd(new Uint8Array(readFileSync(path.join(corpusDir, rel))));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

function ok(o: ReturnType<typeof setCurves>): KeyEdit {
  if (!o.ok) throw new Error(o.error.message);
  return o.value;
}

/** Every array of the tracks, compared field by field (typed arrays by content). */
function expectSameTracks(a: MotionTracks, b: MotionTracks) {
  expect(Array.from(a.bones.curves)).toEqual(Array.from(b.bones.curves));
  expect(Array.from(a.camera.curves)).toEqual(Array.from(b.camera.curves));
  expect(Array.from(a.bones.frames)).toEqual(Array.from(b.bones.frames));
  expect(Array.from(a.bones.rotation)).toEqual(Array.from(b.bones.rotation));
  expect(Array.from(a.camera.frames)).toEqual(Array.from(b.camera.frames));
  expect(a.lastFrame).toBe(b.lastFrame);
}

/** A spread of keys of a kind: every 7th record (duplicates included when the file has them). */
function spread(doc: VmdDocument, kind: 'bone' | 'camera'): KeyRef[] {
  const out: KeyRef[] = [];
  for (let r = 0; r < doc[kind].count; r += 7) out.push({ kind, record: r });
  return out;
}

describe.skipIf(!corpusPresent)('incremental curve update of the tracks', () => {
  for (const rel of ['gene/motion/02_laugh.vmd', 'babylon-mmd/res/motion/physics_toggle_test_yyb10th.vmd', 'threejs/vmds/wavefile_camera.vmd']) {
    it(`equals buildTracks after a curve edit, undo and redo on ${rel}`, () => {
      const doc0 = open(rel);
      const kind = doc0.bone.count ? 'bone' : 'camera';
      const tracks = buildTracks(doc0);
      const before = Array.from(kind === 'bone' ? tracks.bones.curves : tracks.camera.curves);
      const r = ok(setCurves(doc0, spread(doc0, kind), { 0: [5, 90, 60, 7], 3: [127, 0, 0, 127] }));
      expect(isCurveOnlyDiff(r.diff)).toBe(true);

      expect(updateTrackCurves(tracks, r.doc, r.diff)).toBe(true);
      // The edit changed something the tracks show (otherwise the comparison below proves nothing).
      expect(Array.from(kind === 'bone' ? tracks.bones.curves : tracks.camera.curves)).not.toEqual(before);
      expectSameTracks(tracks, buildTracks(r.doc));

      const undone = revertDiff(r.doc, r.diff);
      expect(updateTrackCurves(tracks, undone, r.diff)).toBe(true);
      expectSameTracks(tracks, buildTracks(doc0));

      const redone = applyDiff(undone, r.diff);
      expect(updateTrackCurves(tracks, redone, r.diff)).toBe(true);
      expectSameTracks(tracks, buildTracks(r.doc));
    });
  }

  it('refuses (and leaves the tracks alone) for edits that change more than curves', () => {
    const doc = open('gene/motion/02_laugh.vmd');
    const tracks = buildTracks(doc);
    const snapshot = Array.from(tracks.bones.curves);
    const refs: KeyRef[] = [{ kind: 'bone', record: 5 }];
    const moved = moveKeys(doc, tracks, refs, 1);
    const deleted = deleteKeys(doc, refs);
    const valued = editValues(doc, refs, { position: [1, 2, 3] });
    const physics = editValues(doc, refs, { physicsOff: true });
    for (const o of [moved, deleted, valued]) {
      if (!o.ok) throw new Error(o.error.message);
      expect(isCurveOnlyDiff(o.value.diff)).toBe(false);
      expect(updateTrackCurves(tracks, o.value.doc, o.value.diff)).toBe(false);
    }
    // The physics flag sits inside the interpolation block: patching is still exact (curves re-read).
    if (!physics.ok) throw new Error(physics.error.message);
    expect(updateTrackCurves(tracks, physics.value.doc, physics.value.diff)).toBe(true);
    expectSameTracks(tracks, buildTracks(physics.value.doc));
    expect(Array.from(tracks.bones.curves).length).toBe(snapshot.length);
  });
});
