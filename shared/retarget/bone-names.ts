/**
 * Bone and morph name matching across models: one canonical form per bone, so that a motion made for
 * one model finds the bones of another. Meant to be shared (retargeting, BVH/VRM import): pure, no
 * model types needed beyond `{ name, nameEn }`.
 *
 * A bone's canonical key is its side (左/右) and its base name, after:
 *  - Unicode NFKC (full-width digits and letters → ASCII, half-width katakana → full width: ＩＫ → IK,
 *    ２ → 2, ｸﾞﾙｰﾌﾞ → グルーブ), a cut last character (U+FFFD, from a 15-byte VMD field) dropped,
 *    white space removed, ASCII lower-cased;
 *  - the side read from 左/右 at the start, or from L/R / Left/Right as a prefix or suffix (`arm_L`,
 *    `L_arm`, `Arm.L`, `LeftArm`, `leg IK_L`);
 *  - the base looked up in the alias table (BONE_ALIASES: other spellings of the standard and
 *    semi-standard bones: 肘 → ひじ, 腕捻 → 腕捩, English names → their Japanese name).
 * `boneKeys(name, nameEn)` gives a bone's keys, best first: the Japanese name's canonical key, then the
 * English name's. Two bones match when a key of one is a key of the other (Japanese keys are tried
 * first, so an English name never overrides a Japanese match).
 */

import { matchKey } from '../pmx/model-inspect';

export type Side = 'L' | 'R' | '';

/** A bone name split into its side and its canonical base. */
export interface BoneNameParts {
  side: Side;
  base: string;
}

/**
 * Standard and semi-standard bones: the canonical base (Japanese, normalised as `normalizeName` does)
 * and its other spellings (Japanese variants and English names, normalised too, without side).
 */
export const BONE_ALIASES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['全ての親', ['全親', 'mother', 'master', 'root', 'all', 'allparent', 'parentofall']],
  ['センター', ['center', 'centre']],
  ['グルーブ', ['groove']],
  ['腰', ['waist', 'hips']],
  ['上半身', ['upperbody', 'upperbody1', 'spine']],
  ['上半身2', ['upperbody2', 'chest']],
  ['上半身3', ['upperbody3', 'upperchest']],
  ['下半身', ['lowerbody']],
  ['首', ['neck']],
  ['頭', ['head']],
  ['両目', ['両眼', 'eyes', 'botheyes']],
  ['目', ['eye']],
  ['肩p', ['shoulderp']],
  ['肩', ['shoulder']],
  ['肩c', ['shoulderc']],
  ['腕', ['arm', 'upperarm']],
  ['腕捩', ['腕捻', '腕ひねり', 'armtwist', 'armtwist0']],
  ['ひじ', ['肘', 'ヒジ', 'elbow', 'lowerarm', 'forearm']],
  ['手捩', ['手捻', '手ひねり', 'wristtwist', 'handtwist']],
  ['手首', ['wrist', 'hand']],
  ['親指0', ['thumb0']],
  ['親指1', ['thumb1']],
  ['親指2', ['thumb2']],
  ['人指1', ['人差指1', '人差し指1', 'index1', 'fore1']],
  ['人指2', ['人差指2', '人差し指2', 'index2', 'fore2']],
  ['人指3', ['人差指3', '人差し指3', 'index3', 'fore3']],
  ['中指1', ['middle1', 'mid1']],
  ['中指2', ['middle2', 'mid2']],
  ['中指3', ['middle3', 'mid3']],
  ['薬指1', ['ring1', 'third1']],
  ['薬指2', ['ring2', 'third2']],
  ['薬指3', ['ring3', 'third3']],
  ['小指1', ['little1', 'pinky1']],
  ['小指2', ['little2', 'pinky2']],
  ['小指3', ['little3', 'pinky3']],
  ['腰キャンセル', ['waistcancel']],
  ['足', ['leg', 'upperleg', 'thigh']],
  ['足捩', ['足捻', '足ひねり', 'legtwist', 'thightwist']],
  ['ひざ', ['膝', 'ヒザ', 'knee', 'lowerleg']],
  ['ひざ捩', ['ひざ捻', '膝捩', '膝捻', 'ひざひねり', 'kneetwist', 'lowerlegtwist']],
  ['足首', ['ankle', 'foot']],
  ['つま先', ['爪先', 'toe']],
  ['足ik', ['legik', 'footik', 'ikfoot', 'ankleik']],
  ['つま先ik', ['爪先ik', 'toeik']],
  ['足d', ['legd']],
  ['ひざd', ['膝d', 'kneed']],
  ['足首d', ['ankled']],
  ['足先ex', ['つま先ex', 'toeex']],
];

const ALIAS = new Map<string, string>();
for (const [canon, alts] of BONE_ALIASES) {
  ALIAS.set(canon, canon);
  for (const a of alts) if (!ALIAS.has(a)) ALIAS.set(a, canon);
}

/**
 * A name for comparison: NFKC (full/half width folded), a cut last character dropped, white space
 * removed, ASCII lower case. Used for bone and morph names alike.
 */
export function normalizeName(name: string): string {
  let s = name.normalize('NFKC').replace(/\uFFFD+$/, '');
  s = s.replace(/[\s\u3000]+/g, '');
  return s.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

const SEP = '[_.\\-]';
const SIDE_PATTERNS: [RegExp, Side][] = [
  [/^左/, 'L'],
  [/^右/, 'R'],
  [/^left/, 'L'],
  [/^right/, 'R'],
  [/left$/, 'L'],
  [/right$/, 'R'],
  [new RegExp(`^l${SEP}`), 'L'],
  [new RegExp(`^r${SEP}`), 'R'],
  [new RegExp(`${SEP}l$`), 'L'],
  [new RegExp(`${SEP}r$`), 'R'],
];

/** Splits a normalised name into side and base (separators at the cut removed, the base looked up in the alias table). */
export function splitSide(normalized: string): BoneNameParts {
  let side: Side = '';
  let base = normalized;
  for (const [re, s] of SIDE_PATTERNS) {
    const m = re.exec(base);
    if (!m) continue;
    side = s;
    base = base.slice(0, m.index) + base.slice(m.index + m[0].length);
    break;
  }
  base = base.replace(new RegExp(`^${SEP}+|${SEP}+$`, 'g'), '');
  return { side, base };
}

/** The canonical base for a normalised base name: the alias table's name, else the base itself. */
export function canonicalBase(base: string): string {
  const direct = ALIAS.get(base);
  if (direct !== undefined) return direct;
  // English names often separate words ("upper_body", "leg.ik"): try without separators.
  const joined = base.replace(/[_.\-]/g, '');
  return ALIAS.get(joined) ?? base;
}

/** The canonical key of one name: side prefix (左/右) and canonical base. */
export function canonicalBoneName(name: string): string {
  const { side, base } = splitSide(normalizeName(name));
  const b = canonicalBase(base);
  return (side === 'L' ? '左' : side === 'R' ? '右' : '') + b;
}

/** A bone's matching keys, best first: its name's canonical key, then its English name's (when it has one). */
export function boneKeys(name: string, nameEn = ''): string[] {
  const keys = [canonicalBoneName(name)];
  if (nameEn.trim() !== '') {
    const k = canonicalBoneName(nameEn);
    if (k !== '' && !keys.includes(k)) keys.push(k);
  }
  return keys.filter((k) => k !== '');
}

/** The key a morph name is matched on. */
export function morphKey(name: string): string {
  return normalizeName(name);
}

/**
 * Names by morph key: `get(name)` finds an entry whose key equals the name's, else one whose name, as a
 * 15-byte VMD field holds it (matchKey), does. A motion stores a longer morph name cut to the field
 * (Gene's `browOuterUpRight` as `browOuterUpRigh`) and MMD plays it by those bytes, as inspect counts it.
 * The first entry of a key keeps it.
 */
export class MorphNameIndex<T> {
  private readonly exact = new Map<string, T>();
  private readonly field = new Map<string, T>();

  set(name: string, value: T): void {
    const e = morphKey(name), f = morphKey(matchKey(name));
    if (!this.exact.has(e)) this.exact.set(e, value);
    if (!this.field.has(f)) this.field.set(f, value);
  }

  get(name: string): T | undefined {
    return this.exact.get(morphKey(name)) ?? this.field.get(morphKey(matchKey(name)));
  }
}

export interface NamedBone {
  name: string;
  nameEn?: string;
}

/**
 * An index of a model's bones by canonical key: `find(name, nameEn)` returns the first bone whose
 * Japanese key equals one of the given keys, else the first whose English key does, else −1. Exact
 * names win over everything (two bones whose names differ only in width stay apart when both exist),
 * then the name as a 15-byte VMD field holds it (matchKey: a motion's name of a longer bone).
 */
export class BoneNameIndex {
  private readonly exact = new Map<string, number>();
  /** By the name a 15-byte VMD field holds (a motion's name of a longer bone). */
  private readonly field = new Map<string, number>();
  private readonly byName = new Map<string, number>();
  private readonly byEnglish = new Map<string, number>();

  constructor(bones: readonly NamedBone[]) {
    bones.forEach((b, i) => {
      if (!this.exact.has(b.name)) this.exact.set(b.name, i);
      const f = matchKey(b.name);
      if (!this.field.has(f)) this.field.set(f, i);
      const k = canonicalBoneName(b.name);
      if (k !== '' && !this.byName.has(k)) this.byName.set(k, i);
      const ek = b.nameEn ? canonicalBoneName(b.nameEn) : '';
      if (ek !== '' && !this.byEnglish.has(ek)) this.byEnglish.set(ek, i);
    });
  }

  /** The bone for a name (and optionally its English name), or −1. */
  find(name: string, nameEn = ''): number {
    const e = this.exact.get(name) ?? this.field.get(matchKey(name));
    if (e !== undefined) return e;
    const keys = boneKeys(name, nameEn);
    for (const k of keys) {
      const i = this.byName.get(k);
      if (i !== undefined) return i;
    }
    for (const k of keys) {
      const i = this.byEnglish.get(k);
      if (i !== undefined) return i;
    }
    return -1;
  }
}

/** How a source bone found its target bone. */
export type MatchHow = 'exact' | 'normalized' | 'map' | 'none';

export interface BoneMatch {
  /** Per source bone, the target bone it matched, or −1. */
  target: Int32Array;
  how: MatchHow[];
}

/**
 * Matches every source bone to a target bone: a mapping entry (source name → target name, both matched
 * as above) first, then the exact name, then the canonical keys. Two source bones may not take one
 * target bone: the first (mapped before named, then by index) keeps it.
 *
 * `exactOnly`: target bone names (as a 15-byte VMD field holds them, matchKey) that no source bone may take
 * by an alias, only by its exact name or the map: names the motion keys itself (a track the source model
 * lacks, copied onto the target's bone of that name). An exact name wins over any alias: Gene's 左つま先EX
 * (English name "L toe") is not given to the low-poly Miku's 左つま先 ("L toe") when the motion has its own
 * 左つま先EX track, which MMD plays on Gene by that name.
 */
export function matchBones(source: readonly NamedBone[], target: readonly NamedBone[], mapping?: ReadonlyMap<string, string>, exactOnly?: ReadonlySet<string>): BoneMatch {
  const idx = new BoneNameIndex(target);
  const n = source.length;
  const out = new Int32Array(n).fill(-1);
  const how: MatchHow[] = new Array(n).fill('none');
  const taken = new Set<number>();
  if (mapping && mapping.size) {
    const src = new BoneNameIndex(source);
    for (const [from, to] of mapping) {
      const s = src.find(from);
      const t = idx.find(to);
      if (s < 0 || t < 0 || out[s] >= 0 || taken.has(t)) continue;
      out[s] = t;
      how[s] = 'map';
      taken.add(t);
    }
  }
  for (let pass = 0; pass < 2; pass++) {
    for (let s = 0; s < n; s++) {
      if (out[s] >= 0) continue;
      const b = source[s];
      const t = pass === 0 ? target.findIndex((x) => x.name === b.name) : idx.find(b.name, b.nameEn ?? '');
      if (t < 0 || taken.has(t)) continue;
      if (pass === 1 && exactOnly?.has(matchKey(target[t].name))) continue;
      out[s] = t;
      how[s] = pass === 0 ? 'exact' : 'normalized';
      taken.add(t);
    }
  }
  return { target: out, how };
}
