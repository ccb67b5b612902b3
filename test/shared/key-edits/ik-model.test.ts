// Display/IK keys list every IK bone of the model shown, as MMD's 表示・IK panel registers them. Before, a new key
// copied the names of the key in force (or, with no key, the four standard leg IKs), and a toggle reached only
// the keys that listed the bone: low-poly miku's necktie and hair IKs (ﾈｸﾀｲＩＫ, 左髪ＩＫ, 右髪ＩＫ) could not be
// switched in Drink.vmd, whose one key lists the leg IKs only, nor in a new motion.
// Records are read field by field here (frame u32 | visible u8 | n u32 | n × (name 20 | on u8)); the expected
// lists are written out by hand from the files' keys (Drink.vmd: frame 0, the four leg IKs off) and the model's IKs.
import { describe, expect, it } from 'vitest';
import { buildTracks, decodeName, emptyVmd, encodeIkRecord, ikBlockFromRecords, withBlocks, type VmdDocument } from '../../../shared/vmd';
import { editValues, ikRecordAt, insertKey, registerValuesAt } from '../../../shared/key-edits';
import { corpusModel, corpusMotion, corpusPresent } from '../../helpers/corpus';
import { accepted } from '../../helpers/key-edit';

type Item = [string, number];

/** Record i of a document's display/IK block: its frame, display flag and switches. */
function ikAt(doc: VmdDocument, i: number): { frame: number; visible: number; iks: Item[] } {
  const rec = doc.ik.bytes.subarray(doc.ik.offsets[i], doc.ik.offsets[i + 1]);
  return read(rec);
}
function read(rec: Uint8Array): { frame: number; visible: number; iks: Item[] } {
  const v = new DataView(rec.buffer, rec.byteOffset, rec.byteLength);
  const n = v.getUint32(5, true);
  expect(rec.length).toBe(9 + 21 * n);
  return { frame: v.getUint32(0, true), visible: rec[4], iks: Array.from({ length: n }, (_, j): Item => [decodeName(rec, 9 + 21 * j, 20), rec[9 + 21 * j + 20]]) };
}

describe('display/IK keys and the IK bones of a fixture model', () => {
  // Keys: 0 lists A on; 10 lists B off (A not listed: still on); 20 lists nothing and hides the model.
  const keys = [
    encodeIkRecord({ frame: 0, visible: 1, iks: [{ name: 'A', enabled: 1 }] }),
    encodeIkRecord({ frame: 10, visible: 1, iks: [{ name: 'B', enabled: 0 }] }),
    encodeIkRecord({ frame: 20, visible: 0, iks: [] }),
  ];
  const doc = withBlocks(emptyVmd(), { ik: ikBlockFromRecords(keys) });
  const tracks = buildTracks(doc);

  it('a new key copies the key in force and adds the model IK bones it lacks, each with its state in force', () => {
    // At 25: key 20's (display off, no names), then A (on since 0), B (off since 10), C (never named: on).
    expect(read(ikRecordAt(doc, tracks, 25, ['A', 'B', 'C']))).toEqual({ frame: 25, visible: 0, iks: [['A', 1], ['B', 0], ['C', 1]] });
    // At 12: key 10's B off, then A (on) and C (on).
    expect(read(ikRecordAt(doc, tracks, 12, ['A', 'B', 'C']))).toEqual({ frame: 12, visible: 1, iks: [['B', 0], ['A', 1], ['C', 1]] });
    // Without a model: the key in force as it is.
    expect(read(ikRecordAt(doc, tracks, 12))).toEqual({ frame: 12, visible: 1, iks: [['B', 0]] });
  });

  it('a toggle on a key that does not list the IK bone adds it to that key', () => {
    const r = accepted(editValues(doc, [{ kind: 'ik', record: 0 }, { kind: 'ik', record: 1 }], { ik: { name: 'C', enabled: false } }));
    expect(ikAt(r.doc, 0)).toEqual({ frame: 0, visible: 1, iks: [['A', 1], ['C', 0]] });
    expect(ikAt(r.doc, 1)).toEqual({ frame: 10, visible: 1, iks: [['B', 0], ['C', 0]] });
    expect(ikAt(r.doc, 2)).toEqual({ frame: 20, visible: 0, iks: [] });
  });
});

describe.skipIf(!corpusPresent)('display/IK keys on low-poly miku (7 IK bones: necktie, hair, legs)', () => {
  const miku = corpusModel('mmd-viewer-js/model/low_miku/miku.pmd');
  const iks = miku.bones.filter((b) => b.ik).map((b) => b.name);
  const drink = corpusMotion('mc-mmd-rust/default_anim/Drink.vmd');

  it('the fixture: the model has 7 IK bones; Drink.vmd has one key, the leg IKs off', () => {
    expect(iks).toEqual(['ﾈｸﾀｲＩＫ', '左髪ＩＫ', '右髪ＩＫ', '左足ＩＫ', '右足ＩＫ', '左つま先ＩＫ', '右つま先ＩＫ']);
    expect(drink.ik.count).toBe(1);
    expect(ikAt(drink, 0)).toEqual({ frame: 0, visible: 1, iks: [['右足ＩＫ', 0], ['右つま先ＩＫ', 0], ['左足ＩＫ', 0], ['左つま先ＩＫ', 0]] });
  });

  it('Register on the 表示・IK row at 30 lists the leg IKs as in force and the necktie and hair IKs on', () => {
    const r = accepted(insertKey(drink, buildTracks(drink), { kind: 'ik', iks }, 30));
    expect(ikAt(r.doc, r.record)).toEqual({
      frame: 30, visible: 1,
      iks: [['右足ＩＫ', 0], ['右つま先ＩＫ', 0], ['左足ＩＫ', 0], ['左つま先ＩＫ', 0], ['ﾈｸﾀｲＩＫ', 1], ['左髪ＩＫ', 1], ['右髪ＩＫ', 1]],
    });
  });

  it("a new motion's first key lists the model's IK bones (not the four standard leg IKs)", () => {
    const empty = emptyVmd();
    const r = accepted(insertKey(empty, buildTracks(empty), { kind: 'ik', iks }, 0));
    expect(ikAt(r.doc, r.record)).toEqual({ frame: 0, visible: 1, iks: iks.map((n): Item => [n, 1]) });
  });

  it('ticking 左髪ＩＫ off at a frame with no key registers a key there with every IK bone, 左髪ＩＫ off', () => {
    const r = accepted(registerValuesAt(drink, buildTracks(drink), { kind: 'ik', iks }, 40, { ik: { name: '左髪ＩＫ', enabled: false } }));
    expect(ikAt(r.doc, r.record)).toEqual({
      frame: 40, visible: 1,
      iks: [['右足ＩＫ', 0], ['右つま先ＩＫ', 0], ['左足ＩＫ', 0], ['左つま先ＩＫ', 0], ['ﾈｸﾀｲＩＫ', 1], ['左髪ＩＫ', 0], ['右髪ＩＫ', 1]],
    });
  });
});
