/**
 * PMD 1.0 reader (little-endian; names are zero-padded Shift_JIS fields).
 *
 *   "Pmd" | version f32 | model name 20 | comment 256
 *   vertices  u32 n × 38 (position f32×3 | normal f32×3 | uv f32×2 | bone u16×2 | weight of bone 0 u8 (0–100) | edge off u8)
 *   faces     u32 index count × u16
 *   materials u32 n × 70 (diffuse f32×3 | alpha f32 | specularity f32 | specular f32×3 | ambient f32×3 | toon u8 |
 *               edge u8 | index count u32 | texture name 20 ("tex.bmp" or "tex.bmp*sphere.sph"))
 *   bones     u16 n × 39 (name 20 | parent u16 (0xFFFF none) | tail u16 | type u8 | IK/append source u16 | position f32×3)
 *   IKs       u16 n × (IK bone u16 | target u16 | chain length u8 | iterations u16 | limit f32 | chain u16 × length)
 *   morphs    u16 n × (name 20 | vertex count u32 | panel u8 | count × (index u32, offset f32×3));
 *               morph 0 "base" holds absolute positions of the morphed vertices, the others index into it
 *   morph display list u8 n × morph u16 | bone group names u8 n × 50 ("体(上)\n") | bone display list u32 n × (bone u16 |
 *               group u8, 1-based) | English flag u8 (1: model name 20, comment 256, bone names 20 × bones, morph names
 *               20 × morphs but the base, group names 50 × groups) | toon names 10 × 100
 *   then rigid bodies (83 bytes each) and joints (124 each): layouts at readPhysics.
 */
import { CodecFailure, fail, ok, type CodecError, type Diagnostic, type Result } from '../vmd/errors';
import { decodeName } from '../vmd/sjis';
import { Cursor } from './binary-cursor';
import { checkBodyNumbers, checkBonePosition, checkBoneRefs, checkJointNumbers, physicsParams, readRigidBodyTail } from './pmx-reader';
import { BONE_FLAG, Deform, RigidMode, RigidShape, type ModelBone, type ModelJoint, type ModelRigidBody, type ModelData, type ModelDisplayFrame, type ModelMaterial, type ModelMorph } from './model-types';

export function isPmd(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0x50 && bytes[1] === 0x6d && bytes[2] === 0x64; // "Pmd"
}

/** PMD bone types that matter here. */
const PMD_BONE = { ROTATE_MOVE: 1, IK: 2, IK_LINKED: 4, ROTATE_FOLLOW: 5, HIDDEN_TARGET: 6, INVISIBLE: 7, TWIST: 8, ROTATE_RATIO: 9 } as const;

/** Parses PMD bytes into a ModelData. Never throws: errors come back as values with byte offsets. */
export function readPmd(bytes: Uint8Array): Result<ModelData> {
  if (!isPmd(bytes)) return fail('E_PMX_MAGIC', 'not a PMD file: it does not start with "Pmd"', 0);
  const diagnostics: Diagnostic[] = [];
  try {
    return ok(parse(new Cursor(bytes), diagnostics), diagnostics);
  } catch (e) {
    if (e instanceof CodecFailure) return { ok: false, error: e.error };
    throw e;
  }
}

function sjis(c: Cursor, n: number): string {
  const o = c.off;
  c.skip(n);
  return decodeName(c.bytes, o, n);
}

/** MMD's shared toon files: toon01.bmp … toon10.bmp (toon00.bmp, no toon). */
const SHARED_TOON = /^toon(0[0-9]|10)\.bmp$/i;

/**
 * The shared toon a toon file name stands for when the model's folder does not hold it (MMD then takes its own
 * Data\toonNN.bmp): toon01.bmp … toon10.bmp (any case) → 0–9, toon00.bmp → −1 (no toon); null for other names.
 * A PMD's toon table is read by this rule; a PMX material's own toon file so named falls back to it too.
 */
export function sharedToonIndex(name: string): number | null {
  const m = SHARED_TOON.exec(name.trim());
  return m ? Number(m[1]) - 1 : null;
}

/**
 * A PMD material's toon byte picks an entry of the model's table of ten toon file names (at the end of the
 * file; a file that ends before it has none). As MMD's loaders do: a shared name (toon01.bmp … toon10.bmp)
 * is that shared toon, whatever entry holds it; any other name is a file beside the model, added to the
 * textures once and named by the material as a PMX names its own toon; an empty entry, or no table, keeps
 * the shared toon of that index.
 */
function useToonNames(materials: ModelMaterial[], names: readonly string[], textureIndex: (path: string) => number): void {
  for (const m of materials) {
    const name = m.toon >= 0 && m.toon < names.length ? names[m.toon].trim() : '';
    if (!name) continue;
    const shared = sharedToonIndex(name);
    if (shared !== null) m.toon = shared; // toon00 → −1, no toon
    else {
      m.toonShared = false;
      m.toon = textureIndex(name);
    }
  }
}

function parse(c: Cursor, diagnostics: Diagnostic[]): ModelData {
  c.off = 3;
  c.what = 'header';
  const version = c.f32();
  const name = sjis(c, 20);
  const comment = sjis(c, 256);

  c.what = 'vertex count';
  const vertexCount = c.u32();
  c.needRecords(vertexCount, 38, 'vertices');
  const positions = new Float32Array(3 * vertexCount);
  const normals = new Float32Array(3 * vertexCount);
  const uvs = new Float32Array(2 * vertexCount);
  const skinIndices = new Uint32Array(4 * vertexCount);
  const skinWeights = new Float32Array(4 * vertexCount);
  const deform = new Uint8Array(vertexCount).fill(Deform.BDEF2);
  const edgeScales = new Float32Array(vertexCount);
  const v = c.view;
  for (let i = 0; i < vertexCount; i++) {
    const o = c.off;
    for (let k = 0; k < 3; k++) {
      positions[3 * i + k] = v.getFloat32(o + 4 * k, true);
      normals[3 * i + k] = v.getFloat32(o + 12 + 4 * k, true);
    }
    uvs[2 * i] = v.getFloat32(o + 24, true);
    uvs[2 * i + 1] = v.getFloat32(o + 28, true);
    skinIndices[4 * i] = v.getUint16(o + 32, true);
    skinIndices[4 * i + 1] = v.getUint16(o + 34, true);
    const w = Math.min(100, c.bytes[o + 36]) / 100;
    skinWeights[4 * i] = w;
    skinWeights[4 * i + 1] = 1 - w;
    // The last byte is "edge off": 0 draws the vertex's outline.
    edgeScales[i] = c.bytes[o + 37] === 0 ? 1 : 0;
    c.off = o + 38;
  }

  c.what = 'face count';
  const indexCount = c.u32();
  c.needRecords(indexCount, 2, 'face indices');
  const indices = new Uint32Array(indexCount);
  for (let i = 0; i < indexCount; i++) {
    const k = v.getUint16(c.off + 2 * i, true);
    if (k >= vertexCount) throw new CodecFailure({ code: 'E_PMX_INDEX', message: `face index ${i} refers to vertex ${k}; the model has ${vertexCount}`, offset: c.off + 2 * i });
    indices[i] = k;
  }
  c.off += 2 * indexCount;

  c.what = 'material count';
  const materialCount = c.u32();
  c.needRecords(materialCount, 70, 'materials');
  const textures: string[] = [];
  const textureIndex = (p: string): number => {
    let i = textures.indexOf(p);
    if (i < 0) i = textures.push(p) - 1;
    return i;
  };
  const materials: ModelMaterial[] = [];
  for (let i = 0; i < materialCount; i++) {
    c.what = `material ${i}`;
    const rgb = c.vec3();
    const alpha = c.f32();
    const specularity = c.f32();
    const specular = c.vec3();
    const ambient = c.vec3();
    const toon = c.u8();
    const edge = c.u8();
    const count = c.u32();
    const file = sjis(c, 20);
    let texture = -1, sphereTexture = -1, sphereMode = 0;
    for (const part of file.split('*').filter((s) => s)) {
      const lower = part.toLowerCase();
      if (lower.endsWith('.sph')) { sphereTexture = textureIndex(part); sphereMode = 1; }
      else if (lower.endsWith('.spa')) { sphereTexture = textureIndex(part); sphereMode = 2; }
      else texture = textureIndex(part);
    }
    materials.push({
      name: `material ${i}`, nameEn: '', diffuse: [rgb[0], rgb[1], rgb[2], alpha], specular, specularity, ambient,
      // PMD: edge flag drawn as the PMX edge bit; alpha < 1 is drawn double sided, as MMD does.
      flags: (edge ? 0x10 : 0) | (alpha < 1 ? 0x01 : 0), edgeColor: [0, 0, 0, 1], edgeSize: 1,
      texture, sphereTexture, sphereMode, toonShared: true, toon: toon === 0xff ? -1 : toon, indexCount: count,
    });
  }

  c.what = 'bone count';
  const boneCount = c.u16();
  c.needRecords(boneCount, 39, 'bones');
  const bones: ModelBone[] = [];
  const types: number[] = [];
  for (let i = 0; i < boneCount; i++) {
    c.what = `bone ${i}`;
    const bName = sjis(c, 20);
    const parent = c.u16();
    const tail = c.u16();
    const type = c.u8();
    const source = c.u16();
    const positionAt = c.off;
    const position = c.vec3();
    checkBonePosition(i, bName, position, positionAt);
    types.push(type);
    let flags = BONE_FLAG.ROTATABLE | BONE_FLAG.ENABLED | BONE_FLAG.TAIL_IS_BONE;
    if (type === PMD_BONE.ROTATE_MOVE || type === PMD_BONE.IK) flags |= BONE_FLAG.TRANSLATABLE;
    if (type !== PMD_BONE.INVISIBLE && type !== PMD_BONE.HIDDEN_TARGET) flags |= BONE_FLAG.VISIBLE;
    let appendParent = -1, appendRatio = 0;
    // 回転影響下 follows its source fully; 回転連動 by tail/100 (the tail field holds the ratio).
    if (type === PMD_BONE.ROTATE_FOLLOW) { appendParent = source; appendRatio = 1; flags |= BONE_FLAG.APPEND_ROTATE; }
    if (type === PMD_BONE.ROTATE_RATIO) { appendParent = source; appendRatio = tail / 100; flags |= BONE_FLAG.APPEND_ROTATE; }
    bones.push({
      name: bName, nameEn: '', position, parent: parent === 0xffff ? -1 : parent, layer: 0, flags,
      tailBone: type === PMD_BONE.ROTATE_RATIO || tail === 0xffff || tail === 0 ? -1 : tail, tailOffset: [0, 0, 0],
      appendParent, appendRatio, fixedAxis: null, ik: null,
    });
  }

  c.what = 'IK count';
  const ikCount = c.u16();
  c.needRecords(ikCount, 11, 'IKs');
  for (let i = 0; i < ikCount; i++) {
    c.what = `IK ${i}`;
    const ikBone = c.u16();
    const target = c.u16();
    const length = c.u8();
    const loopCount = c.u16();
    const limit = c.f32();
    const links = [];
    for (let k = 0; k < length; k++) links.push(c.u16());
    const owner = bones[ikBone];
    if (!owner) {
      diagnostics.push({ code: 'W_PMD_IK_OWNER', message: `IK ${i} belongs to bone ${ikBone}; the model has ${boneCount}`, params: { i, bone: ikBone, n: boneCount } });
      continue;
    }
    owner.flags |= BONE_FLAG.IK;
    // PMD stores the per-step limit in units of 4 radians (MMD multiplies by 4); knees bend on X only, backward.
    owner.ik = {
      target, loopCount, limitAngle: limit * 4,
      links: links.map((b) => ({ bone: b, limits: bones[b]?.name.includes('ひざ') ? { min: [-Math.PI, 0, 0], max: [-0.5 * (Math.PI / 180), 0, 0] } : null })),
    };
  }
  checkBoneRefs(bones, diagnostics);
  void types;

  c.what = 'morph count';
  const morphCount = c.u16();
  c.needRecords(morphCount, 25, 'morphs');
  const morphs: ModelMorph[] = [];
  let base: Uint32Array | null = null;
  for (let i = 0; i < morphCount; i++) {
    c.what = `morph ${i}`;
    const mName = sjis(c, 20);
    const count = c.u32();
    const panel = c.u8();
    c.needRecords(count, 16, `morph ${i} offsets`);
    const idx = new Uint32Array(count), off = new Float32Array(3 * count);
    for (let k = 0; k < count; k++) {
      idx[k] = c.u32();
      off[3 * k] = c.f32(); off[3 * k + 1] = c.f32(); off[3 * k + 2] = c.f32();
    }
    if (panel === 0) {
      // "base": absolute positions; it is what the other morphs index into.
      for (let k = 0; k < count; k++) if (idx[k] >= vertexCount) throw new CodecFailure({ code: 'E_PMX_INDEX', message: `base morph refers to vertex ${idx[k]}; the model has ${vertexCount}`, offset: c.off });
      base = idx;
      morphs.push({ name: mName, nameEn: '', panel, kind: 'vertex', count, vertex: { indices: idx, offsets: new Float32Array(3 * count) }, group: null, bone: null, uv: null, material: null });
      continue;
    }
    if (!base) throw new CodecFailure({ code: 'E_PMX_MORPH', message: `morph ${i} "${mName}" comes before the base morph`, offset: c.off });
    for (let k = 0; k < count; k++) {
      if (idx[k] >= base.length) throw new CodecFailure({ code: 'E_PMX_INDEX', message: `morph ${i} offset ${k} refers to base entry ${idx[k]}; base has ${base.length}`, offset: c.off });
      idx[k] = base[idx[k]];
    }
    morphs.push({ name: mName, nameEn: '', panel, kind: 'vertex', count, vertex: { indices: idx, offsets: off }, group: null, bone: null, uv: null, material: null });
  }

  // Optional tail: display lists, English names, toon names, physics. Older files end anywhere before physics.
  let nameEn = '', commentEn = '';
  let displayFrameCount = 0;
  let displayFrames: ModelDisplayFrame[] | undefined;
  const toonNames: string[] = [];
  let rigidBodies: ModelRigidBody[] = [], joints: ModelJoint[] = [];
  let physicsError: CodecError | null = null;
  try {
    c.what = 'morph display list';
    c.skip(c.u8() * 2);
    c.what = 'bone group names';
    const groups = c.u8();
    c.needRecords(groups, 50, 'bone group names');
    // Names are 50-byte fields; PMD editors end them with a line feed, which is no part of the name.
    const groupNames: string[] = [];
    for (let k = 0; k < groups; k++) groupNames.push(sjis(c, 50).trim());
    displayFrameCount = groups;
    c.what = 'bone display list';
    const entries = c.u32();
    c.needRecords(entries, 3, 'bone display list');
    displayFrames = groupNames.map((name) => ({ name, nameEn: '', special: false, bones: [] as number[], morphs: [] }));
    let bad = 0, badAt = 0, badBone = 0, badGroup = 0;
    for (let k = 0; k < entries; k++) {
      const at = c.off;
      const bone = c.u16();
      const group = c.u8(); // 1-based: group 1 is the first name
      if (bone < boneCount && group >= 1 && group <= groups) displayFrames[group - 1].bones.push(bone);
      else if (!bad++) { badAt = at; badBone = bone; badGroup = group; }
    }
    if (bad) {
      diagnostics.push({
        code: 'W_PMD_DISPLAY', offset: badAt, params: { n: bad, bone: badBone, group: badGroup, bones: boneCount, groups },
        message: `${bad} bone display entr${bad === 1 ? 'y names' : 'ies name'} a bone or group the model lacks (the first: bone ${badBone} in group ${badGroup}; the model has ${boneCount} bones, ${groups} groups); left out of the bone list`,
      });
    }
    // MMD lists bone 0 (センター) first, in no group; a PMX converted from the PMD holds it in its Root frame.
    if (boneCount && !displayFrames.some((f) => f.bones.includes(0))) displayFrames.unshift({ name: 'Root', nameEn: 'Root', special: true, bones: [0], morphs: [] });
    if (c.remaining > 0) {
      c.what = 'English names';
      if (c.u8() === 1) {
        nameEn = sjis(c, 20);
        commentEn = sjis(c, 256);
        for (const b of bones) b.nameEn = sjis(c, 20);
        for (const m of morphs.slice(1)) m.nameEn = sjis(c, 20);
        const groupsEn = displayFrames.filter((f) => !f.special);
        for (let k = 0; k < groups; k++) groupsEn[k].nameEn = sjis(c, 50).trim();
      }
    }
    if (c.remaining > 0) {
      c.what = 'toon texture names';
      c.need(1000);
      for (let k = 0; k < 10; k++) toonNames.push(sjis(c, 100));
    }
  } catch (e) {
    if (!(e instanceof CodecFailure)) throw e;
    diagnostics.push({ code: 'W_PMD_TAIL', message: `optional PMD data unreadable (${e.error.message}); ignored`, offset: e.error.offset, params: { why: e.error.message } });
    c.off = c.bytes.length;
  }
  useToonNames(materials, toonNames, textureIndex);
  if (c.remaining > 0) {
    try {
      ({ rigidBodies, joints } = readPhysics(c, bones));
    } catch (e) {
      if (!(e instanceof CodecFailure)) throw e;
      physicsError = e.error;
      diagnostics.push({ code: 'W_PMD_PHYSICS', message: `physics section unreadable (${e.error.message}); no physics`, offset: e.error.offset, params: { why: e.error.message } });
    }
  }

  return {
    format: 'pmd', version, name, nameEn, comment, commentEn, encoding: 'shift_jis', displayFrameCount, vertexCount, positions, normals, uvs, skinIndices, skinWeights, deform, edgeScales,
    indices, textures, materials, bones, morphs, rigidBodyCount: rigidBodies.length, jointCount: joints.length,
    rigidBodies, joints, softBodies: [], physicsError, ...(displayFrames ? { displayFrames } : {}),
  };
}

/** PMD rigid body: name 20 | bone u16 (0xFFFF none) | group u8 | mask u16 | shape u8 | size, position (relative to the bone), rotation f32×3 each | mass, linear damping, angular damping, restitution, friction f32 | mode u8. */
const PMD_RIGID = 83;
/** PMD joint: name 20 | body A, body B u32 | position, rotation, linear lower/upper, angular lower/upper, linear/angular spring f32×3 each. */
const PMD_JOINT = 124;

/** Rigid bodies and joints; counts are checked against the bytes left before anything is allocated. */
function readPhysics(c: Cursor, bones: ModelBone[]): { rigidBodies: ModelRigidBody[]; joints: ModelJoint[] } {
  c.what = 'rigid body count';
  const bodyCount = c.u32();
  c.needRecords(bodyCount, PMD_RIGID, 'rigid bodies');
  const rigidBodies: ModelRigidBody[] = [];
  for (let i = 0; i < bodyCount; i++) {
    c.what = `rigid body ${i}`;
    const offset = c.off;
    const name = sjis(c, 20);
    const rawBone = c.u16();
    const bone = rawBone === 0xffff ? -1 : rawBone;
    if (bone >= bones.length) throw new CodecFailure({ code: 'E_PMX_INDEX', message: `rigid body ${i} "${name}" refers to bone ${bone}; the model has ${bones.length}`, offset: offset + 20 });
    const group = c.u8();
    const mask = c.u16();
    const shape = c.u8();
    if (shape > RigidShape.CAPSULE) throw new CodecFailure({ code: 'E_PMX_PHYSICS', message: `rigid body ${i} "${name}": unknown shape ${shape}`, offset: c.off - 1, params: physicsParams('body', i, name, 'shape', shape) });
    if (group > 15) throw new CodecFailure({ code: 'E_PMX_PHYSICS', message: `rigid body ${i} "${name}": collision group ${group}; groups are 0–15`, offset: offset + 22, params: physicsParams('body', i, name, 'group', group) });
    const size = c.vec3();
    const rel = c.vec3();
    // PMD stores the position relative to the body's bone (bone 0 for none, as MMD and babylon-mmd place it).
    const at = bones[bone < 0 ? 0 : bone]?.position ?? [0, 0, 0];
    const position: [number, number, number] = [rel[0] + at[0], rel[1] + at[1], rel[2] + at[2]];
    const rotation = c.vec3();
    const { mass, linearDamping, angularDamping, restitution, friction, mode } = readRigidBodyTail(c, i, name);
    checkBodyNumbers(i, name, offset, { size, position, rotation, mass, linearDamping, angularDamping, restitution, friction });
    rigidBodies.push({ name, nameEn: '', bone, group, mask, shape, size, position, rotation, mass, linearDamping, angularDamping, restitution, friction, mode, offset });
  }
  c.what = 'joint count';
  const jointCount = c.u32();
  c.needRecords(jointCount, PMD_JOINT, 'joints');
  const joints: ModelJoint[] = [];
  for (let i = 0; i < jointCount; i++) {
    c.what = `joint ${i}`;
    const offset = c.off;
    const name = sjis(c, 20);
    const bodyA = c.u32();
    const bodyB = c.u32();
    for (const [k, b] of [[0, bodyA], [1, bodyB]]) {
      if (b >= bodyCount) throw new CodecFailure({ code: 'E_PMX_INDEX', message: `joint ${i} "${name}" refers to rigid body ${b}; the model has ${bodyCount}`, offset: offset + 20 + 4 * k });
    }
    const j: ModelJoint = {
      name, nameEn: '', type: 0, bodyA, bodyB, position: c.vec3(), rotation: c.vec3(), linearLower: c.vec3(), linearUpper: c.vec3(),
      angularLower: c.vec3(), angularUpper: c.vec3(), linearSpring: c.vec3(), angularSpring: c.vec3(), offset,
    };
    checkJointNumbers(i, j);
    joints.push(j);
  }
  return { rigidBodies, joints };
}
