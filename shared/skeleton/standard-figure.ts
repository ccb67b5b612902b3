/**
 * The built-in figure shown when no model is loaded: a standard MMD skeleton (the bones dance motions key,
 * with the usual rest positions of a ~20-unit-tall model in MMD coordinates — left = +X, facing −Z) and the
 * solid limbs drawn on it. Expressed as ModelBone records so the same rig, IK and append code drives it
 * and a user's PMX/PMD. As a model (standardFigureModel: its bones, no mesh) it is what a capture is
 * imported onto when no model is chosen: the VMD then keys the standard bones, and plays on any model that
 * has them, as motions are shared.
 */
import type { Vec3 } from '../vmd/records';
import { BONE_FLAG, type ModelBone, type ModelData } from '../pmx/model-types';

interface FigureBoneDef {
  name: string;
  parent: string | null;
  position: Vec3;
  /** Append (付与) rotation source and ratio. */
  append?: [string, number];
  ik?: { target: string; links: string[]; loop: number; limit: number };
}

const DEG = Math.PI / 180;
/** MMD's knee limit: bends backward only (MMD coordinates, radians). */
const KNEE_LIMITS = { min: [-Math.PI, 0, 0] as Vec3, max: [-0.5 * DEG, 0, 0] as Vec3 };

/** Arm direction in the rest pose (A-stance, ~40° below horizontal), used to lay out the hand. */
const ARM: Vec3 = [0.78, -0.63, 0];

function side(s: 1 | -1, p: Vec3): Vec3 {
  return [s * p[0], p[1], p[2]];
}
function add(a: Vec3, b: Vec3, k = 1): Vec3 {
  return [a[0] + k * b[0], a[1] + k * b[1], a[2] + k * b[2]];
}

function buildDefs(): FigureBoneDef[] {
  const defs: FigureBoneDef[] = [
    { name: '全ての親', parent: null, position: [0, 0, 0] },
    { name: 'センター', parent: '全ての親', position: [0, 8, 0] },
    { name: 'グルーブ', parent: 'センター', position: [0, 8.2, 0] },
    { name: '腰', parent: 'グルーブ', position: [0, 11.4, 0.3] },
    { name: '上半身', parent: '腰', position: [0, 11.8, 0.2] },
    { name: '上半身2', parent: '上半身', position: [0, 13.3, 0.2] },
    { name: '首', parent: '上半身2', position: [0, 16.1, 0.4] },
    { name: '頭', parent: '首', position: [0, 16.9, 0.2] },
    { name: '両目', parent: '頭', position: [0, 18.3, -1.1] },
    { name: '下半身', parent: '腰', position: [0, 11.8, 0.2] },
  ];
  for (const s of [1, -1] as const) {
    const L = s === 1 ? '左' : '右';
    const arm: Vec3 = [ARM[0] * s, ARM[1], ARM[2]];
    const wrist = side(s, [5.9, 11.8, 0.3]);
    defs.push(
      { name: `${L}目`, parent: '頭', position: side(s, [0.45, 18.1, -1.2]), append: ['両目', 1] },
      { name: `${L}肩`, parent: '上半身2', position: side(s, [0.35, 15.7, 0.4]) },
      { name: `${L}腕`, parent: `${L}肩`, position: side(s, [1.45, 15.5, 0.4]) },
      { name: `${L}腕捩`, parent: `${L}腕`, position: side(s, [2.7, 14.5, 0.4]) },
      { name: `${L}ひじ`, parent: `${L}腕捩`, position: side(s, [3.9, 13.55, 0.4]) },
      { name: `${L}手捩`, parent: `${L}ひじ`, position: side(s, [4.9, 12.7, 0.35]) },
      { name: `${L}手首`, parent: `${L}手捩`, position: wrist },
    );
    // Fingers fan out along Z (index toward the front, −Z); three joints each, 0.35 apart along the arm.
    const fingers: [string, number, number, number][] = [
      ['人指', 0.85, -0.32, 1],
      ['中指', 0.9, -0.1, 1],
      ['薬指', 0.85, 0.12, 1],
      ['小指', 0.72, 0.32, 1],
    ];
    for (const [f, reach, z, first] of fingers) {
      let p = add(add(wrist, arm, reach), [0, 0, z]);
      let parent = `${L}手首`;
      for (let j = first; j < first + 3; j++) {
        const name = `${L}${f}${'０１２３'[j]}`;
        defs.push({ name, parent, position: p });
        parent = name;
        p = add(p, arm, 0.36);
      }
    }
    // Thumb: 親指０–２ toward the front and down.
    const thumbDir: Vec3 = [arm[0] * 0.6, -0.45, -0.65];
    let p = add(add(wrist, arm, 0.2), [0, -0.15, -0.3]);
    let parent = `${L}手首`;
    for (let j = 0; j < 3; j++) {
      const name = `${L}親指${'０１２'[j]}`;
      defs.push({ name, parent, position: p });
      parent = name;
      p = add(p, thumbDir, 0.45);
    }
    defs.push(
      { name: `${L}足`, parent: '下半身', position: side(s, [0.95, 10.4, 0.1]) },
      { name: `${L}ひざ`, parent: `${L}足`, position: side(s, [0.95, 5.9, -0.15]) },
      { name: `${L}足首`, parent: `${L}ひざ`, position: side(s, [0.95, 1.3, 0.35]) },
      { name: `${L}つま先`, parent: `${L}足首`, position: side(s, [0.95, 0.15, -1.2]) },
    );
  }
  // IK bones after the legs (transform order = index order): leg IK, then toe IK.
  for (const s of [1, -1] as const) {
    const L = s === 1 ? '左' : '右';
    defs.push({ name: `${L}足ＩＫ`, parent: '全ての親', position: side(s, [0.95, 1.3, 0.35]), ik: { target: `${L}足首`, links: [`${L}ひざ`, `${L}足`], loop: 40, limit: 2 } });
  }
  for (const s of [1, -1] as const) {
    const L = s === 1 ? '左' : '右';
    defs.push({ name: `${L}つま先ＩＫ`, parent: `${L}足ＩＫ`, position: side(s, [0.95, 0.15, -1.2]), ik: { target: `${L}つま先`, links: [`${L}足首`], loop: 3, limit: 4 } });
  }
  return defs;
}

const FIGURE_DEFS = buildDefs();

/** The figure's skeleton as model bone records (MMD coordinates). */
export function defaultFigureBones(): ModelBone[] {
  const index = new Map(FIGURE_DEFS.map((d, i) => [d.name, i]));
  return FIGURE_DEFS.map((d) => {
    let flags = BONE_FLAG.ROTATABLE | BONE_FLAG.VISIBLE | BONE_FLAG.ENABLED;
    if (d.parent === null || d.name === 'センター' || d.name === 'グルーブ' || d.ik) flags |= BONE_FLAG.TRANSLATABLE;
    if (d.append) flags |= BONE_FLAG.APPEND_ROTATE;
    if (d.ik) flags |= BONE_FLAG.IK;
    return {
      name: d.name,
      nameEn: '',
      position: [...d.position] as Vec3,
      parent: d.parent === null ? -1 : index.get(d.parent)!,
      layer: 0,
      flags,
      tailBone: -1,
      tailOffset: [0, 0, 0],
      appendParent: d.append ? index.get(d.append[0])! : -1,
      appendRatio: d.append ? d.append[1] : 0,
      fixedAxis: null,
      ik: d.ik
        ? {
            target: index.get(d.ik.target)!,
            loopCount: d.ik.loop,
            limitAngle: d.ik.limit,
            links: d.ik.links.map((n) => ({ bone: index.get(n)!, limits: n.endsWith('ひざ') ? { min: [...KNEE_LIMITS.min] as Vec3, max: [...KNEE_LIMITS.max] as Vec3 } : null })),
          }
        : null,
    };
  });
}

/** A solid part of the figure: a capsule from a bone's joint to `to` (MMD coordinates), or a sphere. */
export interface FigurePart {
  bone: string;
  to: Vec3;
  radius: number;
  kind: 'capsule' | 'sphere' | 'box';
  color: number;
}

/** Colours: the figure's left side is tinted warmer than its right, so mirroring mistakes show. */
const SKIN = 0xe8c7a8, LEFT = 0xd9734e, RIGHT = 0x4e8fd9, BODY = 0x5a6272, HEAD = 0xf0d6bd, DARK = 0x353b47;

/** The limbs drawn on the default figure. */
export function defaultFigureParts(): FigurePart[] {
  const pos = new Map(FIGURE_DEFS.map((d) => [d.name, d.position]));
  const at = (n: string) => pos.get(n)!;
  const parts: FigurePart[] = [
    { bone: '下半身', to: [0, 10.2, 0.15], radius: 1.25, kind: 'capsule', color: DARK },
    { bone: '上半身', to: at('上半身2'), radius: 1.15, kind: 'capsule', color: BODY },
    { bone: '上半身2', to: [0, 15.3, 0.35], radius: 1.3, kind: 'capsule', color: BODY },
    { bone: '首', to: at('頭'), radius: 0.4, kind: 'capsule', color: SKIN },
    { bone: '頭', to: [0, 18.4, 0], radius: 1.55, kind: 'sphere', color: HEAD },
  ];
  for (const L of ['左', '右']) {
    const c = L === '左' ? LEFT : RIGHT;
    parts.push(
      { bone: `${L}目`, to: add(at(`${L}目`), [0, 0, -0.25]), radius: 0.22, kind: 'sphere', color: 0x222222 },
      { bone: `${L}肩`, to: at(`${L}腕`), radius: 0.55, kind: 'capsule', color: BODY },
      { bone: `${L}腕`, to: at(`${L}腕捩`), radius: 0.5, kind: 'capsule', color: c },
      { bone: `${L}腕捩`, to: at(`${L}ひじ`), radius: 0.45, kind: 'capsule', color: c },
      { bone: `${L}ひじ`, to: at(`${L}手捩`), radius: 0.4, kind: 'capsule', color: SKIN },
      { bone: `${L}手捩`, to: at(`${L}手首`), radius: 0.36, kind: 'capsule', color: SKIN },
      { bone: `${L}手首`, to: at(`${L}中指１`), radius: 0.38, kind: 'box', color: SKIN },
      { bone: `${L}足`, to: at(`${L}ひざ`), radius: 0.68, kind: 'capsule', color: c },
      { bone: `${L}ひざ`, to: at(`${L}足首`), radius: 0.55, kind: 'capsule', color: c },
      { bone: `${L}足首`, to: at(`${L}つま先`), radius: 0.42, kind: 'box', color: DARK },
    );
    for (const f of ['親指０', '親指１', '親指２', '人指１', '人指２', '人指３', '中指１', '中指２', '中指３', '薬指１', '薬指２', '薬指３', '小指１', '小指２', '小指３']) {
      const name = `${L}${f}`;
      const next = FIGURE_DEFS.find((d) => d.parent === name);
      const here = at(name);
      const prev = at(FIGURE_DEFS.find((d) => d.name === name)!.parent!);
      // Last joint: extend by the previous segment's length.
      const to = next ? next.position : add(here, [here[0] - prev[0], here[1] - prev[1], here[2] - prev[2]], 0.8);
      parts.push({ bone: name, to, radius: f.startsWith('親指') ? 0.13 : 0.11, kind: 'capsule', color: SKIN });
    }
  }
  return parts;
}

/** The English name the built-in figure carries (standardFigureModel): how a retarget knows its source is the standard skeleton. */
export const STANDARD_FIGURE_NAME_EN = 'standard MMD skeleton';

/** Whether `m` is the built-in standard skeleton (this file's model: no name, no mesh, no morphs). */
export function isStandardFigure(m: Pick<ModelData, 'name' | 'nameEn' | 'vertexCount' | 'morphs'>): boolean {
  return m.name === '' && m.nameEn === STANDARD_FIGURE_NAME_EN && m.vertexCount === 0 && m.morphs.length === 0;
}

/**
 * The figure's skeleton as a model: its bones and nothing else (no mesh, morphs or physics). Its name is
 * empty, so a motion imported onto it names no model in its header (the model name a VMD carries): it is
 * for any model, and the retarget offer, which compares that name with the actor's model, stays quiet.
 */
export function standardFigureModel(): ModelData {
  return {
    format: 'pmx', version: 2, name: '', nameEn: STANDARD_FIGURE_NAME_EN, comment: '', commentEn: '', vertexCount: 0,
    positions: new Float32Array(0), normals: new Float32Array(0), uvs: new Float32Array(0), skinIndices: new Uint32Array(0),
    skinWeights: new Float32Array(0), deform: new Uint8Array(0), edgeScales: new Float32Array(0), indices: new Uint32Array(0),
    textures: [], materials: [], bones: defaultFigureBones(), morphs: [], rigidBodyCount: 0, jointCount: 0, rigidBodies: [],
    joints: [], softBodies: [], physicsError: null,
  };
}
