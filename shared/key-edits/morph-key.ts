/**
 * Registering a morph key from the morph panel (MMD's 表情操作: a slider, then 登録): the morph's weight at
 * `frame`. A key already at that frame keeps its record and name bytes and gets the new weight; otherwise a
 * key is added, under the motion's own name bytes for the morph when it has a track, else under the
 * model's name in Shift_JIS (a morph the motion lacks). One edit, so one undo step. Weights are float32.
 */
import type { MotionTracks } from '../vmd/tracks';
import type { VmdDocument } from '../vmd/vmd-document';
import { viewOf } from '../vmd/vmd-document';
import { encodable, encodeSjis } from '../vmd/sjis';
import { matchKey } from '../pmx/model-inspect';
import { encodeMorphRecord } from '../vmd/vmd-build';
import { MORPH } from '../vmd/vmd-layout';
import { success, type Outcome } from '../vmd/errors';
import { BlockEditor, finish, refuse, type EditOutcome, type EditRefusal, type KeyEdit } from './diff';
import { keyAtFrame, trackRange } from './key-ref';
import { MAX_FRAME } from './keys';

/**
 * Writes `weight` as the morph `name`'s key at `frame` (replaced in place when its track has a key there,
 * else added). Returns the record's index in `record`.
 */
export function registerMorphKey(doc: VmdDocument, tracks: MotionTracks, name: string, frame: number, weight: number): EditOutcome<KeyEdit & { record: number; replaced: boolean }> {
  const ed = new BlockEditor(doc.morph);
  const put = putMorphKey(ed, tracks, { name, frame, weight });
  if (!put.ok) return put;
  return success(Object.assign(finish(doc, 'morph key', [ed]), put.value));
}

/** One morph key to write: the model's (or the motion's) morph name, the frame and the weight. */
export interface MorphKeyEntry {
  name: string;
  frame: number;
  weight: number;
}

/**
 * Writes several morph keys as one edit (one undo step, `label`), each as registerMorphKey writes one; two entries
 * must not name the same morph at the same frame. Returns each entry's record, in order.
 */
export function registerMorphKeys(doc: VmdDocument, tracks: MotionTracks, entries: readonly MorphKeyEntry[], label = 'morph key'): EditOutcome<KeyEdit & { records: number[] }> {
  const ed = new BlockEditor(doc.morph);
  const records: number[] = [];
  for (const e of entries) {
    const put = putMorphKey(ed, tracks, e);
    if (!put.ok) return put;
    records.push(put.value.record);
  }
  return success(Object.assign(finish(doc, label, [ed]), { records }));
}

/** One key into `ed`: the key at that frame rewritten, else a record appended (see the file's comment). */
function putMorphKey(ed: BlockEditor, tracks: MotionTracks, { name, frame, weight }: MorphKeyEntry): Outcome<{ record: number; replaced: boolean }, EditRefusal> {
  frame = Math.round(frame);
  if (!(frame >= 0 && frame <= MAX_FRAME)) return refuse('E_RANGE', `frame ${frame} is out of range`, 'editor.refusal.frameOutOfRange', { frame });
  if (!Number.isFinite(weight)) return refuse('E_RANGE', 'the weight is not a finite number', 'editor.refusal.poseNotFinite');
  weight += 0; // a zero is written +0, as MMD writes it
  const morphs = tracks.morphs;
  // The model's name, or as a motion stores it: a name over 15 bytes is cut there (MMD writes it so).
  let track = morphs.index.get(name) ?? -1;
  if (track < 0) {
    const key = matchKey(name);
    track = morphs.names.findIndex((n) => matchKey(n) === key);
  }
  if (track >= 0) {
    const [a, b] = trackRange(morphs, track);
    const k = keyAtFrame(morphs.frames, a, b, frame);
    if (k >= 0) {
      const record = morphs.record[k];
      const rec = ed.copy(record);
      viewOf(rec).setFloat32(MORPH.WEIGHT, weight, true);
      ed.put(record, rec);
      return success({ record, replaced: true });
    }
    // The track's own name bytes (whatever follows the NUL included), as the other keys of it carry.
    const first = ed.copy(morphs.record[a]);
    const record = ed.append(encodeMorphRecord({ name: first.subarray(MORPH.NAME, MORPH.NAME + MORPH.NAME_LENGTH), frame, weight }));
    return success({ record, replaced: false });
  }
  if (!encodable(name)) return refuse('E_RANGE', `name "${name}" has characters Shift_JIS cannot encode`, 'editor.refusal.boneNameNotStorable');
  // Cut at the field's 15 bytes as MMD does; players match the name on those bytes (model-inspect matchKey).
  const field = new Uint8Array(MORPH.NAME_LENGTH);
  field.set(encodeSjis(name).subarray(0, MORPH.NAME_LENGTH));
  const record = ed.append(encodeMorphRecord({ name: field, frame, weight }));
  return success({ record, replaced: false });
}
