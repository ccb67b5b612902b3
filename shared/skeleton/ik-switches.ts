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

/** A stretch of frames [from, to) (to: Infinity when no later key ends it) and the IK bones off there, as the keys name them. */
export interface IkOffSpan {
  from: number;
  to: number;
  names: string[];
}

/**
 * Where the motion's 表示・IK keys turn IK bones off, and where they hide the model (display off): each from the key
 * that switches it to the next key that changes it (the timeline shades them; the keys alone, identical diamonds, did
 * not say which leg is FK between which frames). Adjacent keys with the same IK bones off make one span.
 */
export interface IkSpans {
  off: IkOffSpan[];
  hidden: { from: number; to: number }[];
}

export function ikSpansOf(doc: VmdDocument | null, tracks: MotionTracks | null): IkSpans {
  const off: IkOffSpan[] = [], hidden: { from: number; to: number }[] = [];
  if (!doc || !tracks) return { off, hidden };
  const frames = tracks.ik.frames, n = frames.length;
  // The state in force after each key: names keep their last state until a key names them again (MMD).
  const state = new Map<string, { name: string; on: boolean }>();
  let curOff = '', curNames: string[] = [], offFrom = -1, hideFrom = -1;
  for (let k = 0; k < n; k++) {
    const key = ikKey(doc.ik, tracks.ik.record[k]);
    for (const it of key.iks) state.set(matchKey(it.name), { name: it.name, on: it.enabled !== 0 });
    const names = [...state.values()].filter((s) => !s.on).map((s) => s.name);
    const sig = names.join('\n');
    // A later key at the same frame replaces what the earlier one said there.
    if (sig !== curOff) {
      if (offFrom >= 0 && frames[k] > offFrom) off.push({ from: offFrom, to: frames[k], names: curNames });
      offFrom = names.length ? frames[k] : -1;
      curOff = sig;
      curNames = names;
    }
    const hide = key.visible === 0;
    if (hide && hideFrom < 0) hideFrom = frames[k];
    else if (!hide && hideFrom >= 0) {
      if (frames[k] > hideFrom) hidden.push({ from: hideFrom, to: frames[k] });
      hideFrom = -1;
    }
  }
  if (offFrom >= 0) off.push({ from: offFrom, to: Infinity, names: curNames });
  if (hideFrom >= 0) hidden.push({ from: hideFrom, to: Infinity });
  return { off, hidden };
}
