/**
 * PMX 2.0 / 2.1 reader (little-endian throughout).
 *
 *   "PMX " | version f32 | n u8 | globals u8×n:
 *     [0] text encoding (0 UTF-16LE, 1 UTF-8)  [1] additional UV count (0–4)
 *     [2] vertex index size  [3] texture  [4] material  [5] bone  [6] morph  [7] rigid body index size (1, 2 or 4)
 *   text = i32 byte length + bytes: model name, English name, comment, English comment
 *   vertices  i32 n × (position f32×3 | normal f32×3 | uv f32×2 | additional uv f32×4 × k | deform u8 |
 *               BDEF1 bone | BDEF2 bone×2 w f32 | BDEF4 bone×4 w f32×4 | SDEF bone×2 w f32 C R0 R1 f32×3 each |
 *               QDEF as BDEF4 | edge scale f32)
 *   faces     i32 index count × vertex index (sizes 1 and 2 unsigned, 4 signed)
 *   textures  i32 n × text path
 *   materials i32 n × (name text ×2 | diffuse f32×4 | specular f32×3 | specularity f32 | ambient f32×3 | flags u8 |
 *               edge colour f32×4 | edge size f32 | texture idx | sphere idx | sphere mode u8 | shared toon u8 |
 *               toon (u8 when shared, else texture idx) | memo text | index count i32)
 *   bones     i32 n × (name text ×2 | position f32×3 | parent idx | layer i32 | flags u16 | tail (bone idx or f32×3) |
 *               [append: parent idx, ratio f32] | [fixed axis f32×3] | [local axes f32×3 ×2] | [external key i32] |
 *               [IK: target idx, loop i32, limit angle f32, link count i32, links × (bone idx, has limits u8, [min f32×3, max f32×3])])
 *   morphs    i32 n × (name text ×2 | panel u8 | type u8 | offset count i32 | offsets by type:
 *               0 group    morph idx, weight f32
 *               1 vertex   vertex idx, offset f32×3
 *               2 bone     bone idx, translation f32×3, rotation quaternion f32×4 (x, y, z, w)
 *               3–7 uv, additional uv1–uv4   vertex idx, offset f32×4
 *               8 material material idx (−1 = all), operation u8 (0 multiply, 1 add), diffuse f32×4,
 *                          specular f32×3, specularity f32, ambient f32×3, edge colour f32×4, edge size f32,
 *                          texture tint f32×4, sphere tint f32×4, toon tint f32×4
 *               9 flip     morph idx, weight f32 (skipped)
 *               10 impulse rigid body idx, local u8, velocity f32×3, torque f32×3 (skipped))
 *   display frames (skipped) | rigid bodies | joints | soft bodies (2.1, named only): layouts at readPhysics
 * Non-vertex indices of size 1 and 2 are signed (−1 = none).
 */
import { CodecFailure, fail, ok, type CodecError, type Diagnostic, type Result } from '../vmd/errors';
import type { Vec3 } from '../vmd/records';
import { Cursor } from './binary-cursor';
import { BONE_FLAG, Deform, MaterialMorphOp, RigidMode, RigidShape, type ModelBone, type ModelDisplayFrame, type ModelJoint, type ModelRigidBody, type ModelSoftBody, type ModelData, type ModelMaterial, type ModelMorph, type MorphKind } from './model-types';

export const PMX_MAGIC = [0x50, 0x4d, 0x58, 0x20]; // "PMX "

/** Morph type byte → kind. */
const MORPH_KINDS: MorphKind[] = ['group', 'vertex', 'bone', 'uv', 'uv1', 'uv2', 'uv3', 'uv4', 'material', 'flip', 'impulse'];

const utf16 = new TextDecoder('utf-16le');
const utf8 = new TextDecoder('utf-8');

export function isPmx(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && PMX_MAGIC.every((b, i) => bytes[i] === b);
}

interface Sizes {
  vertex: number;
  texture: number;
  material: number;
  bone: number;
  morph: number;
  rigid: number;
}

function index(c: Cursor, size: number): number {
  return size === 1 ? c.i8() : size === 2 ? c.i16() : c.i32();
}

function vertexIndex(c: Cursor, size: number): number {
  return size === 1 ? c.u8() : size === 2 ? c.u16() : c.i32();
}

/** Parses PMX bytes into a ModelData. Never throws: errors come back as values with byte offsets. */
export function readPmx(bytes: Uint8Array): Result<ModelData> {
  if (!isPmx(bytes)) return fail('E_PMX_MAGIC', 'not a PMX file: it does not start with "PMX "', 0);
  const c = new Cursor(bytes);
  const diagnostics: Diagnostic[] = [];
  try {
    return ok(parse(c, diagnostics), diagnostics);
  } catch (e) {
    if (e instanceof CodecFailure) return { ok: false, error: e.error };
    throw e;
  }
}

function parse(c: Cursor, diagnostics: Diagnostic[]): ModelData {
  c.off = 4;
  c.what = 'header';
  const version = Math.round(c.f32() * 10) / 10;
  if (version !== 2 && version !== 2.1) {
    diagnostics.push({ code: 'W_PMX_VERSION', message: `PMX version ${version}; read as 2.x`, offset: 4, params: { version } });
  }
  const globalCount = c.u8();
  if (globalCount < 8) throw new CodecFailure({ code: 'E_PMX_MAGIC', message: `PMX header lists ${globalCount} globals; at least 8 are needed`, offset: 8 });
  const globals = c.take(globalCount);
  const encoding = globals[0];
  const addUv = globals[1];
  const sizes: Sizes = { vertex: globals[2], texture: globals[3], material: globals[4], bone: globals[5], morph: globals[6], rigid: globals[7] };
  for (const [k, s] of Object.entries(sizes)) {
    if (s !== 1 && s !== 2 && s !== 4) throw new CodecFailure({ code: 'E_PMX_MAGIC', message: `PMX ${k} index size is ${s}; must be 1, 2 or 4`, offset: 9 });
  }
  if (addUv > 4) throw new CodecFailure({ code: 'E_PMX_MAGIC', message: `PMX additional UV count is ${addUv}; at most 4`, offset: 10 });
  const decoder = encoding === 0 ? utf16 : utf8;
  const text = (what: string): string => {
    c.what = what;
    const n = c.i32();
    if (n < 0) throw new CodecFailure({ code: 'E_PMX_TRUNCATED', message: `${what}: negative text length ${n}`, offset: c.off - 4 });
    return n === 0 ? '' : decoder.decode(c.take(n));
  };
  const name = text('model name');
  const nameEn = text('model English name');
  const comment = text('comment');
  const commentEn = text('English comment');

  // ---- vertices ----
  c.what = 'vertex count';
  const vertexCount = c.i32();
  const bi = sizes.bone;
  // Smallest vertex: BDEF1 — 32 base + additional UVs + deform byte + one bone index + edge scale.
  c.needRecords(vertexCount, 32 + 16 * addUv + 1 + bi + 4, 'vertices');
  const positions = new Float32Array(3 * vertexCount);
  const normals = new Float32Array(3 * vertexCount);
  const uvs = new Float32Array(2 * vertexCount);
  const skinIndices = new Uint32Array(4 * vertexCount);
  const skinWeights = new Float32Array(4 * vertexCount);
  const deform = new Uint8Array(vertexCount);
  const edgeScales = new Float32Array(vertexCount);
  // SDEF's C, R0, R1 (9 per vertex), made at the first SDEF vertex: most models have none.
  let sdef: Float32Array | null = null;
  // The first additional UV (x, y, z, w), when the file has one: a sub-texture sphere (mode 3) is drawn by it.
  const uv1 = addUv > 0 ? new Float32Array(4 * vertexCount) : null;
  const v = c.view;
  for (let i = 0; i < vertexCount; i++) {
    c.what = `vertex ${i}`;
    c.need(32 + 16 * addUv + 1);
    const o = c.off;
    positions[3 * i] = v.getFloat32(o, true);
    positions[3 * i + 1] = v.getFloat32(o + 4, true);
    positions[3 * i + 2] = v.getFloat32(o + 8, true);
    normals[3 * i] = v.getFloat32(o + 12, true);
    normals[3 * i + 1] = v.getFloat32(o + 16, true);
    normals[3 * i + 2] = v.getFloat32(o + 20, true);
    uvs[2 * i] = v.getFloat32(o + 24, true);
    uvs[2 * i + 1] = v.getFloat32(o + 28, true);
    if (uv1) for (let k = 0; k < 4; k++) uv1[4 * i + k] = v.getFloat32(o + 32 + 4 * k, true);
    c.off = o + 32 + 16 * addUv;
    const d = c.u8();
    deform[i] = d;
    const s = 4 * i;
    switch (d) {
      case Deform.BDEF1:
        skinIndices[s] = nonNegative(index(c, bi));
        skinWeights[s] = 1;
        break;
      case Deform.BDEF2:
      case Deform.SDEF: {
        // SDEF: BDEF2's bones and weight, then C, R0, R1 (the preview's skinning reads them).
        skinIndices[s] = nonNegative(index(c, bi));
        skinIndices[s + 1] = nonNegative(index(c, bi));
        const w = c.f32();
        skinWeights[s] = w;
        skinWeights[s + 1] = 1 - w;
        if (d === Deform.SDEF) {
          c.need(36);
          sdef ??= new Float32Array(9 * vertexCount);
          for (let k = 0; k < 9; k++) sdef[9 * i + k] = c.f32();
        }
        break;
      }
      case Deform.BDEF4:
      case Deform.QDEF:
        for (let k = 0; k < 4; k++) skinIndices[s + k] = nonNegative(index(c, bi));
        for (let k = 0; k < 4; k++) skinWeights[s + k] = c.f32();
        break;
      default:
        throw new CodecFailure({ code: 'E_PMX_DEFORM', message: `vertex ${i}: unknown deform type ${d}`, offset: c.off - 1 });
    }
    edgeScales[i] = c.f32();
  }

  // ---- faces ----
  c.what = 'face count';
  const indexCount = c.i32();
  c.needRecords(indexCount, sizes.vertex, 'face indices');
  if (indexCount % 3 !== 0) diagnostics.push({ code: 'W_PMX_FACES', message: `face index count ${indexCount} is not a multiple of 3`, offset: c.off - 4, params: { n: indexCount } });
  const indices = new Uint32Array(indexCount);
  c.what = 'face indices';
  for (let i = 0; i < indexCount; i++) {
    const k = vertexIndex(c, sizes.vertex);
    if (k < 0 || k >= vertexCount) throw new CodecFailure({ code: 'E_PMX_INDEX', message: `face index ${i} refers to vertex ${k}; the model has ${vertexCount}`, offset: c.off - sizes.vertex });
    indices[i] = k;
  }

  // ---- textures ----
  c.what = 'texture count';
  const textureCount = c.i32();
  c.needRecords(textureCount, 4, 'textures');
  const textures: string[] = [];
  for (let i = 0; i < textureCount; i++) textures.push(text(`texture ${i} path`));

  // ---- materials ----
  c.what = 'material count';
  const materialCount = c.i32();
  c.needRecords(materialCount, 4 + 4 + 16 + 12 + 4 + 12 + 1 + 16 + 4 + 2 * sizes.texture + 2 + 1 + 4 + 4, 'materials');
  const materials: ModelMaterial[] = [];
  let used = 0;
  for (let i = 0; i < materialCount; i++) {
    const mName = text(`material ${i} name`);
    const mNameEn = text(`material ${i} English name`);
    c.what = `material ${i}`;
    const diffuse = c.vec4();
    const specular = c.vec3();
    const specularity = c.f32();
    const ambient = c.vec3();
    const flags = c.u8();
    const edgeColor = c.vec4();
    const edgeSize = c.f32();
    const texture = index(c, sizes.texture);
    const sphereTexture = index(c, sizes.texture);
    const sphereMode = c.u8();
    const toonShared = c.u8() === 1;
    const toon = toonShared ? c.u8() : index(c, sizes.texture);
    text(`material ${i} memo`);
    c.what = `material ${i} index count`;
    const count = c.i32();
    used += count;
    materials.push({ name: mName, nameEn: mNameEn, diffuse, specular, specularity, ambient, flags, edgeColor, edgeSize, texture, sphereTexture, sphereMode, toonShared, toon, indexCount: count });
  }
  if (used !== indexCount) diagnostics.push({ code: 'W_PMX_MATERIAL_FACES', message: `materials draw ${used} face indices; the model has ${indexCount}`, params: { used, n: indexCount } });

  // ---- bones ----
  c.what = 'bone count';
  const boneCount = c.i32();
  c.needRecords(boneCount, 8 + 12 + sizes.bone + 4 + 2 + sizes.bone, 'bones');
  const bones: ModelBone[] = [];
  for (let i = 0; i < boneCount; i++) {
    const bName = text(`bone ${i} name`);
    const bNameEn = text(`bone ${i} English name`);
    c.what = `bone ${i}`;
    const positionAt = c.off;
    const position = c.vec3();
    checkBonePosition(i, bName, position, positionAt);
    const parent = index(c, sizes.bone);
    const layer = c.i32();
    const flags = c.u16();
    let tailBone = -1;
    let tailOffset: Vec3 = [0, 0, 0];
    if (flags & BONE_FLAG.TAIL_IS_BONE) tailBone = index(c, sizes.bone);
    else tailOffset = c.vec3();
    let appendParent = -1, appendRatio = 0;
    if (flags & (BONE_FLAG.APPEND_ROTATE | BONE_FLAG.APPEND_TRANSLATE)) {
      appendParent = index(c, sizes.bone);
      appendRatio = c.f32();
    }
    const fixedAxis = flags & BONE_FLAG.FIXED_AXIS ? c.vec3() : null;
    if (flags & BONE_FLAG.LOCAL_AXES) c.skip(24);
    if (flags & BONE_FLAG.EXTERNAL_PARENT) c.skip(4);
    let ik: ModelBone['ik'] = null;
    if (flags & BONE_FLAG.IK) {
      c.what = `bone ${i} IK`;
      const target = index(c, sizes.bone);
      const loopCount = c.i32();
      const limitAngle = c.f32();
      const linkCount = c.i32();
      c.needRecords(linkCount, sizes.bone + 1, `bone ${i} IK links`);
      const links = [];
      for (let k = 0; k < linkCount; k++) {
        const bone = index(c, sizes.bone);
        const limited = c.u8() === 1;
        links.push({ bone, limits: limited ? { min: c.vec3(), max: c.vec3() } : null });
      }
      ik = { target, loopCount, limitAngle, links };
    }
    bones.push({ name: bName, nameEn: bNameEn, position, parent, layer, flags, tailBone, tailOffset, appendParent, appendRatio, fixedAxis, ik });
  }
  checkBoneRefs(bones, diagnostics);

  // ---- morphs ----
  c.what = 'morph count';
  const morphCount = c.i32();
  c.needRecords(morphCount, 8 + 1 + 1 + 4, 'morphs');
  const morphs: ModelMorph[] = [];
  for (let i = 0; i < morphCount; i++) {
    const mName = text(`morph ${i} name`);
    const mNameEn = text(`morph ${i} English name`);
    c.what = `morph ${i}`;
    const panel = c.u8();
    const type = c.u8();
    const count = c.i32();
    const kind = MORPH_KINDS[type];
    if (kind === undefined) throw new CodecFailure({ code: 'E_PMX_MORPH', message: `morph ${i}: unknown morph type ${type}`, offset: c.off - 5 });
    const size = morphOffsetSize(kind, sizes);
    c.needRecords(count, size, `morph ${i} offsets`);
    let vertex: ModelMorph['vertex'] = null;
    let group: ModelMorph['group'] = null;
    let bone: ModelMorph['bone'] = null;
    let uv: ModelMorph['uv'] = null;
    let material: ModelMorph['material'] = null;
    if (kind === 'vertex') {
      const idx = new Uint32Array(count), off = new Float32Array(3 * count);
      for (let k = 0; k < count; k++) {
        const vi = vertexIndex(c, sizes.vertex);
        if (vi < 0 || vi >= vertexCount) throw new CodecFailure({ code: 'E_PMX_INDEX', message: `morph ${i} offset ${k} refers to vertex ${vi}; the model has ${vertexCount}`, offset: c.off - sizes.vertex });
        idx[k] = vi;
        off[3 * k] = c.f32(); off[3 * k + 1] = c.f32(); off[3 * k + 2] = c.f32();
      }
      vertex = { indices: idx, offsets: off };
    } else if (kind === 'group') {
      const idx = new Int32Array(count), w = new Float32Array(count);
      for (let k = 0; k < count; k++) {
        idx[k] = index(c, sizes.morph);
        w[k] = c.f32();
      }
      group = { indices: idx, weights: w };
    } else if (kind === 'bone') {
      const idx = new Int32Array(count), tr = new Float32Array(3 * count), rot = new Float32Array(4 * count);
      for (let k = 0; k < count; k++) {
        const b = index(c, sizes.bone);
        // The preview moves rig bones by these indices: one out of range would be a crash, not a no-op.
        if (b < 0 || b >= boneCount) throw new CodecFailure({ code: 'E_PMX_INDEX', message: `morph ${i} offset ${k} refers to bone ${b}; the model has ${boneCount}`, offset: c.off - sizes.bone });
        idx[k] = b;
        for (let j = 0; j < 3; j++) tr[3 * k + j] = c.f32();
        for (let j = 0; j < 4; j++) rot[4 * k + j] = c.f32();
      }
      bone = { indices: idx, translations: tr, rotations: rot };
    } else if (kind === 'uv' || kind === 'uv1' || kind === 'uv2' || kind === 'uv3' || kind === 'uv4') {
      const idx = new Uint32Array(count), off = new Float32Array(4 * count);
      for (let k = 0; k < count; k++) {
        const vi = vertexIndex(c, sizes.vertex);
        if (vi < 0 || vi >= vertexCount) throw new CodecFailure({ code: 'E_PMX_INDEX', message: `morph ${i} offset ${k} refers to vertex ${vi}; the model has ${vertexCount}`, offset: c.off - sizes.vertex });
        idx[k] = vi;
        for (let j = 0; j < 4; j++) off[4 * k + j] = c.f32();
      }
      uv = { indices: idx, offsets: off };
    } else if (kind === 'material') {
      material = readMaterialMorph(c, count, sizes.material, materialCount, i, diagnostics);
    } else {
      c.skip(count * size);
    }
    morphs.push({ name: mName, nameEn: mNameEn, panel, kind, count, vertex, group, bone, uv, material });
  }

  // ---- display frames (their bones, for the bone list), rigid bodies, joints, soft bodies (2.1) ----
  let physics: PmxPhysics = { rigidBodies: [], joints: [], softBodies: [] };
  let physicsError: CodecError | null = null;
  const displayFrames: ModelDisplayFrame[] = [];
  try {
    c.what = 'display frames';
    const frames = c.i32();
    c.needRecords(frames, 8 + 1 + 4, 'display frames');
    for (let i = 0; i < frames; i++) {
      const fName = text('display frame name');
      const fNameEn = text('display frame English name');
      const special = c.u8() !== 0;
      c.what = `display frame ${i} count`;
      const n = c.i32();
      c.needRecords(n, 1 + Math.min(sizes.bone, sizes.morph), `display frame ${i} items`);
      const fBones: number[] = [];
      const fMorphs: number[] = [];
      for (let k = 0; k < n; k++) {
        const t = c.u8();
        if (t === 0) fBones.push(index(c, sizes.bone));
        else fMorphs.push(index(c, sizes.morph));
      }
      displayFrames.push({ name: fName, nameEn: fNameEn, special, bones: fBones, morphs: fMorphs });
    }
    physics = readPhysics(c, sizes, boneCount, version, text);
  } catch (e) {
    // A model cut short or damaged after its morphs still previews; the error is kept for physics users.
    if (!(e instanceof CodecFailure)) throw e;
    physicsError = e.error;
    diagnostics.push({ code: 'W_PMX_PHYSICS', message: `physics section unreadable (${e.error.message}); no physics`, offset: e.error.offset, params: { why: e.error.message } });
  }

  return {
    format: 'pmx', version, name, nameEn, comment, commentEn, encoding: encoding === 0 ? 'utf-16' : 'utf-8', displayFrameCount: displayFrames.length, vertexCount, positions, normals, uvs, uv1, skinIndices, skinWeights, deform, sdef, edgeScales,
    indices, textures, materials, bones, morphs, rigidBodyCount: physics.rigidBodies.length, jointCount: physics.joints.length,
    ...physics, physicsError, displayFrames,
  };
}

interface PmxPhysics {
  rigidBodies: ModelRigidBody[];
  joints: ModelJoint[];
  softBodies: ModelSoftBody[];
}

/** PMX rigid body after its names: bone idx | group u8 | mask u16 | shape u8 | size, position, rotation f32×3 each | mass, linear damping, angular damping, restitution, friction f32 | mode u8. */
const RIGID_FIXED = 1 + 2 + 1 + 36 + 20 + 1;
/** PMX joint after its names: type u8 | body A, body B idx | position, rotation, linear lower/upper, angular lower/upper, linear/angular spring f32×3 each. */
const JOINT_FIXED = 1 + 96;
/**
 * PMX 2.1 soft body after its names: shape u8 | material idx | group u8 | mask u16 | flags u8 | B-link distance i32 |
 * clusters i32 | total mass f32 | margin f32 | aero model i32 | config f32×12 | cluster f32×6 | iterations i32×4 |
 * material f32×3 | anchors i32 n × (body idx, vertex idx, near u8) | pins i32 n × vertex idx.
 */
const SOFT_FIXED = 1 + 1 + 2 + 1 + 4 + 4 + 4 + 4 + 4 + 48 + 24 + 16 + 12;

/**
 * Rigid bodies, joints and (2.1) soft bodies. Each count is checked against the bytes left before anything is
 * allocated for it; a body's bone and a joint's bodies must be in range (−1 = none for a body's bone).
 */
function readPhysics(c: Cursor, sizes: Sizes, boneCount: number, version: number, text: (what: string) => string): PmxPhysics {
  c.what = 'rigid body count';
  const bodyCount = c.i32();
  c.needRecords(bodyCount, 8 + sizes.bone + RIGID_FIXED, 'rigid bodies');
  const rigidBodies: ModelRigidBody[] = [];
  for (let i = 0; i < bodyCount; i++) {
    const name = text(`rigid body ${i} name`);
    const nameEn = text(`rigid body ${i} English name`);
    c.what = `rigid body ${i}`;
    const offset = c.off;
    c.need(sizes.bone + RIGID_FIXED);
    const bone = index(c, sizes.bone);
    if (bone < -1 || bone >= boneCount) throw new CodecFailure({ code: 'E_PMX_INDEX', message: `rigid body ${i} "${name}" refers to bone ${bone}; the model has ${boneCount}`, offset });
    const group = c.u8();
    const mask = c.u16();
    const shape = c.u8();
    if (shape > RigidShape.CAPSULE) throw new CodecFailure({ code: 'E_PMX_PHYSICS', message: `rigid body ${i} "${name}": unknown shape ${shape}`, offset: c.off - 1, params: physicsParams('body', i, name, 'shape', shape) });
    if (group > 15) throw new CodecFailure({ code: 'E_PMX_PHYSICS', message: `rigid body ${i} "${name}": collision group ${group}; groups are 0–15`, offset: offset + sizes.bone, params: physicsParams('body', i, name, 'group', group) });
    const size = c.vec3();
    const position = c.vec3();
    const rotation = c.vec3();
    const { mass, linearDamping, angularDamping, restitution, friction, mode } = readRigidBodyTail(c, i, name);
    checkBodyNumbers(i, name, offset, { size, position, rotation, mass, linearDamping, angularDamping, restitution, friction });
    rigidBodies.push({ name, nameEn, bone, group, mask, shape, size, position, rotation, mass, linearDamping, angularDamping, restitution, friction, mode, offset });
  }
  c.what = 'joint count';
  const jointCount = c.i32();
  c.needRecords(jointCount, 8 + 2 * sizes.rigid + JOINT_FIXED, 'joints');
  const joints: ModelJoint[] = [];
  for (let i = 0; i < jointCount; i++) {
    const name = text(`joint ${i} name`);
    const nameEn = text(`joint ${i} English name`);
    c.what = `joint ${i}`;
    const offset = c.off;
    c.need(2 * sizes.rigid + JOINT_FIXED);
    const type = c.u8();
    // PMX 2.0 defines only the 6-DOF spring; 2.1's other types (1–5) are read and simulated as springs.
    if (type > 5) throw new CodecFailure({ code: 'E_PMX_PHYSICS', message: `joint ${i} "${name}": unknown type ${type}`, offset, params: physicsParams('joint', i, name, 'type', type) });
    const bodyA = index(c, sizes.rigid);
    const bodyB = index(c, sizes.rigid);
    for (const [k, b] of [[0, bodyA], [1, bodyB]]) {
      if (b < 0 || b >= bodyCount) throw new CodecFailure({ code: 'E_PMX_INDEX', message: `joint ${i} "${name}" refers to rigid body ${b}; the model has ${bodyCount}`, offset: offset + 1 + k * sizes.rigid });
    }
    const j: ModelJoint = {
      name, nameEn, type, bodyA, bodyB, position: c.vec3(), rotation: c.vec3(), linearLower: c.vec3(), linearUpper: c.vec3(),
      angularLower: c.vec3(), angularUpper: c.vec3(), linearSpring: c.vec3(), angularSpring: c.vec3(), offset,
    };
    checkJointNumbers(i, j);
    joints.push(j);
  }
  const softBodies: ModelSoftBody[] = [];
  if (version >= 2.1 && c.remaining > 0) {
    c.what = 'soft body count';
    const softCount = c.i32();
    c.needRecords(softCount, 8 + sizes.material + SOFT_FIXED + 8, 'soft bodies');
    for (let i = 0; i < softCount; i++) {
      const name = text(`soft body ${i} name`);
      const nameEn = text(`soft body ${i} English name`);
      c.what = `soft body ${i}`;
      const offset = c.off;
      c.need(sizes.material + SOFT_FIXED);
      const shape = c.u8();
      const material = index(c, sizes.material);
      c.skip(SOFT_FIXED - 1);
      c.what = `soft body ${i} anchors`;
      const anchors = c.i32();
      c.needRecords(anchors, sizes.rigid + sizes.vertex + 1, `soft body ${i} anchors`);
      c.skip(anchors * (sizes.rigid + sizes.vertex + 1));
      c.what = `soft body ${i} pins`;
      const pins = c.i32();
      c.needRecords(pins, sizes.vertex, `soft body ${i} pins`);
      c.skip(pins * sizes.vertex);
      softBodies.push({ name, nameEn, shape, material, offset });
    }
  }
  return { rigidBodies, joints, softBodies };
}

/** Material morph offsets (the count was checked against the bytes left before this is called). */
function readMaterialMorph(c: Cursor, count: number, indexSize: number, materialCount: number, morph: number, diagnostics: Diagnostic[]): NonNullable<ModelMorph['material']> {
  const m = {
    indices: new Int32Array(count),
    operations: new Uint8Array(count),
    diffuse: new Float32Array(4 * count),
    specular: new Float32Array(3 * count),
    specularity: new Float32Array(count),
    ambient: new Float32Array(3 * count),
    edgeColor: new Float32Array(4 * count),
    edgeSize: new Float32Array(count),
    textureTint: new Float32Array(4 * count),
    sphereTint: new Float32Array(4 * count),
    toonTint: new Float32Array(4 * count),
  };
  const floats = (into: Float32Array, k: number, n: number) => {
    for (let j = 0; j < n; j++) into[n * k + j] = c.f32();
  };
  for (let k = 0; k < count; k++) {
    const mi = index(c, indexSize);
    // −1 addresses every material; anything else must name one.
    if (mi < -1 || mi >= materialCount) throw new CodecFailure({ code: 'E_PMX_INDEX', message: `morph ${morph} offset ${k} refers to material ${mi}; the model has ${materialCount}`, offset: c.off - indexSize });
    m.indices[k] = mi;
    const op = c.u8();
    // An unknown operation spoils only this offset (the preview ignores it), not the model.
    if (op !== MaterialMorphOp.MULTIPLY && op !== MaterialMorphOp.ADD) {
      diagnostics.push({ code: 'W_PMX_MORPH', message: `morph ${morph} offset ${k}: unknown material operation ${op}; ignored`, offset: c.off - 1, params: { morph, k, op } });
    }
    m.operations[k] = op;
    floats(m.diffuse, k, 4);
    floats(m.specular, k, 3);
    floats(m.specularity, k, 1);
    floats(m.ambient, k, 3);
    floats(m.edgeColor, k, 4);
    floats(m.edgeSize, k, 1);
    floats(m.textureTint, k, 4);
    floats(m.sphereTint, k, 4);
    floats(m.toonTint, k, 4);
  }
  return m;
}

function nonNegative(i: number): number {
  return i < 0 ? 0 : i;
}

function morphOffsetSize(kind: MorphKind, s: Sizes): number {
  switch (kind) {
    case 'group':
    case 'flip':
      return s.morph + 4;
    case 'vertex':
      return s.vertex + 12;
    case 'bone':
      return s.bone + 28;
    case 'uv':
    case 'uv1':
    case 'uv2':
    case 'uv3':
    case 'uv4':
      return s.vertex + 16;
    case 'material':
      return s.material + 1 + 16 + 12 + 4 + 12 + 16 + 4 + 16 + 16 + 16;
    case 'impulse':
      return s.rigid + 1 + 24;
  }
}

/** Bone references out of range would crash a skeleton builder: make them −1 and say so. */
export function checkBoneRefs(bones: ModelBone[], diagnostics: Diagnostic[]): void {
  const n = bones.length;
  const bad = (k: number) => k < -1 || k >= n;
  bones.forEach((b, i) => {
    if (bad(b.parent) || b.parent === i) {
      diagnostics.push({ code: 'W_MODEL_BONE_PARENT', message: `bone ${i} "${b.name}" has parent ${b.parent}; treated as a root`, params: { i, name: b.name, parent: b.parent } });
      b.parent = -1;
    }
    if (bad(b.appendParent) || b.appendParent === i) b.appendParent = -1;
    if (bad(b.tailBone)) b.tailBone = -1;
    if (b.ik) {
      const okIk = !bad(b.ik.target) && b.ik.target >= 0 && b.ik.links.every((l) => !bad(l.bone) && l.bone >= 0);
      if (!okIk) {
        diagnostics.push({ code: 'W_MODEL_IK_RANGE', message: `bone ${i} "${b.name}" has an IK chain with bones out of range; IK dropped`, params: { i, name: b.name } });
        b.ik = null;
      }
    }
  });
  // A parent cycle would hang any walk up the hierarchy: cut it at its lowest-numbered bone. (A walk from a
  // bone below a cycle also runs on; after n steps it is inside the cycle, whose bones are then known.)
  for (let i = 0; i < n; i++) {
    let p = bones[i].parent, steps = 0;
    while (p >= 0 && steps <= n) {
      p = bones[p].parent;
      steps++;
    }
    if (steps > n) {
      let cut = p;
      for (let q = bones[p].parent; q !== p; q = bones[q].parent) if (q < cut) cut = q;
      diagnostics.push({ code: 'W_MODEL_BONE_CYCLE', message: `bone ${cut} "${bones[cut].name}" is in a parent cycle; made a root`, params: { i: cut, name: bones[cut].name } });
      bones[cut].parent = -1;
    }
  }
}

/**
 * Largest magnitude of a bone's position: 10⁷, far past any model or stage (Gene_light's bones lie within 100
 * units). A bone at NaN or 1e20 poses its whole branch there: retargeting onto it, a bake or an export would
 * write NaN or Infinity into a VMD.
 */
export const MAX_BONE_POSITION = 1e7;

/**
 * What is wrong with a model's number, said after its field's name: "is NaN, " + `notANumber` for NaN or an
 * infinity, "is 1.00e+10, beyond ±…" past ±`limit`; null when it is within.
 */
function numberProblem(v: number, limit: number, notANumber: string): string | null {
  if (Number.isFinite(v) && Math.abs(v) <= limit) return null;
  return Number.isFinite(v) ? `is ${v.toExponential(2)}, beyond ±${limit.toLocaleString('en-US')}` : `is ${v}, ${notANumber}`;
}

/** Throws E_PMX_NUMBER when bone i's position is NaN, infinite or past ±MAX_BONE_POSITION (`offset`: where it is stored). */
export function checkBonePosition(i: number, name: string, position: readonly number[], offset: number): void {
  for (let k = 0; k < 3; k++) {
    const why = numberProblem(position[k], MAX_BONE_POSITION, 'not a number');
    if (why) throw new CodecFailure({ code: 'E_PMX_NUMBER', message: `bone ${i} "${name}": position ${'xyz'[k]} ${why}`, offset: offset + 4 * k });
  }
}

/**
 * Largest magnitude of a rigid body's numbers and of a joint's position and rotation: 10⁷, far past any model
 * (Gene_light's bodies lie within 93 units, its largest mass is 22.5). Bullet takes a NaN anywhere, a size of
 * 1e10, a mass of 1e20 or a body 1e20 units away without complaint and hands back NaN, Infinity or bones
 * 1e20 units off, which the preview would draw and a bake would write into a VMD. A joint's limits and
 * springs need only be numbers (Gene's springs are 100,000; Bullet stays finite with 1e30 there).
 */
export const MAX_PHYSICS_MAGNITUDE = 1e7;

/**
 * Throws E_PMX_PHYSICS, naming `what` (a rigid body or joint), the first field (in order) that is NaN
 * or infinite, or, among `bounded`, beyond ±MAX_PHYSICS_MAGNITUDE, and the record's offset.
 */
function checkPhysicsNumbers(item: 'body' | 'joint', index: number, name: string, offset: number, fields: Record<string, number | readonly number[]>, bounded: ReadonlySet<string>): void {
  const what = `${item === 'body' ? 'rigid body' : 'joint'} ${index} "${name}"`;
  for (const [field, v] of Object.entries(fields)) {
    const values = typeof v === 'number' ? [v] : v;
    const limit = bounded.has(field) ? MAX_PHYSICS_MAGNITUDE : Infinity;
    for (let k = 0; k < values.length; k++) {
      const why = numberProblem(values[k], limit, 'not a number Bullet can take');
      if (!why) continue;
      const axis = values.length > 1 ? 'xyz'[k] : '';
      const value = Number.isFinite(values[k]) ? values[k].toExponential(2) : String(values[k]);
      throw new CodecFailure({
        code: 'E_PMX_PHYSICS', message: `${what}: ${field}${axis ? ` ${axis}` : ''} ${why}`, offset,
        params: physicsParams(item, index, name, Number.isFinite(values[k]) ? 'large' : 'nan', value, field.replace(/ /g, '-'), axis),
      });
    }
  }
}

/**
 * The params of an E_PMX_PHYSICS error, for the app's own phrasing in its language (err.physics.<problem>):
 * which body or joint, the problem (nan, large, shape, group, mode, type), the value, and a number's field
 * (err.physics.field.<field>) and axis.
 */
export function physicsParams(item: 'body' | 'joint', index: number, name: string, problem: string, value: string | number, field = '', axis = ''): Record<string, string | number> {
  return { item, index, name, problem, value: String(value), field, axis };
}

/** The fields bounded by MAX_PHYSICS_MAGNITUDE: a body's every number; a joint's place, not its limits or springs. */
const BODY_BOUNDED = new Set(['size', 'position', 'rotation', 'mass', 'linear damping', 'angular damping', 'restitution', 'friction']);
const JOINT_BOUNDED = new Set(['position', 'rotation']);

/** checkPhysicsNumbers on a rigid body's numbers (PMX and PMD alike). */
export function checkBodyNumbers(i: number, name: string, offset: number, b: Pick<ModelRigidBody, 'size' | 'position' | 'rotation' | 'mass' | 'linearDamping' | 'angularDamping' | 'restitution' | 'friction'>): void {
  const fields = {
    size: b.size, position: b.position, rotation: b.rotation, mass: b.mass, 'linear damping': b.linearDamping, 'angular damping': b.angularDamping,
    restitution: b.restitution, friction: b.friction,
  };
  checkPhysicsNumbers('body', i, name, offset, fields, BODY_BOUNDED);
}

/** checkPhysicsNumbers on a joint's numbers (PMX and PMD alike). */
export function checkJointNumbers(i: number, j: ModelJoint): void {
  checkPhysicsNumbers('joint', i, j.name, j.offset, {
    position: j.position, rotation: j.rotation, 'linear lower limit': j.linearLower, 'linear upper limit': j.linearUpper,
    'angular lower limit': j.angularLower, 'angular upper limit': j.angularUpper, 'linear spring': j.linearSpring, 'angular spring': j.angularSpring,
  }, JOINT_BOUNDED);
}

/**
 * The end of a rigid body record, laid out alike in PMX and PMD: mass, linear and angular damping,
 * restitution, friction (f32 each), then the mode byte (0–2; anything else is E_PMX_PHYSICS at its offset).
 */
export function readRigidBodyTail(c: Cursor, i: number, name: string): { mass: number; linearDamping: number; angularDamping: number; restitution: number; friction: number; mode: number } {
  const mass = c.f32();
  const linearDamping = c.f32();
  const angularDamping = c.f32();
  const restitution = c.f32();
  const friction = c.f32();
  const mode = c.u8();
  if (mode > RigidMode.PHYSICS_WITH_BONE) throw new CodecFailure({ code: 'E_PMX_PHYSICS', message: `rigid body ${i} "${name}": unknown mode ${mode}`, offset: c.off - 1, params: physicsParams('body', i, name, 'mode', mode) });
  return { mass, linearDamping, angularDamping, restitution, friction, mode };
}
