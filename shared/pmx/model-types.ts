/**
 * The model a PMX or PMD file describes, in MMD coordinates (left-handed, Y up, units as stored).
 * Both readers produce this one shape so the preview and the model ↔ motion check need not care
 * which format a model came in. Per-vertex data is struct-of-arrays typed arrays.
 */
import type { Vec3 } from '../vmd/records';
import type { CodecError } from '../vmd/errors';

/** How a vertex is skinned, as stored (QDEF is skinned as BDEF4 by the preview). */
export const Deform = { BDEF1: 0, BDEF2: 1, BDEF4: 2, SDEF: 3, QDEF: 4 } as const;

/** PMX bone flags (PMD bones are mapped onto the same bits). */
export const BONE_FLAG = {
  TAIL_IS_BONE: 0x0001,
  ROTATABLE: 0x0002,
  TRANSLATABLE: 0x0004,
  VISIBLE: 0x0008,
  ENABLED: 0x0010,
  IK: 0x0020,
  APPEND_LOCAL: 0x0080,
  APPEND_ROTATE: 0x0100,
  APPEND_TRANSLATE: 0x0200,
  FIXED_AXIS: 0x0400,
  LOCAL_AXES: 0x0800,
  AFTER_PHYSICS: 0x1000,
  EXTERNAL_PARENT: 0x2000,
} as const;

export interface ModelIkLink {
  bone: number;
  /** Euler limits in radians (MMD coordinates), when the link has them. */
  limits: { min: Vec3; max: Vec3 } | null;
}

export interface ModelIk {
  /** The bone the chain moves onto the IK bone (the effector, e.g. 足首 for 足ＩＫ). */
  target: number;
  loopCount: number;
  /** Largest rotation per link per iteration, radians. */
  limitAngle: number;
  /** From the effector's parent upward. */
  links: ModelIkLink[];
}

export interface ModelBone {
  name: string;
  nameEn: string;
  /** Rest position, model space. */
  position: Vec3;
  /** Parent bone index, −1 for a root. */
  parent: number;
  /** Deform layer (transform order: layer, then index). */
  layer: number;
  flags: number;
  /** Tail bone index when TAIL_IS_BONE, else −1. */
  tailBone: number;
  /** Tail offset when the tail is not a bone. */
  tailOffset: Vec3;
  /** Append (付与) source bone, −1 when none. */
  appendParent: number;
  appendRatio: number;
  fixedAxis: Vec3 | null;
  ik: ModelIk | null;
}

export interface ModelMaterial {
  name: string;
  nameEn: string;
  /** r, g, b, a. */
  diffuse: [number, number, number, number];
  specular: Vec3;
  specularity: number;
  ambient: Vec3;
  /** PMX drawing flags: 0x01 double sided, 0x02 ground shadow, 0x04 casts, 0x08 receives, 0x10 edge. */
  flags: number;
  edgeColor: [number, number, number, number];
  edgeSize: number;
  /** Index into ModelData.textures, −1 for none. */
  texture: number;
  /** Sphere map texture index, −1 for none. */
  sphereTexture: number;
  /** 0 off, 1 multiply (.sph), 2 add (.spa), 3 sub-texture. */
  sphereMode: number;
  /** True: `toon` is one of MMD's shared toon01–10 (0–9); false: a texture index (−1 none). */
  toonShared: boolean;
  toon: number;
  /** Number of face indices (3 per triangle) this material draws, in order after the previous material's. */
  indexCount: number;
}

/** A model file's text encoding. */
export type ModelEncoding = 'utf-16' | 'utf-8' | 'shift_jis';

export type MorphKind = 'group' | 'vertex' | 'bone' | 'uv' | 'uv1' | 'uv2' | 'uv3' | 'uv4' | 'material' | 'flip' | 'impulse';

export interface ModelMorph {
  name: string;
  nameEn: string;
  /** Panel: 0 system/base, 1 eyebrow, 2 eye, 3 mouth, 4 other. */
  panel: number;
  kind: MorphKind;
  /** Number of offsets (also for the kinds whose offsets are skipped: flip, impulse). */
  count: number;
  /** Vertex morphs only: vertex index and (dx, dy, dz) per offset. */
  vertex: { indices: Uint32Array; offsets: Float32Array } | null;
  /** Group morphs only: morph index and weight per offset. */
  group: { indices: Int32Array; weights: Float32Array } | null;
  /** Bone morphs only (PMX). */
  bone: ModelBoneMorph | null;
  /** UV morphs only (uv and additional uv1–uv4; PMX): vertex index and (x, y, z, w) per offset. */
  uv: { indices: Uint32Array; offsets: Float32Array } | null;
  /** Material morphs only (PMX). */
  material: ModelMaterialMorph | null;
}

/** Bone morph offsets, parallel arrays, MMD coordinates. */
export interface ModelBoneMorph {
  /** Bone index per offset (checked in range by the reader). */
  indices: Int32Array;
  /** (x, y, z) per offset, added to the bone's local translation at weight 1. */
  translations: Float32Array;
  /** Quaternion (x, y, z, w) per offset, applied to the bone's local rotation at weight 1. */
  rotations: Float32Array;
}

/** Material morph operations as stored. */
export const MaterialMorphOp = { MULTIPLY: 0, ADD: 1 } as const;

/**
 * Material morph offsets, parallel arrays. A multiply offset scales each value by 1 + (v − 1)·weight,
 * an add offset adds v·weight.
 */
export interface ModelMaterialMorph {
  /** Material index per offset; −1 = every material. */
  indices: Int32Array;
  /** MaterialMorphOp per offset, as stored (other values are reported as a diagnostic and kept). */
  operations: Uint8Array;
  /** r, g, b, a per offset. */
  diffuse: Float32Array;
  /** r, g, b per offset. */
  specular: Float32Array;
  /** 1 per offset. */
  specularity: Float32Array;
  /** r, g, b per offset. */
  ambient: Float32Array;
  /** r, g, b, a per offset. */
  edgeColor: Float32Array;
  /** 1 per offset. */
  edgeSize: Float32Array;
  /** r, g, b, a per offset: tint of the material's texture. */
  textureTint: Float32Array;
  /** r, g, b, a per offset: tint of the sphere map. */
  sphereTint: Float32Array;
  /** r, g, b, a per offset: tint of the toon texture. */
  toonTint: Float32Array;
}

export interface ModelData {
  format: 'pmx' | 'pmd';
  /** 2.0 / 2.1 for PMX, 1.0 for PMD. */
  version: number;
  name: string;
  nameEn: string;
  comment: string;
  commentEn: string;
  /**
   * How the file's texts are encoded: PMX's header says UTF-16 (LE) or UTF-8; PMD is always Shift_JIS. Absent
   * in models built by hand (tests, the standard figure).
   */
  encoding?: ModelEncoding;
  /**
   * How many display frames (表示枠) the file lists: PMX's frames (Root and 表情 included), PMD's bone display
   * groups (MMD's 表情 frame is not stored). Absent in models built by hand.
   */
  displayFrameCount?: number;
  vertexCount: number;
  /** 3 per vertex. */
  positions: Float32Array;
  /** 3 per vertex. */
  normals: Float32Array;
  /** 2 per vertex (u, v as stored: v grows downward). */
  uvs: Float32Array;
  /**
   * The first additional UV, 4 per vertex as stored (PMX; x and y are a sub-texture sphere's coordinates, mode 3).
   * Null (or absent) when the file has no additional UV (every PMD). uv2–uv4 are for effect shaders and not kept.
   */
  uv1?: Float32Array | null;
  /** 4 bone indices per vertex (unused slots 0 with weight 0). */
  skinIndices: Uint32Array;
  /** 4 weights per vertex, summing to 1 as stored. */
  skinWeights: Float32Array;
  /** Deform per vertex as stored (Deform enum). */
  deform: Uint8Array;
  /**
   * SDEF's parameters, 9 per vertex in MMD's coordinates: the centre C, then R0 and R1 (as stored); read
   * for SDEF vertices, zero for the rest. Null (or absent) when no vertex is SDEF (every PMD).
   */
  sdef?: Float32Array | null;
  /** Edge (outline) thickness factor per vertex: PMX's edge scale; PMD's edge flag as 1 (drawn) or 0 (off). */
  edgeScales: Float32Array;
  /** Triangle vertex indices. */
  indices: Uint32Array;
  /** Texture paths relative to the model file, as stored (backslashes kept). */
  textures: string[];
  materials: ModelMaterial[];
  bones: ModelBone[];
  morphs: ModelMorph[];
  /** Rigid body and joint counts (= rigidBodies.length, joints.length; 0 when not read). */
  rigidBodyCount: number;
  jointCount: number;
  /** Rigid bodies as stored (PMD positions made model-space, as PMX stores them). */
  rigidBodies: ModelRigidBody[];
  joints: ModelJoint[];
  /** PMX 2.1 soft bodies: named, not simulated. */
  softBodies: ModelSoftBody[];
  /**
   * Why the physics section could not be read (bad count, index out of range, cut short), with its byte
   * offset; the rest of the model still loads (with a diagnostic) and the lists above are empty.
   */
  physicsError: CodecError | null;
  /**
   * Display frames (表示枠) in file order, for the bone list: PMX's frames; a PMD's bone groups (with their
   * English names when the file has them) after a Root frame of bone 0 (センター), which MMD lists first and
   * no PMD group holds. Absent for files cut short before them.
   */
  displayFrames?: ModelDisplayFrame[];
}

/** Rigid body shapes as stored. */
export const RigidShape = { SPHERE: 0, BOX: 1, CAPSULE: 2 } as const;
/** Rigid body modes as stored: 0 follows its bone, 1 physics drives the bone, 2 physics drives the rotation only. */
export const RigidMode = { FOLLOW_BONE: 0, PHYSICS: 1, PHYSICS_WITH_BONE: 2 } as const;

export interface ModelRigidBody {
  name: string;
  nameEn: string;
  /** Bone index, −1 for none (checked in range by the reader). */
  bone: number;
  /** Collision group 0–15 (the body is in group 1 << group). */
  group: number;
  /**
   * The 16-bit mask as stored: bit k set = collides with group k. PMX Editor shows its complement as the
   * "non-collision groups" (非衝突グループ).
   */
  mask: number;
  /** RigidShape. */
  shape: number;
  /** Sphere: radius, –, –; box: half extents x, y, z; capsule: radius, height (cylinder part), –. */
  size: Vec3;
  /** Model-space position (PMD stores it relative to the bone; the reader adds the bone's position). */
  position: Vec3;
  /** Euler angles in radians, applied Y, then X, then Z (MMD's order). */
  rotation: Vec3;
  mass: number;
  linearDamping: number;
  angularDamping: number;
  restitution: number;
  friction: number;
  /** RigidMode. */
  mode: number;
  /** Byte offset of the record (after its names for PMX), for messages. */
  offset: number;
}

export interface ModelJoint {
  name: string;
  nameEn: string;
  /** PMX 2.1 joint type (0 = 6-DOF spring, the only one PMX 2.0 and PMD have). */
  type: number;
  /** Rigid body indices (checked in range by the reader). */
  bodyA: number;
  bodyB: number;
  position: Vec3;
  /** Euler angles in radians, Y then X then Z. */
  rotation: Vec3;
  linearLower: Vec3;
  linearUpper: Vec3;
  angularLower: Vec3;
  angularUpper: Vec3;
  /** Spring stiffness per linear axis, then per angular axis. */
  linearSpring: Vec3;
  angularSpring: Vec3;
  offset: number;
}

export interface ModelSoftBody {
  name: string;
  nameEn: string;
  /** 0 tri-mesh, 1 rope. */
  shape: number;
  material: number;
  offset: number;
}

/** A PMX display frame: a named group of bones (and morphs) as the model's author arranged them. */
export interface ModelDisplayFrame {
  name: string;
  nameEn: string;
  /** The special frames: Root and 表情. */
  special: boolean;
  /** Bone indices in the frame's order (may be out of range in a damaged file: readers check). */
  bones: number[];
  morphs: number[];
}

/**
 * Whether a model draws a sub-texture sphere (mode 3): a material has one, and the file an additional UV to
 * read it by. Its uv1 morphs then move something drawn.
 */
export function drawsSubTexture(model: Partial<Pick<ModelData, 'materials' | 'uv1'>>): boolean {
  return !!model.uv1 && !!model.materials?.some((m) => m.sphereMode === 3);
}
