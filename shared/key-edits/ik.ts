/**
 * Display/IK keys (MMD's 表示・IK row): which state is in force at a frame, and new records holding it.
 * A record is frame u32 | display u8 | n u32 | n × (IK bone name 20 | enabled u8) (vmd-layout.ts), so
 * records differ in length with the number of IK bones they list. New keys copy the raw bytes of the
 * key before them (names keep whatever padding the file had), the way MMD carries the state forward.
 */
import { keyAtOrBefore, type MotionTracks } from '../vmd/tracks';
import { recordBytes, viewOf, type VmdDocument } from '../vmd/vmd-document';
import { IK } from '../vmd/vmd-layout';
import { ikKey, ikNameFields, setRecordFrame } from '../vmd/records';
import { encodeIkRecord, nameField } from '../vmd/vmd-build';
import { decodeName, fitNameField } from '../vmd/sjis';

/**
 * The leg IK bones of every standard model. A motion without any display/IK key gets a first key
 * with these, all on (what MMD registers for a standard model).
 */
export const STANDARD_LEG_IKS: readonly string[] = ['左足ＩＫ', '右足ＩＫ', '左つま先ＩＫ', '右つま先ＩＫ'];

/** A model's IK bone name as a display/IK key's 20-byte field holds it (cut at a character boundary, as MMD writes it). */
export function ikFieldName(name: string): string {
  return fitNameField(name, IK.ITEM_NAME_LENGTH).written;
}

/**
 * The on/off state in force at `frame` of every IK bone the keys at or before it name, by decoded name: the
 * last key naming it decides (a key that does not list a name leaves it as it was, as the preview plays it:
 * shared/skeleton/ik-switches.ts). A name no key up to there names is on (absent from the map).
 */
export function ikStatesAt(doc: VmdDocument, tracks: MotionTracks, frame: number): Map<string, boolean> {
  const t = tracks.ik;
  const out = new Map<string, boolean>();
  const last = keyAtOrBefore(t.frames, 0, t.frames.length, frame);
  for (let k = 0; k <= last; k++) for (const it of ikKey(doc.ik, t.record[k]).iks) out.set(it.name, it.enabled !== 0);
  return out;
}

/**
 * `rec` (a display/IK record) with an item appended for each of `names` it does not list (compared as decoded
 * names), each with its state in force there (`states`; on where none is). The same record when none is missing.
 */
export function withIkNames(rec: Uint8Array, names: readonly string[], states: ReadonlyMap<string, boolean> = new Map()): Uint8Array {
  const n = viewOf(rec).getUint32(IK.COUNT, true);
  const have = new Set<string>();
  for (let j = 0; j < n; j++) have.add(decodeName(rec, IK.HEADER + j * IK.ITEM, IK.ITEM_NAME_LENGTH));
  const added: Uint8Array[] = [];
  for (const name of names) {
    const f = fitNameField(name, IK.ITEM_NAME_LENGTH);
    if (have.has(f.written)) continue;
    have.add(f.written);
    const item = new Uint8Array(IK.ITEM);
    item.set(f.field);
    item[IK.ITEM_ENABLED] = states.get(f.written) === false ? 0 : 1;
    added.push(item);
  }
  if (!added.length) return rec;
  const out = new Uint8Array(rec.length + added.length * IK.ITEM);
  out.set(rec);
  added.forEach((item, i) => out.set(item, rec.length + i * IK.ITEM));
  viewOf(out).setUint32(IK.COUNT, n + added.length, true);
  return out;
}

/**
 * A new display/IK record for `frame` holding the state in force there: a copy of the key at or
 * before it (frame rewritten). Before the first key: display on and every IK bone the block names
 * enabled; with no key at all, the standard leg IK bones enabled. `modelIks`: the IK bones of the model
 * shown, where one is known: each one the record does not list is added with its state in force (on,
 * unless an earlier key turned it off), so the key lists every IK bone of the model, as MMD's 表示・IK panel
 * registers them (a model's hair, necktie or one-sided arm IK could not be switched before); a model with
 * no key yet gets its own IK bones rather than the standard leg ones.
 */
export function ikRecordAt(doc: VmdDocument, tracks: MotionTracks, frame: number, modelIks: readonly string[] = []): Uint8Array {
  const t = tracks.ik;
  const k = keyAtOrBefore(t.frames, 0, t.frames.length, frame);
  let rec: Uint8Array;
  if (k >= 0) {
    rec = recordBytes(doc.ik, t.record[k]).slice();
    setRecordFrame('ik', rec, frame);
  } else {
    const names = doc.ik.count > 0 ? ikNameFields(doc.ik) : modelIks.length ? [] : STANDARD_LEG_IKS.map((n) => nameField(n, IK.ITEM_NAME_LENGTH, 'IK bone name'));
    rec = encodeIkRecord({ frame, visible: 1, iks: names.map((name) => ({ name, enabled: 1 })) });
  }
  return modelIks.length ? withIkNames(rec, modelIks, ikStatesAt(doc, tracks, frame)) : rec;
}
