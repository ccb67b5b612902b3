/**
 * What of a pose goes into a VPD written from a motion (the app's Export VPD at Frame…): a pose library is mostly
 * partial poses — a hand (the finger bones picked, as MMD's ポーズデータ保存 saves the bones selected in its bone
 * frame), a face preset (morphs only, as the corpus's 微笑.vpd: 0 bones, its morphs) — and a whole-body VPD applied
 * later overwrites every bone. vmdToVpd samples every track; this keeps the part asked for.
 */
import type { VpdPose } from './vpd';

/**
 * 'all': every bone and morph of the motion; 'selected': the bones and morphs named in `selected` (the app: the
 * tracks of the selected keys and the active row); 'bones': every bone, no morph; 'morphs': every morph, no bone.
 */
export type VpdParts = 'all' | 'selected' | 'bones' | 'morphs';

export interface VpdSelection {
  bones: ReadonlySet<string>;
  morphs: ReadonlySet<string>;
}

/** The pose with only the asked part (bones and morphs keep their order); `selected` is read for 'selected' only. */
export function vpdPart(pose: VpdPose, parts: VpdParts, selected?: VpdSelection): VpdPose {
  const bones =
    parts === 'morphs' ? [] : parts === 'selected' ? pose.bones.filter((b) => selected?.bones.has(b.name)) : pose.bones;
  const morphs =
    parts === 'bones' ? [] : parts === 'selected' ? pose.morphs.filter((m) => selected?.morphs.has(m.name)) : pose.morphs;
  return { ...pose, bones, morphs, declaredBones: null };
}
