/**
 * IK switched off over a range by the VMD's show/IK block, for a bake whose keys hold bones an IK chain turns
 * (physics bake: chains with baked links; IK bake: the chains baked), so IK does not solve them again over the
 * baked keys. An IK key is added at A (and the motion's keys inside A..B get the chains off); at B+1, when the
 * motion goes on, a key gives the chains back the state the motion had there. Each new IK key lists every IK
 * bone of the model with its state in force, as MMD writes them. Keys outside the range stay byte for byte.
 */
import type { ModelData } from '../pmx/model-types';
import { matchKey } from '../pmx/model-inspect';
import { encodeSjis } from '../vmd/sjis';
import { recordBytes, type VmdDocument } from '../vmd/vmd-document';
import { IK } from '../vmd/vmd-layout';
import { encodeIkRecord } from '../vmd/vmd-build';
import { ikKey } from '../vmd/records';

export interface IkOffPlan {
  /** IK block of the output. */
  records: Uint8Array[];
  /** The IK bones switched off (model order). */
  names: string[];
  tooLong: string[];
}

/**
 * The IK block with the given IK bones off over [from, to] (see the file comment). The motion's IK keys outside
 * the range are kept byte for byte; keys inside it get the chains off; a key at `from` and, when the motion goes
 * on after `to` or has IK keys there, at to+1 (giving back the states in force there) are added where the motion
 * has none.
 */
export function ikOffPlan(model: ModelData, motion: VmdDocument, ikBones: readonly number[], from: number, to: number, lastFrame: number): IkOffPlan {
  const block = motion.ik;
  const fieldOf = (name: string) => {
    const e = encodeSjis(name);
    if (e.length > IK.ITEM_NAME_LENGTH) return null;
    const f = new Uint8Array(IK.ITEM_NAME_LENGTH);
    f.set(e);
    return f;
  };
  const names: string[] = [], tooLong: string[] = [];
  const off = new Set<string>();
  for (const b of ikBones) {
    const n = model.bones[b].name;
    if (!fieldOf(n)) { tooLong.push(n); continue; }
    names.push(n);
    off.add(matchKey(n));
  }
  const records: Uint8Array[] = [];
  for (let i = 0; i < block.count; i++) records.push(recordBytes(block, i));
  if (off.size === 0) return { records, names, tooLong };

  // The keys in frame order (file order among equal frames), as the player reads them.
  const keys = Array.from({ length: block.count }, (_, i) => ({ i, key: ikKey(block, i) })).sort((a, b) => a.key.frame - b.key.frame || a.i - b.i);
  /** States in force at frame f (before any key: on), and the show flag (before any key: shown). */
  const stateAt = (f: number) => {
    const state = new Map<string, number>();
    let visible = 1;
    for (const { key } of keys) {
      if (key.frame > f) break;
      visible = key.visible;
      for (const it of key.iks) state.set(matchKey(it.name), it.enabled ? 1 : 0);
    }
    return { state, visible };
  };
  // Every IK bone of the model a VMD can name, in model order: what a new key lists.
  const allIk = model.bones.flatMap((b) => (b.ik && fieldOf(b.name) ? [b.name] : []));
  const newKey = (frame: number, forceOff: boolean) => {
    const { state, visible } = stateAt(frame);
    const iks = allIk.map((n) => {
      const k = matchKey(n);
      return { name: fieldOf(n)!, enabled: forceOff && off.has(k) ? 0 : (state.get(k) ?? 1) };
    });
    return encodeIkRecord({ frame, visible, iks });
  };
  // The motion's keys inside the range: the chains off, every other byte as it was.
  const restore = to + 1 <= lastFrame || keys.some((k) => k.key.frame > to);
  const restoreState = restore ? stateAt(to + 1).state : null;
  let hasFrom = false, hasAfter = false;
  for (const { i, key } of keys) {
    if (key.frame === from) hasFrom = true;
    if (key.frame === to + 1) hasAfter = true;
    const inRange = key.frame >= from && key.frame <= to;
    const atRestore = restore && key.frame === to + 1;
    if (!inRange && !atRestore) continue;
    // Items kept (as their bytes) with the chains' states set; chains the key does not name are added.
    const rec = records[i];
    const items: { name: Uint8Array; enabled: number }[] = [];
    const named = new Set<string>();
    for (let j = 0; j < key.iks.length; j++) {
      const p = IK.HEADER + j * IK.ITEM;
      const k = matchKey(key.iks[j].name);
      named.add(k);
      const enabled = off.has(k) ? (inRange ? 0 : restoreState!.get(k) ?? 1) : rec[p + IK.ITEM_ENABLED];
      items.push({ name: rec.subarray(p, p + IK.ITEM_NAME_LENGTH), enabled });
    }
    for (const n of names) {
      const k = matchKey(n);
      if (!named.has(k)) items.push({ name: fieldOf(n)!, enabled: inRange ? 0 : restoreState!.get(k) ?? 1 });
    }
    records[i] = encodeIkRecord({ frame: key.frame, visible: key.visible, iks: items });
  }
  if (!hasFrom) records.push(newKey(from, true));
  if (restore && !hasAfter) records.push(newKey(to + 1, false));
  return { records, names, tooLong };
}
