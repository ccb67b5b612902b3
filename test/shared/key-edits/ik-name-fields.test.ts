// One walk over a display/IK block's IK names (shared/vmd/records.ts ikNameFields), used by the mirror's report
// (ikSwaps) and by the first display/IK key the editor makes (ikRecordAt). Before, the two had their own loops,
// one deduplicating on the name's bytes and the other on the decoded name. Two spellings that decode alike are
// kept apart: "leg IK_L" and "leg IK_L" followed by a lone Shift_JIS lead byte (0x82, a character cut by the
// field, which decodeName drops). The mirror's table of Latin pairs renames the first spelling and not the other,
// so a walk by decoded name that met the cut spelling first would leave "leg IK_L → leg IK_R" out of the report;
// and ikRecordAt's new key now lists both spellings (MMD compares the bytes: two switches), where it listed the
// first only. Fields are written byte by byte here.
import { describe, expect, it } from 'vitest';
import { buildTracks, decodeName, emptyVmd, encodeIkRecord, ikBlockFromRecords, ikKey, ikNameFields, withBlocks, IK } from '../../../shared/vmd';
import { ikMirror, ikNamesOf, ikSwaps } from '../../../shared/motion-ops/mirror';
import { ikRecordAt } from '../../../shared/key-edits';

/** A 20-byte IK name field: `bytes`, a NUL, then `pad` to the end. */
function field(bytes: number[], pad = 0): Uint8Array {
  const f = new Uint8Array(IK.ITEM_NAME_LENGTH).fill(pad);
  f.set(bytes);
  f[bytes.length] = 0;
  return f;
}
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));
const LEG = field(ascii('leg IK_L'));
const LEG_CUT = field([...ascii('leg IK_L'), 0x82]);
// 右足ＩＫ in Shift_JIS: 右 89 45, 足 91 AB, Ｉ 82 68, Ｋ 82 6A; once with NUL padding, once with MMD's 0xFD after the NUL.
const RIGHT_LEG = [0x89, 0x45, 0x91, 0xab, 0x82, 0x68, 0x82, 0x6a];

describe('the IK names of a display/IK block, one per spelling', () => {
  const doc = withBlocks(emptyVmd(), {
    ik: ikBlockFromRecords([
      encodeIkRecord({ frame: 5, visible: 1, iks: [{ name: LEG_CUT, enabled: 1 }, { name: field(RIGHT_LEG), enabled: 0 }] }),
      encodeIkRecord({ frame: 10, visible: 1, iks: [{ name: LEG, enabled: 0 }, { name: field(RIGHT_LEG, 0xfd), enabled: 1 }] }),
    ]),
  });

  it('the fixture: the two leg spellings decode alike', () => {
    expect(decodeName(LEG_CUT)).toBe('leg IK_L');
    expect(decodeName(LEG)).toBe('leg IK_L');
  });

  it('ikNameFields: each spelling once (bytes after the NUL do not count), in order of first appearance, as raw fields', () => {
    expect(ikNameFields(doc.ik)).toEqual([LEG_CUT, field(RIGHT_LEG), LEG]);
  });

  it('the mirror report lists the rename of the spelling the rule renames, though a spelling met first that decodes alike is kept', () => {
    // In order of first appearance of a renamed spelling: 右足ＩＫ (key 5), then leg IK_L's whole spelling (key 10).
    expect(ikSwaps(doc.ik, ikMirror(ikNamesOf(doc.ik)))).toEqual(['右足ＩＫ → 左足ＩＫ', 'leg IK_L → leg IK_R']);
  });

  it('a display/IK key made before the first one lists every spelling, all on', () => {
    const rec = ikRecordAt(doc, buildTracks(doc), 0);
    const k = ikKey(ikBlockFromRecords([rec]), 0);
    expect(k.iks.map((x) => x.enabled)).toEqual([1, 1, 1]);
    const n = new DataView(rec.buffer, rec.byteOffset).getUint32(IK.COUNT, true);
    const fields = Array.from({ length: n }, (_, j) => rec.slice(IK.HEADER + j * IK.ITEM, IK.HEADER + j * IK.ITEM + IK.ITEM_NAME_LENGTH));
    expect(fields).toEqual([LEG_CUT, field(RIGHT_LEG), LEG]);
  });
});
