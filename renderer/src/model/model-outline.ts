/**
 * What the bone list and the morph panel need of the shown model, as plain data: its bones by display
 * frame (PMX 表示枠, PMD bone groups; a model without them, the built-in figure or a file cut short, gets one group of every bone),
 * and its morphs by panel (eyes, mouth, brows, other), and the bones physics drives (the Key panel's 物理 field
 * means something only for those), the bones it does not let move, its IK bones and IK chains, and its English bone names. Built once per model load; no three.js here.
 */
import { BONE_FLAG, type ModelBone, type ModelData } from '../../../shared/pmx/model-types';
import { matchKey, morphKindGroup, type MorphKindGroup } from '../../../shared/pmx/model-inspect';
import { ikChainsOf, type IkChain } from '../../../shared/skeleton/ik-switches';

export interface OutlineGroup {
  /** The display frame's name as the model stores it ('' for the one group of a model without frames). */
  name: string;
  /** Bone names in the frame's order. */
  bones: string[];
}

/** MMD's morph panels: 1 brows (眉), 2 eyes (目), 3 mouth (リップ), 4 other (その他); 0 is the base. */
export type MorphPanel = 'eyes' | 'mouth' | 'brows' | 'other';

export interface ModelOutline {
  groups: OutlineGroup[];
  /**
   * The model's English bone names (PMX 英名, PMD's English name list) by bone name as a motion holds it
   * (matchKey: cut at VMD's 15 bytes), for the English UI, which shows them beside the Japanese names that
   * the motion keys. Only names someone who cannot read Japanese can read: none, one equal to the name, or
   * one in Japanese (Gene stores 左腕捩連 as 左腕捩's English name) is left out. Read it with boneNameEn.
   * Absent: none (an outline made by hand).
   */
  bonesEn?: ReadonlyMap<string, string>;
  /** `nameEn`: the model's English name ('' when it has none), which the morph panel's search matches too. */
  morphs: { name: string; nameEn?: string; panel: MorphPanel; kind?: MorphKindGroup }[];
  /** Bones a simulated rigid body drives (modes 1 and 2, as the physics world takes them), by name. */
  physicsBones: string[];
  /**
   * Bones the model does not let move (no PMX 移動可能 flag, 0x0004; PMD: by bone type, as pmd-reader maps it), by
   * name: the key panel's Position fields are off for them, as MMD's are and as the preview's Move handle refuses
   * them. Absent: not known (an outline made by hand), so none is held.
   */
  unmovableBones?: string[];
  /**
   * The model's IK bones (those with an IK solver), in the model's order: the 表示・IK key panel lists them all and a
   * key registered there names them all, as MMD's 表示・IK panel does. Absent: not known (an outline made by hand).
   */
  ikBones?: string[];
  /**
   * The model's IK bones with the bones each one's solver turns (足ＩＫ → ひざ, 足): the Key panel says when a bone
   * it shows follows an IK that is on (a typed knee rotation then changes nothing). Absent: not known.
   */
  ikChains?: IkChain[];
}

const PANELS: Record<number, MorphPanel> = { 1: 'brows', 2: 'eyes', 3: 'mouth', 4: 'other' };

/** The outline of a loaded model (null: the built-in figure, whose bones are given). */
export function modelOutline(m: ModelData | null, figureBones: readonly ModelBone[] = []): ModelOutline {
  const bones = m ? m.bones : figureBones;
  const names = bones.map((b) => b.name);
  const groups: OutlineGroup[] = [];
  const listed = new Set<number>();
  for (const f of m?.displayFrames ?? []) {
    const inFrame = f.bones.filter((i) => i >= 0 && i < names.length);
    if (!inFrame.length) continue;
    inFrame.forEach((i) => listed.add(i));
    groups.push({ name: f.name, bones: inFrame.map((i) => names[i]) });
  }
  // Bones no display frame lists (every bone, for a model without frames) in one group at the end.
  const rest = names.filter((_, i) => !listed.has(i));
  if (rest.length) groups.push({ name: '', bones: rest });
  const morphs = (m?.morphs ?? [])
    // PMD's base morph (panel 0) is not a morph one keys.
    .filter((x) => x.panel !== 0)
    .map((x) => ({ name: x.name, nameEn: x.nameEn, panel: PANELS[x.panel] ?? 'other', kind: morphKindGroup(x.kind) }));
  // MMD rule — a body of mode 0 follows its bone; modes 1 and 2 are simulated and drive it (physics/world.ts).
  const driven = new Set<number>();
  for (const b of m?.rigidBodies ?? []) if (b.mode !== 0 && b.bone >= 0 && b.bone < names.length) driven.add(b.bone);
  const physicsBones = [...driven].sort((a, b) => a - b).map((i) => names[i]);
  const bonesEn = new Map<string, string>();
  for (const b of bones) {
    const en = readableEnglish(b.name, b.nameEn);
    const k = matchKey(b.name);
    if (en && !bonesEn.has(k)) bonesEn.set(k, en);
  }
  const unmovableBones = bones.filter((b) => !(b.flags & BONE_FLAG.TRANSLATABLE)).map((b) => b.name);
  const ikBones = bones.filter((b) => b.ik).map((b) => b.name);
  return { groups, bonesEn, morphs, physicsBones, unmovableBones, ikBones, ikChains: ikChainsOf(bones) };
}

/** Kana, kanji and half-width katakana: an "English" name holding them is Japanese (PMX Editor copies the name there). */
const JAPANESE = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff66-\uff9f]/;

/** `nameEn` trimmed, or '' when it is empty, the name itself, or Japanese (see ModelOutline.bonesEn). */
function readableEnglish(name: string, nameEn: string): string {
  const en = nameEn.trim();
  return en && en !== name && !JAPANESE.test(en) ? en : '';
}

/**
 * The English name of the bone `name` (as the model or a motion names it: a name cut at 15 bytes finds the
 * longer one) in the outline, or '' when the model gives none (or there is no model: the built-in figure).
 */
export function boneNameEn(outline: Pick<ModelOutline, 'bonesEn'> | null | undefined, name: string): string {
  return outline?.bonesEn?.get(matchKey(name)) ?? '';
}

/** A search text folded as the lists compare it: full-width letters as half-width (NFKC), case ignored. */
export function searchFold(text: string): string {
  return text.trim().normalize('NFKC').toLowerCase();
}

/**
 * Whether a morph or a bone matches its panel's search (`q` folded by searchFold; '' matches all): its name or
 * its English name contains it, so "smile" finds 笑い on a model that names it, "arm" finds 左腕 (arm_L), and
 * "まば" finds まばたき, in either UI language.
 */
export function nameMatches(m: { name: string; nameEn?: string }, q: string): boolean {
  if (!q) return true;
  return searchFold(m.name).includes(q) || (!!m.nameEn && searchFold(m.nameEn).includes(q));
}

/** The morph panel's search (nameMatches). */
export const morphMatches = nameMatches;
