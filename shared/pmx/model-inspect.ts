/**
 * Model ↔ motion check: what a model offers (name, bones, morphs) and which of the bones and morphs a
 * motion keys the model lacks. Names match on their decoded form with a cut last character ignored:
 * VMD fields hold 15 bytes, so a longer model name matches when its first 15 Shift_JIS bytes decode to
 * the motion's name (a character cut at the field end is dropped by the VMD decoder).
 */
import type { CodecError, Result } from '../vmd/errors';
import { encodeSjis, decodeName, stripCut } from '../vmd/sjis';
import { modelFormatText, readModel } from './model-reader';
import type { ModelData, ModelEncoding, ModelJoint, ModelMorph, ModelRigidBody } from './model-types';

/** VMD bone and morph name fields are 15 bytes. */
const VMD_NAME_BYTES = 15;

/** Morph kinds as a model maker counts them: the additional UVs (uv1–uv4) with the UV morphs. */
export const MORPH_KIND_GROUPS = ['vertex', 'uv', 'bone', 'material', 'group', 'flip', 'impulse'] as const;
export type MorphKindGroup = (typeof MORPH_KIND_GROUPS)[number];

/** A morph's kind as counted and tagged: 'uv' for the UV and additional UV morphs. */
export function morphKindGroup(kind: ModelMorph['kind']): MorphKindGroup {
  return kind.startsWith('uv') ? 'uv' : (kind as MorphKindGroup);
}

export interface ModelInfo {
  format: 'pmx' | 'pmd';
  version: number;
  /** "PMX 2.0", "PMX 2.1", "PMD 1.0". */
  formatText: string;
  /** The texts' encoding: UTF-16 or UTF-8 (PMX, as its header says), Shift_JIS (PMD). */
  encoding: ModelEncoding | null;
  name: string;
  nameEn: string;
  comment: string;
  commentEn: string;
  vertexCount: number;
  /** Vertices by how they are skinned (SDEF: elbows and knees that keep their volume; QDEF: PMX 2.1). */
  skinning: { bdef1: number; bdef2: number; bdef4: number; sdef: number; qdef: number };
  faceCount: number;
  materialCount: number;
  textures: string[];
  bones: string[];
  morphs: string[];
  /** The morphs (those of `morphs`) by kind, in MORPH_KIND_GROUPS' order; kinds the model lacks are 0. */
  morphKinds: Record<MorphKindGroup, number>;
  /** Display frames (表示枠): PMX's (Root and 表情 included), PMD's bone display groups. */
  displayFrameCount: number;
  /** IK bone names. */
  iks: string[];
  rigidBodyCount: number;
  jointCount: number;
  /** Rigid bodies with their bone's name ('' for none). */
  rigidBodies: (Omit<ModelRigidBody, 'offset'> & { boneName: string; modeName: string; shapeName: string })[];
  /** Joints with their bodies' names. */
  joints: (Omit<ModelJoint, 'offset'> & { bodyAName: string; bodyBName: string })[];
  /** PMX 2.1 soft bodies (not simulated). */
  softBodies: string[];
  /** Why the physics section could not be read, when it could not. */
  physicsError: CodecError | null;
}

/**
 * Rigid body modes (RigidMode's order) in English as the CLI prints them; PMX Editor and MMD users know them as
 * ボーン追従, 物理演算 and 物理+ボーン位置合わせ.
 */
export const RIGID_MODE_NAMES = ['follows bone', 'physics', 'physics + bone position'] as const;
/** Rigid body shapes (RigidShape's order). */
export const RIGID_SHAPE_NAMES = ['sphere', 'box', 'capsule'] as const;

/** A rigid body's mode by name ("mode 7" for a number no mode has). */
export function rigidModeName(mode: number): string {
  return RIGID_MODE_NAMES[mode] ?? `mode ${mode}`;
}

/** A rigid body's shape by name ("shape 7" for a number no shape has). */
export function rigidShapeName(shape: number): string {
  return RIGID_SHAPE_NAMES[shape] ?? `shape ${shape}`;
}

/** Vertices per deform type (Deform's order: BDEF1, BDEF2, BDEF4, SDEF, QDEF). */
function skinningCounts(deform: Uint8Array): ModelInfo['skinning'] {
  const c = [0, 0, 0, 0, 0];
  for (const d of deform) if (d < 5) c[d]++;
  return { bdef1: c[0], bdef2: c[1], bdef4: c[2], sdef: c[3], qdef: c[4] };
}

/** The morphs a user sees: a PMD's hidden base morph (panel 0, which the others offset) left out. */
function userMorphs(m: ModelData): ModelMorph[] {
  return m.morphs.filter((x) => !(m.format === 'pmd' && x.panel === 0));
}

function morphKindCounts(morphs: readonly ModelMorph[]): Record<MorphKindGroup, number> {
  const n = Object.fromEntries(MORPH_KIND_GROUPS.map((k) => [k, 0])) as Record<MorphKindGroup, number>;
  for (const x of morphs) n[morphKindGroup(x.kind)]++;
  return n;
}

/**
 * Which materials use each texture (by texture index): as their colour texture, their sphere map (a sphere
 * mode set) or their own toon file. Textures no material uses have an empty list.
 */
export function textureUsers(m: Pick<ModelData, 'textures' | 'materials'>): string[][] {
  const users = m.textures.map(() => [] as string[]);
  const add = (ti: number, name: string) => {
    if (ti >= 0 && ti < users.length && !users[ti].includes(name)) users[ti].push(name);
  };
  for (const mat of m.materials) {
    add(mat.texture, mat.name);
    if (mat.sphereMode !== 0) add(mat.sphereTexture, mat.name);
    if (!mat.toonShared) add(mat.toon, mat.name);
  }
  return users;
}

/** A model's name, bones and morphs, from a parsed model. */
export function modelInfo(m: ModelData): ModelInfo {
  const morphs = userMorphs(m);
  return {
    format: m.format,
    version: m.version,
    formatText: modelFormatText(m),
    encoding: m.encoding ?? null,
    name: m.name,
    nameEn: m.nameEn,
    comment: m.comment,
    commentEn: m.commentEn,
    vertexCount: m.vertexCount,
    skinning: skinningCounts(m.deform),
    faceCount: Math.floor(m.indices.length / 3),
    materialCount: m.materials.length,
    textures: [...m.textures],
    bones: m.bones.map((b) => b.name),
    morphs: morphs.map((x) => x.name),
    morphKinds: morphKindCounts(morphs),
    displayFrameCount: m.displayFrameCount ?? m.displayFrames?.length ?? 0,
    iks: m.bones.filter((b) => b.ik).map((b) => b.name),
    rigidBodyCount: m.rigidBodyCount,
    jointCount: m.jointCount,
    rigidBodies: m.rigidBodies.map(({ offset: _, ...b }) => ({ ...b, boneName: m.bones[b.bone]?.name ?? '', modeName: rigidModeName(b.mode), shapeName: rigidShapeName(b.shape) })),
    joints: m.joints.map(({ offset: _, ...j }) => ({ ...j, bodyAName: m.rigidBodies[j.bodyA].name, bodyBName: m.rigidBodies[j.bodyB].name })),
    softBodies: m.softBodies.map((b) => b.name),
    physicsError: m.physicsError,
  };
}

/**
 * Parses model bytes and returns its name, bones and morphs. With the file's name, a PMX named .pmd (or a PMD
 * named .pmx) gets readModel's note.
 */
export function inspectModel(bytes: Uint8Array, fileName?: string): Result<ModelInfo> {
  const r = readModel(bytes, fileName);
  if (!r.ok) return r;
  return { ok: true, value: modelInfo(r.value), diagnostics: r.diagnostics };
}

/**
 * The key a name is matched on: the name as a 15-byte VMD field would hold it, decoded, with a cut
 * last character dropped. Both the motion's and the model's names go through this.
 */
export function matchKey(name: string): string {
  const clean = stripCut(name);
  const bytes = encodeSjis(clean);
  if (bytes.length <= VMD_NAME_BYTES) return clean;
  return decodeName(bytes, 0, VMD_NAME_BYTES);
}

/**
 * The other names of `names` that a VMD key stores as `name` is stored (the same matchKey): Gene's
 * eye_surprise_geo_L and eye_surprise_geo_R are both eye_surprise_ge in a key, so a motion cannot tell them apart
 * (new-user pass numorph 2). Empty when the stored name is `name`'s alone.
 */
export function namesSharingKey(name: string, names: readonly string[]): string[] {
  const key = matchKey(name);
  return names.filter((n) => n !== name && matchKey(n) === key);
}

/** Each stored name (matchKey) that two names of `names` or more share, with those names in their order. */
export function sharedKeyNames(names: readonly string[]): Map<string, string[]> {
  const by = new Map<string, string[]>();
  for (const n of names) {
    const k = matchKey(n);
    const list = by.get(k);
    if (list) {
      if (!list.includes(n)) list.push(n);
    } else by.set(k, [n]);
  }
  for (const [k, list] of by) if (list.length < 2) by.delete(k);
  return by;
}

export interface MotionModelComparison {
  /** Bones the motion keys that the model lacks. */
  missingBones: string[];
  /** Morphs the motion keys that the model lacks. */
  missingMorphs: string[];
  /** Counts of motion bones / morphs the model has. */
  matchedBones: number;
  matchedMorphs: number;
  /**
   * Motion names that find their bone / morph only as a 15-byte VMD field cuts the model's name (browOuterUpRigh for
   * browOuterUpRight): MMD plays them (it matches the cut name), babylon-mmd and three.js match names exactly and do not.
   */
  cutBones: CutMatch[];
  cutMorphs: CutMatch[];
}

/**
 * A motion name found only as the model's name cut: `model` the first model name it matches, `models` every one
 * (two or more where the model has names a VMD key cannot tell apart: brow_angry_geo_ is brow_angry_geo_L and _R).
 */
export interface CutMatch {
  motion: string;
  model: string;
  models: string[];
}

/** Which bones and morphs of a motion (e.g. VmdInfo's lists) the model lacks. */
export function compareMotionToModel(
  motion: { bones: readonly string[]; morphs: readonly string[] },
  model: { bones: readonly string[]; morphs: readonly string[] },
): MotionModelComparison {
  const bones = new Set(model.bones.map(matchKey));
  const morphs = new Set(model.morphs.map(matchKey));
  const missingBones = motion.bones.filter((n) => !bones.has(matchKey(n)));
  const missingMorphs = motion.morphs.filter((n) => !morphs.has(matchKey(n)));
  /** The motion's names that match a model name only by its cut (no model name is the motion's exactly). */
  const cut = (names: readonly string[], of: readonly string[]) => {
    const exact = new Set(of);
    const long = new Map<string, string[]>();
    for (const n of of) {
      if (matchKey(n) === n) continue;
      const list = long.get(matchKey(n));
      if (list) list.push(n);
      else long.set(matchKey(n), [n]);
    }
    return names.filter((n) => !exact.has(n) && long.has(matchKey(n))).map((n) => {
      const models = long.get(matchKey(n))!;
      return { motion: n, model: models[0], models };
    });
  };
  return {
    missingBones,
    missingMorphs,
    matchedBones: motion.bones.length - missingBones.length,
    matchedMorphs: motion.morphs.length - missingMorphs.length,
    cutBones: cut(motion.bones, model.bones),
    cutMorphs: cut(motion.morphs, model.morphs),
  };
}
