/** IK on/off over time from a VMD's IK block, per IK bone name: the preview and the skeleton read it alike. */
import { matchKey } from '../pmx/model-inspect';
import { ikKey } from '../vmd/records';
import type { ModelBone } from '../pmx/model-types';
import { keyAtOrBefore, type MotionTracks } from '../vmd/tracks';
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

/** Whether the IK bone `name` is on at frame f: the last key at or before f that names it (absent or before any key: on, as MMD). */
export function ikEnabledAt(sw: IkSwitches, name: string, f: number): boolean {
  const arr = sw.byName.get(matchKey(name));
  if (!arr || !sw.frames.length) return true;
  const k = keyAtOrBefore(sw.frames, 0, sw.frames.length, f);
  return k < 0 || arr[k] === 1;
}

/** An IK bone of a model and the bones its solver turns (its links: 足ＩＫ → ひざ, 足; つま先ＩＫ → 足首), by name. */
export interface IkChain {
  ik: string;
  links: string[];
}

/** The IK chains of a model's bones (a PMX/PMD's, or the built-in figure's), in the model's order. */
export function ikChainsOf(bones: readonly ModelBone[]): IkChain[] {
  const out: IkChain[] = [];
  for (const b of bones) {
    if (!b.ik) continue;
    const links = b.ik.links.map((l) => bones[l.bone]?.name).filter((n): n is string => !!n);
    if (links.length) out.push({ ik: b.name, links });
  }
  return out;
}

/**
 * The IK bones on at frame f whose solver turns the bone `bone` (as a motion names it): a key of that bone there is
 * overridden by the IK, so typing a knee's rotation with 左足ＩＫ on changes nothing in the pose (MMD does the same).
 */
export function iksHoldingAt(chains: readonly IkChain[], sw: IkSwitches, bone: string, f: number): string[] {
  const b = matchKey(bone);
  return chains.filter((c) => c.links.some((l) => matchKey(l) === b) && ikEnabledAt(sw, c.ik, f)).map((c) => c.ik);
}
