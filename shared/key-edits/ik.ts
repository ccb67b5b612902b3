/**
 * Display/IK keys (MMD's 表示・IK row): which state is in force at a frame, and new records holding it.
 * A record is frame u32 | display u8 | n u32 | n × (IK bone name 20 | enabled u8) (vmd-layout.ts), so
 * records differ in length with the number of IK bones they list. New keys copy the raw bytes of the
 * key before them (names keep whatever padding the file had), the way MMD carries the state forward.
 */
import { keyAtOrBefore, type MotionTracks } from '../vmd/tracks';
import { recordBytes, type IkBlock, type VmdDocument } from '../vmd/vmd-document';
import { IK } from '../vmd/vmd-layout';
import { setRecordFrame } from '../vmd/records';
import { encodeIkRecord, nameField } from '../vmd/vmd-build';
import { decodeName } from '../vmd/sjis';

/**
 * The leg IK bones of every standard model. A motion without any display/IK key gets a first key
 * with these, all on (what MMD registers for a standard model).
 */
export const STANDARD_LEG_IKS: readonly string[] = ['左足ＩＫ', '右足ＩＫ', '左つま先ＩＫ', '右つま先ＩＫ'];

/**
 * The raw 20-byte name fields of every IK bone the block's keys list, in order of first appearance
 * (one per decoded name: the first spelling in the file wins).
 */
export function ikNameFields(block: IkBlock): Uint8Array[] {
  const seen = new Set<string>();
  const out: Uint8Array[] = [];
  for (let i = 0; i < block.count; i++) {
    const o = block.offsets[i];
    const n = block.view.getUint32(o + IK.COUNT, true);
    for (let j = 0; j < n; j++) {
      const p = o + IK.HEADER + j * IK.ITEM;
      const name = decodeName(block.bytes, p, IK.ITEM_NAME_LENGTH);
      if (seen.has(name)) continue;
      seen.add(name);
      out.push(block.bytes.slice(p, p + IK.ITEM_NAME_LENGTH));
    }
  }
  return out;
}

/**
 * A new display/IK record for `frame` holding the state in force there: a copy of the key at or
 * before it (frame rewritten). Before the first key: display on and every IK bone the block names
 * enabled; with no key at all, the standard leg IK bones enabled.
 */
export function ikRecordAt(doc: VmdDocument, tracks: MotionTracks, frame: number): Uint8Array {
  const t = tracks.ik;
  const k = keyAtOrBefore(t.frames, 0, t.frames.length, frame);
  if (k >= 0) {
    const rec = recordBytes(doc.ik, t.record[k]).slice();
    setRecordFrame('ik', rec, frame);
    return rec;
  }
  const names = doc.ik.count > 0 ? ikNameFields(doc.ik) : STANDARD_LEG_IKS.map((n) => nameField(n, IK.ITEM_NAME_LENGTH, 'IK bone name'));
  return encodeIkRecord({ frame, visible: 1, iks: names.map((name) => ({ name, enabled: 1 })) });
}
