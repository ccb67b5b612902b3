/**
 * MMD-like frame groups for the track list: センター, 上半身, arms, legs, fingers, others — decided
 * from the bone name, since a VMD carries no model and so no display frames. Within a group bones
 * follow MMD's usual order (root to tip, left before right), unknown ones after by name: not in file
 * order, which is arbitrary and changes when a tool rewrites the file (a fit writes tracks by name), so
 * rows do not jump around after Reduce or a save by another program.
 */

export type BoneGroupId = 'center' | 'upper' | 'arms' | 'legs' | 'fingers' | 'others';

export const BONE_GROUPS: readonly BoneGroupId[] = ['center', 'upper', 'arms', 'legs', 'fingers', 'others'];

// Full-width and half-width spellings both occur (ＩＫ / IK, 左 / 右 prefixes); compare on a folded form.
function fold(name: string): string {
  return name.normalize('NFKC');
}

const FINGER = /(親指|人指|人差指|中指|薬指|小指)/;
const ARM = /(肩|腕|ひじ|肘|手首|手捩|手)/;
const LEG = /(足|ひざ|膝|つま先|爪先|脚)/;
const UPPER = /^(上半身|首|頭|両目|左目|右目|目|舌|あご|顎)/;
const CENTER = /^(全ての親|センター|グルーブ|腰|下半身|操作中心)/;

/** Frame group of a bone name. */
export function boneGroup(name: string): BoneGroupId {
  const n = fold(name);
  if (CENTER.test(n)) return 'center';
  if (FINGER.test(n)) return 'fingers';
  if (UPPER.test(n)) return 'upper';
  if (LEG.test(n)) return 'legs';
  if (ARM.test(n)) return 'arms';
  return 'others';
}

// Root-to-tip order inside groups (without the 左/右 prefix).
const ORDER = [
  '全ての親', '操作中心', 'センター', 'グルーブ', '腰', '下半身',
  '上半身', '上半身2', '上半身3', '首', '頭', '両目', '目',
  '肩P', '肩', '腕', '腕捩', 'ひじ', '手捩', '手首',
  '親指0', '親指1', '親指2', '人指1', '人指2', '人指3', '中指1', '中指2', '中指3', '薬指1', '薬指2', '薬指3', '小指1', '小指2', '小指3',
  '足', 'ひざ', '足首', 'つま先', '足IK', 'つま先IK', '足D', 'ひざD', '足首D', '足先EX',
];
const RANK = new Map(ORDER.map((n, i) => [n, i]));

function rankOf(name: string): [number, number] {
  const n = fold(name);
  let side = 0;
  let base = n;
  if (n.startsWith('左')) { side = 0; base = n.slice(1); }
  else if (n.startsWith('右')) { side = 1; base = n.slice(1); }
  const r = RANK.get(base);
  return [r ?? ORDER.length, side];
}

/** Code-point order of two names (the same on every machine, unlike a locale's collation). */
export function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface BoneGroup {
  readonly id: BoneGroupId;
  /** Track indices (into tracks.bones.names), display order. */
  readonly tracks: number[];
}

/** Groups bone track names; empty groups are left out. */
export function groupBones(names: readonly string[]): BoneGroup[] {
  const by = new Map<BoneGroupId, number[]>(BONE_GROUPS.map((g) => [g, []]));
  names.forEach((n, i) => by.get(boneGroup(n))!.push(i));
  const out: BoneGroup[] = [];
  for (const id of BONE_GROUPS) {
    const list = by.get(id)!;
    if (!list.length) continue;
    // Left before right within a bone kind keeps 左腕/右腕 next to each other.
    const ranked = list.map((t) => ({ t, r: rankOf(names[t]) }));
    ranked.sort((a, b) => a.r[0] - b.r[0] || a.r[1] - b.r[1] || byName(names[a.t], names[b.t]) || a.t - b.t);
    out.push({ id, tracks: ranked.map((x) => x.t) });
  }
  return out;
}
