// Self-shadow keys as an edit kind (issue 13): insert (the key in force, or off/0 on an empty track),
// move (the frame field only), delete, value edits (mode byte, distance float), copy/paste, mirror
// (no side: unchanged) and the inspector's mixed values — each a diff that reverts to the original
// bytes exactly. The fixture is written field by field (test/helpers/vmd-fixtures.ts), not by the codec.
import { describe, expect, it } from 'vitest';
import { buildTracks, vmdFromJson, writeVmd, SHADOW_DEFAULT } from '../../../shared/vmd';
import {
  applyDiff, copyKeys, deleteKeys, diffBytes, editValues, entryEdit, insertKey, mirrorPasteKeys, moveKeys, parseEntry, replacedCount, pasteKeys, revertDiff, summarizeKeys, EDIT_KINDS, type KeyRef,
} from '../../../shared/key-edits';
import { buildFixture } from '../../helpers/vmd-fixtures';
import { accepted as ok, readOk as parse } from '../../helpers/key-edit';

// Two camera keys, one light key, three self-shadow keys (file order: frames 20, 0, 50).
const BYTES = buildFixture({
  cameras: [{ frame: 0, distance: -45, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 }, { frame: 60, distance: -30, target: [0, 12, 0], rotation: [0, 0.5, 0], fov: 40 }],
  lights: [{ frame: 0, color: [0.6, 0.6, 0.6], direction: [-0.5, -1, 0.5] }],
  shadows: [{ frame: 20, mode: 2, distance: 0.05 }, { frame: 0, mode: 1, distance: 0.01125 }, { frame: 50, mode: 0, distance: 0.1 }],
});
/** Offset of self-shadow record i: header 50; bone, morph, camera counts; 2 × 61 camera; light count + 28; shadow count. */
const SHADOW_START = 50 + 4 + 4 + 4 + 2 * 61 + 4 + 28 + 4;
const at = (i: number) => SHADOW_START + 9 * i;

function differing(a: Uint8Array, b: Uint8Array): number[] {
  expect(b.length).toBe(a.length);
  const out: number[] = [];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) out.push(i);
  return out;
}
/** A self-shadow record read straight from file bytes: frame, mode, distance. */
function record(bytes: Uint8Array, i: number): [number, number, number] {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return [v.getUint32(at(i), true), bytes[at(i) + 4], v.getFloat32(at(i) + 5, true)];
}
const f = Math.fround;

describe('self-shadow keys in the editor', () => {
  const doc = parse(BYTES);
  const tracks = buildTracks(doc);

  it('is an edit kind, between light and display/IK', () => {
    expect(EDIT_KINDS).toEqual(['bone', 'morph', 'camera', 'light', 'shadow', 'ik']);
    expect(record(BYTES, 1)).toEqual([0, 1, f(0.01125)]); // the fixture as written
    expect([...tracks.shadow.frames]).toEqual([0, 20, 50]);
  });

  it('insert takes the key in force (before the first: the first), appended; revert is byte-exact', () => {
    for (const [frame, mode, distance] of [[35, 2, 0.05], [10, 1, 0.01125], [70, 0, 0.1]] as const) {
      const r = insertKey(doc, tracks, { kind: 'shadow' }, frame);
      const e = ok(r);
      expect(e.record).toBe(3);
      const out = writeVmd(e.doc);
      expect(out.length).toBe(BYTES.length + 9);
      // Everything before the block's count and every record after it untouched; the count 3 → 4.
      expect(out.subarray(0, SHADOW_START - 4)).toEqual(BYTES.subarray(0, SHADOW_START - 4));
      expect(new DataView(out.buffer, out.byteOffset).getUint32(SHADOW_START - 4, true)).toBe(4);
      expect(out.subarray(at(0), at(3))).toEqual(BYTES.subarray(at(0), at(3)));
      expect(out.subarray(at(4))).toEqual(BYTES.subarray(at(3)));
      expect(record(out, 3)).toEqual([frame, mode, f(distance)]);
      expect(writeVmd(revertDiff(e.doc, e.diff))).toEqual(BYTES);
      expect(writeVmd(applyDiff(doc, e.diff))).toEqual(out);
    }
    // Before every key: a key at 0 exists there, so insert there is refused; a document whose first key is at 20.
    const later = parse(buildFixture({ shadows: [{ frame: 20, mode: 2, distance: 0.07 }] }));
    const e = ok(insertKey(later, buildTracks(later), { kind: 'shadow' }, 5));
    expect(e.doc.shadow.count).toBe(2);
    const o = 9 * 1;
    expect([e.doc.shadow.view.getUint32(o, true), e.doc.shadow.bytes[o + 4], e.doc.shadow.view.getFloat32(o + 5, true)]).toEqual([5, 2, f(0.07)]);
    const r = insertKey(doc, tracks, { kind: 'shadow' }, 20);
    expect(!r.ok && r.error.code).toBe('E_EXISTS');
  });

  it("insert on an empty self-shadow track: MMD's panel defaults, mode 1 and range 8875 (stored 0.1 − 8875 / 100000)", () => {
    const empty = parse(buildFixture({ cameras: [{ frame: 0, distance: -45, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 }] }));
    const e = ok(insertKey(empty, buildTracks(empty), { kind: 'shadow' }, 12));
    expect(SHADOW_DEFAULT.mode).toBe(1);
    expect(SHADOW_DEFAULT.distance).toBeCloseTo(0.01125, 12);
    const want = new Uint8Array(9);
    const v = new DataView(want.buffer);
    v.setUint32(0, 12, true);
    want[4] = 1;
    v.setFloat32(5, 0.01125, true);
    expect([...e.doc.shadow.bytes]).toEqual([...want]);
    expect(writeVmd(revertDiff(e.doc, e.diff))).toEqual(writeVmd(empty));
  });

  it('a JSON self-shadow key without mode or distance gets the same defaults as a key inserted on an empty track', () => {
    const r = vmdFromJson(JSON.stringify({ shadows: [{ frame: 12 }] }));
    expect(r.ok).toBe(true);
    const empty = parse(buildFixture({ cameras: [{ frame: 0, distance: -45, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 }] }));
    const e = ok(insertKey(empty, buildTracks(empty), { kind: 'shadow' }, 12));
    expect(r.ok && [...r.value.shadow.bytes]).toEqual([...e.doc.shadow.bytes]);
  });

  it('move changes the frame field only; replaces a key it lands on; revert byte-exact', () => {
    const e = ok(moveKeys(doc, tracks, [{ kind: 'shadow', record: 0 }], 2)); // 20 → 22
    const out = writeVmd(e.doc);
    const d = differing(BYTES, out);
    expect(d.length).toBeGreaterThan(0);
    for (const i of d) expect(i >= at(0) && i < at(0) + 4).toBe(true);
    expect(record(out, 0)).toEqual([22, 2, f(0.05)]);
    expect(diffBytes(e.diff)).toBe(4); // a shift: the moved record's index (4 bytes) and the offset, not its bytes
    expect(writeVmd(revertDiff(e.doc, e.diff))).toEqual(BYTES);
    // 20 → 50, where a key stays: that key (record 2) is removed in the same step, undo puts it back.
    const c = ok(moveKeys(doc, tracks, [{ kind: 'shadow', record: 0 }], 30));
    const cut = writeVmd(c.doc);
    expect(cut.length).toBe(BYTES.length - 9);
    expect(record(cut, 0)).toEqual([50, 2, f(0.05)]);
    expect(record(cut, 1)).toEqual([0, 1, f(0.01125)]);
    expect(replacedCount(c.diff)).toBe(1);
    expect(writeVmd(revertDiff(c.doc, c.diff))).toEqual(BYTES);
    // Two keys moved together past each other's frames: both move, nothing is replaced.
    const both = ok(moveKeys(doc, tracks, [{ kind: 'shadow', record: 0 }, { kind: 'shadow', record: 2 }], 30));
    expect(replacedCount(both.diff)).toBe(0);
    expect(record(writeVmd(both.doc), 2)).toEqual([80, 0, f(0.1)]);
  });

  it('delete removes the 9 bytes of that record only; revert byte-exact', () => {
    const e = ok(deleteKeys(doc, [{ kind: 'shadow', record: 1 }]));
    const out = writeVmd(e.doc);
    expect(out.length).toBe(BYTES.length - 9);
    expect(record(out, 0)).toEqual([20, 2, f(0.05)]);
    expect(record(out, 1)).toEqual([50, 0, f(0.1)]);
    expect(out.subarray(at(2))).toEqual(BYTES.subarray(at(3))); // the IK block after it
    expect(new DataView(out.buffer, out.byteOffset).getUint32(at(0) - 4, true)).toBe(2); // the count
    expect(writeVmd(revertDiff(e.doc, e.diff))).toEqual(BYTES);
  });

  it('value edits: the mode byte and the distance float of each key given, nothing else; revert byte-exact', () => {
    const refs: KeyRef[] = [{ kind: 'shadow', record: 0 }, { kind: 'shadow', record: 2 }];
    for (const m of [0, 1, 2]) {
      const mode = ok(editValues(doc, refs, { shadowMode: m }));
      const o = writeVmd(mode.doc);
      expect([o[at(0) + 4], o[at(1) + 4], o[at(2) + 4]]).toEqual([m, 1, m]); // record 1 not selected
      // Only the mode bytes that change (record 0 holds 2, record 2 holds 0).
      expect(differing(BYTES, o)).toEqual([...(m !== 2 ? [at(0) + 4] : []), ...(m !== 0 ? [at(2) + 4] : [])]);
      expect(writeVmd(revertDiff(mode.doc, mode.diff))).toEqual(BYTES);
    }
    let out: Uint8Array;
    const dist = ok(editValues(doc, refs, { shadowDistance: 0.025 }));
    out = writeVmd(dist.doc);
    expect(record(out, 0)).toEqual([20, 2, f(0.025)]);
    expect(record(out, 2)).toEqual([50, 0, f(0.025)]);
    expect(record(out, 1)).toEqual([0, 1, f(0.01125)]);
    for (const i of differing(BYTES, out)) expect((i >= at(0) + 5 && i < at(0) + 9) || (i >= at(2) + 5 && i < at(2) + 9)).toBe(true);
    expect(writeVmd(revertDiff(dist.doc, dist.diff))).toEqual(BYTES);
    // A relative entry adds to each key's own range (MMD's panel figure): +1000 is 0.01 less stored.
    const rel = ok(editValues(doc, refs, entryEdit('shadowDistance', 0, parseEntry('+1000')!)));
    out = writeVmd(rel.doc);
    expect(record(out, 0)[2]).toBe(f(f(0.05) - 0.01));
    expect(record(out, 2)[2]).toBe(f(f(0.1) - 0.01));
    // A range typed is stored as MMD stores it: 8875 is its default's float (0.1 − 8875 / 100000), 0 is 0.1.
    const typed = ok(editValues(doc, refs, entryEdit('shadowDistance', 0, parseEntry('8875')!)));
    out = writeVmd(typed.doc);
    expect(record(out, 0)[2]).toBe(f(0.01125));
    expect(record(out, 2)[2]).toBe(f(0.01125));
    expect(record(writeVmd(ok(editValues(doc, refs, entryEdit('shadowDistance', 0, parseEntry('0')!))).doc), 0)[2]).toBe(f(0.1));
    // A mode outside 0–2 writes nothing.
    const bad = ok(editValues(doc, refs, { shadowMode: 3 }));
    expect(writeVmd(bad.doc)).toEqual(BYTES);
  });

  it('copy/paste: onto a frame with a key overwrites it in place, elsewhere appends; revert byte-exact', () => {
    const clip = copyKeys(doc, [{ kind: 'shadow', record: 0 }, { kind: 'shadow', record: 1 }]); // frames 20 and 0
    expect(clip.items.map((it) => [it.kind, it.offset])).toEqual([['shadow', 20], ['shadow', 0]]);
    const p = pasteKeys(doc, tracks, clip, 30); // 0 → 30 (new), 20 → 50 (over the key there)
    const e = ok(p);
    const out = writeVmd(e.doc);
    expect(out.length).toBe(BYTES.length + 9);
    expect(record(out, 2)).toEqual([50, 2, f(0.05)]);
    expect(record(out, 3)).toEqual([30, 1, f(0.01125)]);
    expect(e.records).toEqual([{ kind: 'shadow', record: 2 }, { kind: 'shadow', record: 3 }]);
    expect(writeVmd(revertDiff(e.doc, e.diff))).toEqual(BYTES);
  });

  it('mirror paste leaves self-shadow records as they are (no side)', () => {
    const clip = copyKeys(doc, [{ kind: 'shadow', record: 0 }]);
    const e = ok(mirrorPasteKeys(doc, tracks, clip, 40));
    expect(record(writeVmd(e.doc), 3)).toEqual([40, 2, f(0.05)]);
  });

  it('the inspector summary: mode and distance, mixed where the selected keys differ', () => {
    const one = summarizeKeys(doc, [{ kind: 'shadow', record: 1 }], { kind: 'shadow', record: 1 })!;
    expect(one.shadowMode).toEqual({ value: 1, mixed: false });
    // Shown as MMD's panel shows it: the stored 0.01125 is the range 8875.
    expect(one.numbers.shadowDistance).toEqual([{ value: 8875, mixed: false }]);
    expect(one.frame).toEqual({ value: 0, mixed: false });
    const all: KeyRef[] = [0, 1, 2].map((record) => ({ kind: 'shadow', record }));
    const many = summarizeKeys(doc, all, all[0])!;
    expect(many.count).toBe(3);
    expect(many.shadowMode).toEqual({ value: 2, mixed: true });
    expect(many.numbers.shadowDistance).toEqual([{ value: 5000, mixed: true }]);
    // Two keys sharing a mode: not mixed.
    const same = parse(buildFixture({ shadows: [{ frame: 0, mode: 1, distance: 0.02 }, { frame: 9, mode: 1, distance: 0.02 }] }));
    const s = summarizeKeys(same, [{ kind: 'shadow', record: 0 }, { kind: 'shadow', record: 1 }], { kind: 'shadow', record: 0 })!;
    expect(s.shadowMode).toEqual({ value: 1, mixed: false });
    expect(s.numbers.shadowDistance).toEqual([{ value: 8000, mixed: false }]);
    // Other kinds carry no self-shadow mode.
    expect(summarizeKeys(doc, [{ kind: 'light', record: 0 }], { kind: 'light', record: 0 })!.shadowMode).toBeUndefined();
  });
});
