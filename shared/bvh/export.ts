/**
 * VMD → BVH: the motion as the model plays it (take.ts: append and IK solved) on the model's humanoid
 * bones, named as VRM humanoid bones (hips, spine, …, leftUpperArm; import-bvh maps them back with its
 * built-in VRM table). Rest pose = the model's rest (offsets in model units), right-handed (Z mirrored
 * from MMD: quat.ts), 30 fps. The hips carry Xposition Yposition Zposition: their world position; their
 * OFFSET is 0 0 0, as in CMU's files, so that both readings of a root's position agree: Blender's (the
 * channels replace the OFFSET: bvh-pose.ts) and three.js's BVHLoader (the channels are added to it; with
 * the rest hips as the OFFSET it put the hips at twice their height). Every joint Zrotation Xrotation
 * Yrotation in degrees; chain ends (head, hands, feet) get an End Site at the bone's tail.
 */
import type { ModelData } from '../pmx/model-types';
import type { CodecError, Outcome } from '../vmd/errors';
import type { VmdDocument } from '../vmd/vmd-document';
import { fromMmdQuat, fromMmdVec, qconj, qmul, quatToEuler } from './quat';
import { humanoidTake, type HumanoidTake } from './take';
import { stageMotionRefusal } from '../vmd/inspect';

export interface BvhExportReport {
  frames: number;
  joints: string[];
  missingBones: string[];
  /** Bones the motion moves that reach no joint (take.ts HumanoidTake.leftOut). */
  leftOutBones: string[];
}

/** Numbers as BVH writers print them: fixed, six decimals, no "-0". */
function num(x: number): string {
  const s = x.toFixed(6);
  return s === '-0.000000' ? '0.000000' : s;
}

const ZXY = [2, 0, 1] as const;
const DEG = 180 / Math.PI;

/** BVH text for a take. */
export function takeToBvh(t: HumanoidTake): string {
  const n = t.parts.length;
  const children: number[][] = t.parts.map(() => []);
  t.parent.forEach((p, k) => p >= 0 && children[p].push(k));
  const lines: string[] = ['HIERARCHY'];
  const order: number[] = [];
  const write = (k: number, depth: number) => {
    const ind = '\t'.repeat(depth);
    const p = t.parent[k];
    // The root's rest position is its channels' business (see above); the others are offsets from their parent.
    const off = p < 0 ? [0, 0, 0] : fromMmdVec([0, 1, 2].map((c) => t.restPosition[k][c] - t.restPosition[p][c]));
    lines.push(`${ind}${p < 0 ? 'ROOT' : 'JOINT'} ${t.parts[k]}`, `${ind}{`, `${ind}\tOFFSET ${off.map(num).join(' ')}`);
    lines.push(`${ind}\tCHANNELS ${p < 0 ? '6 Xposition Yposition Zposition ' : '3 '}Zrotation Xrotation Yrotation`);
    order.push(k);
    for (const c of children[k]) write(c, depth + 1);
    const tip = t.tip[k];
    if (tip && children[k].length === 0) {
      const e = fromMmdVec([0, 1, 2].map((c) => tip[c] - t.restPosition[k][c]));
      lines.push(`${ind}\tEnd Site`, `${ind}\t{`, `${ind}\t\tOFFSET ${e.map(num).join(' ')}`, `${ind}\t}`);
    }
    lines.push(`${ind}}`);
  };
  write(t.parent.indexOf(-1), 0);
  lines.push('MOTION', `Frames: ${t.frames}`, `Frame Time: ${num(1 / 30)}`);
  const hipsK = t.parent.indexOf(-1);
  for (let f = 0; f < t.frames; f++) {
    const row: string[] = [];
    for (const k of order) {
      const w = t.worldRotation.subarray((f * n + k) * 4, (f * n + k) * 4 + 4);
      const p = t.parent[k];
      const local = p < 0 ? Array.from(w) : qmul(qconj(t.worldRotation.subarray((f * n + p) * 4, (f * n + p) * 4 + 4)), w);
      if (k === hipsK) {
        const hp = t.hipsPosition.subarray(3 * f, 3 * f + 3);
        row.push(...fromMmdVec([hp[0], hp[1], hp[2]]).map(num));
      }
      const e = quatToEuler(fromMmdQuat(local), ZXY);
      row.push(num(e[2] * DEG), num(e[0] * DEG), num(e[1] * DEG));
    }
    lines.push(row.join(' '));
  }
  return lines.join('\n') + '\n';
}

/** VMD played on `model` → BVH text. */
export function exportBvh(doc: VmdDocument, model: ModelData): Outcome<{ text: string; report: BvhExportReport }, CodecError> {
  // A camera or light motion would be the figure standing still: refused, not written.
  const stage = stageMotionRefusal(doc, 'export-bvh');
  if (stage) return { ok: false, error: stage };
  const t = humanoidTake(doc, model);
  if (!t.ok) return t;
  return { ok: true, value: { text: takeToBvh(t.value), report: { frames: t.value.frames, joints: t.value.parts.slice(), missingBones: t.value.missingBones, leftOutBones: t.value.leftOut } } };
}
