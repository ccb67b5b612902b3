/** IK on/off over time from a VMD's IK block, per IK bone name: the preview and the skeleton read it alike. */
import { matchKey } from '../pmx/model-inspect';
import { ikKey } from '../vmd/records';
import type { MotionTracks } from '../vmd/tracks';
import type { VmdDocument } from '../vmd/vmd-document';

/** IK on/off over time for each IK bone name, from the VMD IK block (step: the last key at or before f). */
export interface IkSwitches {
  frames: Uint32Array;
  /** Per IK bone matching key: enabled flag per key (parallel to frames); absent name = enabled. */
  byName: Map<string, Uint8Array>;
}

export function ikSwitchesOf(doc: VmdDocument | null, tracks: MotionTracks | null): IkSwitches {
  const empty: IkSwitches = { frames: new Uint32Array(0), byName: new Map() };
  if (!doc || !tracks || tracks.ik.frames.length === 0) return empty;
  const n = tracks.ik.frames.length;
  const byName = new Map<string, Uint8Array>();
  for (let k = 0; k < n; k++) {
    const key = ikKey(doc.ik, tracks.ik.record[k]);
    for (const item of key.iks) {
      const name = matchKey(item.name);
      let arr = byName.get(name);
      if (!arr) {
        // Keys before this name's first mention keep it on (MMD's default).
        arr = new Uint8Array(n).fill(1);
        byName.set(name, arr);
      }
      arr[k] = item.enabled ? 1 : 0;
      // Later keys inherit until the name is mentioned again.
      for (let j = k + 1; j < n; j++) arr[j] = arr[k];
    }
  }
  return { frames: tracks.ik.frames, byName };
}
