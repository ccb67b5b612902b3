// Display/IK keys in the editor: record diffs on the variable-size IK block (a patch that grows or
// shrinks a record, removals, appends) applied and reverted byte for byte, and the key edits on IK
// keys (display / IK bone toggles, insert with the state in force, move with collisions refused,
// delete, copy/paste). Expected files are written field by field with the fixture writer, never with
// the codec under test; every edit's undo must give back the original bytes.
import { describe, expect, it } from 'vitest';
import { buildTracks, writeVmd } from '../../../shared/vmd';
import {
  applyDiff, copyKeys, deleteKeys, editValues, insertKey, moveKeys, pasteKeys, replacedCount, revertDiff, type EditDiff, type KeyEdit, type KeyRef,
} from '../../../shared/key-edits';
import { ByteWriter, buildFixture, SJIS } from '../../helpers/vmd-fixtures';
import { corpusPresent, readCorpus } from '../../helpers/corpus';
import { accepted as ok, readOk as open } from '../../helpers/key-edit';

type IkItem = { name: number[] | string; enabled: number };
type IkFixture = { frame: number; visible: number; iks: IkItem[] };

/** One IK record, field by field: frame u32 | visible u8 | n u32 | n × (name 20 | enabled u8). */
function ikRec(k: IkFixture): Uint8Array {
  const w = new ByteWriter().u32(k.frame).u8(k.visible).u32(k.iks.length);
  for (const it of k.iks) w.fixed(it.name, 20).u8(it.enabled);
  return w.done();
}

// Shift_JIS of the standard leg IK names (JIS X 0208: 左 8DB6, 右 8945, 足 91AB, つ 82C2, ま 82DC, 先 90E6, Ｉ 8268, Ｋ 826A).
const LEFT_LEG_IK = [0x8d, 0xb6, 0x91, 0xab, 0x82, 0x68, 0x82, 0x6a];
const RIGHT_LEG_IK = [0x89, 0x45, 0x91, 0xab, 0x82, 0x68, 0x82, 0x6a];
const LEFT_TOE_IK = [0x8d, 0xb6, 0x82, 0xc2, 0x82, 0xdc, 0x90, 0xe6, 0x82, 0x68, 0x82, 0x6a];
const RIGHT_TOE_IK = [0x89, 0x45, 0x82, 0xc2, 0x82, 0xdc, 0x90, 0xe6, 0x82, 0x68, 0x82, 0x6a];

// A name with bytes after its NUL (kept raw by every edit that copies the record).
const PADDED = [0x41, 0x00, 0xcc, 0xcc, 0xcc];
const A = (enabled: number): IkItem => ({ name: LEFT_LEG_IK, enabled });
const B = (enabled: number): IkItem => ({ name: 'toeIK_R', enabled });
const C = (enabled: number): IkItem => ({ name: PADDED, enabled });

/** Four IK keys of 51, 30, 9 and 72 bytes. */
const BASE: IkFixture[] = [
  { frame: 0, visible: 1, iks: [A(1), B(1)] },
  { frame: 10, visible: 1, iks: [A(0)] },
  { frame: 20, visible: 0, iks: [] },
  { frame: 30, visible: 1, iks: [A(1), B(0), C(1)] },
];

/** A file with a bone, a morph, a light and a shadow key around the IK block (all must stay). */
function file(ik: IkFixture[]): Uint8Array {
  return buildFixture({
    bones: [{ name: SJIS.センター, frame: 0, pos: [1, 2, 3] }],
    morphs: [{ name: SJIS.まばたき, frame: 5, weight: 0.5 }],
    lights: [{ frame: 0, color: [0.6, 0.6, 0.6], direction: [-0.5, -1, 0.5] }],
    shadows: [{ frame: 0, mode: 1, distance: 0.01 }],
    ik,
  });
}

/** Start offsets of records of the given lengths, plus the end. */
function offsetsOf(lengths: number[]): number[] {
  const out = [0];
  for (const n of lengths) out.push(out[out.length - 1] + n);
  return out;
}

const ik = (kind: 'ik', record: number): KeyRef => ({ kind, record });

describe('IK record diffs (variable-size records)', () => {
  const original = file(BASE);
  const doc = open(original);
  const rec = (i: number) => ikRec(BASE[i]);
  const grown: IkFixture = { frame: 10, visible: 1, iks: [A(0), B(1), C(0)] }; // 30 → 72 bytes
  const shrunk: IkFixture = { frame: 30, visible: 0, iks: [] }; // 72 → 9 bytes
  const added1: IkFixture = { frame: 40, visible: 1, iks: [B(1)] };
  const added2: IkFixture = { frame: 50, visible: 0, iks: [A(1), C(0)] };

  const cases: { name: string; diff: EditDiff; expected: IkFixture[] }[] = [
    {
      name: 'a patch that grows a record',
      diff: { label: 'grow', blocks: [{ kind: 'ik', patches: [{ index: 1, before: rec(1), after: ikRec(grown) }], removed: [], appended: [] }] },
      expected: [BASE[0], grown, BASE[2], BASE[3]],
    },
    {
      name: 'a patch that shrinks a record',
      diff: { label: 'shrink', blocks: [{ kind: 'ik', patches: [{ index: 3, before: rec(3), after: ikRec(shrunk) }], removed: [], appended: [] }] },
      expected: [BASE[0], BASE[1], BASE[2], shrunk],
    },
    {
      name: 'removals (first and middle)',
      diff: { label: 'remove', blocks: [{ kind: 'ik', patches: [], removed: [{ index: 0, bytes: rec(0) }, { index: 2, bytes: rec(2) }], appended: [] }] },
      expected: [BASE[1], BASE[3]],
    },
    {
      name: 'appends',
      diff: { label: 'append', blocks: [{ kind: 'ik', patches: [], removed: [], appended: [ikRec(added1), ikRec(added2)] }] },
      expected: [...BASE, added1, added2],
    },
    {
      name: 'all together',
      diff: {
        label: 'all',
        blocks: [{
          kind: 'ik',
          patches: [{ index: 1, before: rec(1), after: ikRec(grown) }, { index: 3, before: rec(3), after: ikRec(shrunk) }],
          removed: [{ index: 0, bytes: rec(0) }, { index: 2, bytes: rec(2) }],
          appended: [ikRec(added2)],
        }],
      },
      expected: [grown, shrunk, added2],
    },
  ];

  for (const c of cases) {
    it(`applies and reverts ${c.name} byte for byte, offsets rebuilt`, () => {
      const applied = applyDiff(doc, c.diff);
      const want = file(c.expected);
      expect(Array.from(writeVmd(applied))).toEqual(Array.from(want));
      // Offsets from the lengths 9 + 21 n, counted here.
      const lengths = c.expected.map((k) => 9 + 21 * k.iks.length);
      expect(applied.ik.count).toBe(c.expected.length);
      expect(Array.from(applied.ik.offsets)).toEqual(offsetsOf(lengths));
      // The other blocks are the same objects (shared, not copied).
      for (const k of ['bone', 'morph', 'camera', 'light', 'shadow'] as const) expect(applied[k]).toBe(doc[k]);
      const reverted = revertDiff(applied, c.diff);
      expect(Array.from(writeVmd(reverted))).toEqual(Array.from(original));
      expect(Array.from(reverted.ik.offsets)).toEqual(offsetsOf(BASE.map((k) => 9 + 21 * k.iks.length)));
      // Redo after undo lands on the same bytes again.
      expect(Array.from(writeVmd(applyDiff(reverted, c.diff)))).toEqual(Array.from(want));
    });
  }

  it('applies to and reverts from an empty IK block', () => {
    const empty = open(file([]));
    const diff: EditDiff = { label: 'first', blocks: [{ kind: 'ik', patches: [], removed: [], appended: [ikRec(added1)] }] };
    const applied = applyDiff(empty, diff);
    expect(Array.from(writeVmd(applied))).toEqual(Array.from(file([added1])));
    expect(Array.from(writeVmd(revertDiff(applied, diff)))).toEqual(Array.from(file([])));
  });
});

describe('IK key edits', () => {
  const original = file(BASE);
  const doc = open(original);
  const tracks = buildTracks(doc);

  /** Checks the edit gives `expected` and its undo the original bytes. */
  function check(r: KeyEdit, expected: IkFixture[]) {
    expect(Array.from(writeVmd(r.doc))).toEqual(Array.from(file(expected)));
    expect(Array.from(writeVmd(revertDiff(r.doc, r.diff)))).toEqual(Array.from(original));
    expect(Array.from(writeVmd(applyDiff(open(original), r.diff)))).toEqual(Array.from(file(expected)));
  }

  it('turns display off on the selected keys only', () => {
    const r = ok(editValues(doc, [ik('ik', 1), ik('ik', 3)], { display: false }));
    check(r, [BASE[0], { ...BASE[1], visible: 0 }, BASE[2], { ...BASE[3], visible: 0 }]);
    expect(r.diff.blocks[0].patches.map((p) => p.index)).toEqual([1, 3]);
    // Turning it on where it is already on changes nothing.
    const same = ok(editValues(doc, [ik('ik', 0)], { display: true }));
    expect(same.diff.blocks[0].patches).toEqual([]);
  });

  it('toggles one IK bone on every selected key, adding it to a key that does not list it', () => {
    // Key 1 does not list B: it gets B off (the record grows by 21 bytes); key 3 already has B off: unchanged.
    const r = ok(editValues(doc, [ik('ik', 0), ik('ik', 1), ik('ik', 3)], { ik: { name: 'toeIK_R', enabled: false } }));
    check(r, [{ ...BASE[0], iks: [A(1), B(0)] }, { ...BASE[1], iks: [A(0), B(0)] }, BASE[2], BASE[3]]);
    expect(r.diff.blocks[0].patches.map((p) => p.index)).toEqual([0, 1]);
    // A Shift_JIS name matches by its decoded form; the padded name keeps its bytes after the NUL.
    const on = ok(editValues(doc, [ik('ik', 1), ik('ik', 3)], { ik: { name: '左足ＩＫ', enabled: true } }));
    check(on, [BASE[0], { ...BASE[1], iks: [A(1)] }, BASE[2], BASE[3]]);
    const c = ok(editValues(doc, [ik('ik', 3)], { ik: { name: 'A', enabled: false }, display: false }));
    check(c, [BASE[0], BASE[1], BASE[2], { frame: 30, visible: 0, iks: [A(1), B(0), C(0)] }]);
  });

  it('inserts a key holding the state in force: a copy of the key before it', () => {
    const r = ok(insertKey(doc, tracks, { kind: 'ik' }, 15));
    check(r, [...BASE, { ...BASE[1], frame: 15 }]);
    expect(r.record).toBe(4);
    const late = ok(insertKey(doc, tracks, { kind: 'ik' }, 95));
    check(late, [...BASE, { ...BASE[3], frame: 95 }]);
    const refused = insertKey(doc, tracks, { kind: 'ik' }, 20);
    expect(!refused.ok && refused.error.code).toBe('E_EXISTS');
  });

  it('before the first key: display on and every IK bone the block names, enabled', () => {
    const later: IkFixture[] = [
      { frame: 10, visible: 0, iks: [B(0)] },
      { frame: 20, visible: 1, iks: [A(0), C(0), B(1)] },
    ];
    const bytes = file(later);
    const d = open(bytes);
    const r = ok(insertKey(d, buildTracks(d), { kind: 'ik' }, 3));
    // First-appearance order: B (key at 10), then A and C (key at 20); C's padding kept.
    expect(Array.from(writeVmd(r.doc))).toEqual(Array.from(file([...later, { frame: 3, visible: 1, iks: [B(1), A(1), C(1)] }])));
    expect(Array.from(writeVmd(revertDiff(r.doc, r.diff)))).toEqual(Array.from(bytes));
  });

  it('with no IK key at all: the four standard leg IK bones, enabled', () => {
    const bytes = file([]);
    const d = open(bytes);
    const r = ok(insertKey(d, buildTracks(d), { kind: 'ik' }, 12));
    const want: IkFixture = {
      frame: 12, visible: 1,
      iks: [LEFT_LEG_IK, RIGHT_LEG_IK, LEFT_TOE_IK, RIGHT_TOE_IK].map((name) => ({ name, enabled: 1 })),
    };
    expect(Array.from(writeVmd(r.doc))).toEqual(Array.from(file([want])));
    expect(r.doc.ik.count).toBe(1);
    expect(Array.from(writeVmd(revertDiff(r.doc, r.diff)))).toEqual(Array.from(bytes));
    // A file whose block list ended before the IK block gets it (and its count) on insert.
    const short = buildFixture({ bones: [{ name: SJIS.センター, frame: 0 }], blocks: 2 });
    const s = open(short);
    const rs = ok(insertKey(s, buildTracks(s), { kind: 'ik' }, 12));
    const withIk = buildFixture({ bones: [{ name: SJIS.センター, frame: 0 }], ik: [want] });
    expect(Array.from(writeVmd(rs.doc))).toEqual(Array.from(withIk));
    expect(Array.from(writeVmd(revertDiff(rs.doc, rs.diff)))).toEqual(Array.from(short));
  });

  it('moves keys along time, replacing the key it lands on (as MMD)', () => {
    // 10 → 20: key 2 (not moving) is replaced, in the same step; undo puts it back (check: byte for byte).
    const onto = ok(moveKeys(doc, tracks, [ik('ik', 1)], 10));
    check(onto, [BASE[0], { ...BASE[1], frame: 20 }, BASE[3]]);
    expect(replacedCount(onto.diff)).toBe(1);
    // 10 → 20 and 20 → 30: key 3 (not moving) is replaced; key 2 moving away is not.
    const pair = ok(moveKeys(doc, tracks, [ik('ik', 1), ik('ik', 2)], 10));
    check(pair, [BASE[0], { ...BASE[1], frame: 20 }, { ...BASE[2], frame: 30 }]);
    expect(replacedCount(pair.diff)).toBe(1);
    const early = moveKeys(doc, tracks, [ik('ik', 1)], -11);
    expect(!early.ok && early.error.code).toBe('E_RANGE');
    check(ok(moveKeys(doc, tracks, [ik('ik', 1)], 5)), [BASE[0], { ...BASE[1], frame: 15 }, BASE[2], BASE[3]]);
    // Keys moving together may take each other's frames.
    check(ok(moveKeys(doc, tracks, [ik('ik', 2), ik('ik', 3)], 10)), [BASE[0], BASE[1], { ...BASE[2], frame: 30 }, { ...BASE[3], frame: 40 }]);
  });

  it('deletes keys', () => {
    check(ok(deleteKeys(doc, [ik('ik', 1), ik('ik', 3)])), [BASE[0], BASE[2]]);
    check(ok(deleteKeys(doc, [ik('ik', 0), ik('ik', 1), ik('ik', 2), ik('ik', 3)])), []);
  });

  it('copies and pastes keys at a frame; one landing on a key replaces it (a record changing length)', () => {
    const clip = copyKeys(doc, [ik('ik', 1), ik('ik', 2)]);
    check(ok(pasteKeys(doc, tracks, clip, 40)), [...BASE, { ...BASE[1], frame: 40 }, { ...BASE[2], frame: 50 }]);
    // At 30: key 1's copy (30 bytes) replaces key 3 (72 bytes) in place; key 2's copy goes to 40.
    const r = ok(pasteKeys(doc, tracks, clip, 30));
    check(r, [BASE[0], BASE[1], BASE[2], { ...BASE[1], frame: 30 }, { ...BASE[2], frame: 40 }]);
    expect(r.records).toEqual([ik('ik', 3), ik('ik', 4)]);
  });
});

describe.skipIf(!corpusPresent)('IK keys of a corpus motion (gene/motion/stand.vmd)', () => {
  it('toggles one flag and inserts a key: only those bytes change, undo restores the file', () => {
    const bytes = readCorpus('gene/motion/stand.vmd');
    const doc = open(bytes);
    const tracks = buildTracks(doc);
    // Where the IK block's first record starts, from the counts in the file (fixed record sizes).
    const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let at = 50;
    for (const size of [111, 23, 61, 28, 9]) at += 4 + v.getUint32(at, true) * size;
    expect(v.getUint32(at, true)).toBe(1); // one IK key
    const rec = at + 4;
    const n = v.getUint32(rec + 5, true);
    expect(rec + 9 + 21 * n).toBe(bytes.length);
    // Third IK bone off: one byte.
    const name2 = new TextDecoder('shift_jis').decode(bytes.subarray(rec + 9 + 42, rec + 9 + 42 + 20)).replace(/\0.*$/s, '');
    const r = ok(editValues(doc, [{ kind: 'ik', record: 0 }], { ik: { name: name2, enabled: false } }));
    const out = writeVmd(r.doc);
    const expected = bytes.slice();
    expected[rec + 9 + 42 + 20] = 0;
    expect(Buffer.compare(Buffer.from(out), Buffer.from(expected))).toBe(0);
    expect(Buffer.compare(Buffer.from(writeVmd(revertDiff(r.doc, r.diff))), Buffer.from(bytes))).toBe(0);
    // Insert at 60: the record copied with frame 60, appended, the count 2.
    const ins = ok(insertKey(doc, tracks, { kind: 'ik' }, 60));
    const copy = bytes.slice(rec);
    new DataView(copy.buffer).setUint32(0, 60, true);
    const want = new Uint8Array(bytes.length + copy.length);
    want.set(bytes);
    want.set(copy, bytes.length);
    new DataView(want.buffer).setUint32(at, 2, true);
    expect(Buffer.compare(Buffer.from(writeVmd(ins.doc)), Buffer.from(want))).toBe(0);
    expect(Buffer.compare(Buffer.from(writeVmd(revertDiff(ins.doc, ins.diff))), Buffer.from(bytes))).toBe(0);
  });
});
