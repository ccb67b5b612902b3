/**
 * What retargeting measures on a model's rest pose (MMD stands every model on the ground plane y = 0):
 * the leg length (hip height: the rest height of the leg bones 左足/右足 above the ground) and the rest
 * direction of each arm (腕 → ひじ), whose difference between two models (A-pose against T-pose) is
 * compensated. Nothing here is a fixed table of positions: every figure comes from the model's bones.
 */
import type { ModelBone } from '../pmx/model-types';
import { BoneNameIndex } from './bone-names';
import { qangle, rotationBetween } from '../skeleton/quat';

export type ArmSide = 'left' | 'right';

/** The rest measurements of one model. */
export interface RestMeasures {
  /** Hip height above the ground: the mean rest Y of the two leg bones (足), or of the one found; null without legs. */
  legLength: number | null;
  /** Rest direction 腕 → ひじ per side (model space, not normalised), null where the model lacks either bone. */
  arm: Record<ArmSide, [number, number, number] | null>;
}

function pos(bones: readonly ModelBone[], i: number): [number, number, number] {
  const p = bones[i].position;
  return [p[0], p[1], p[2]];
}

/** Measures a model's bones at rest. */
export function measureRest(bones: readonly ModelBone[]): RestMeasures {
  const idx = new BoneNameIndex(bones);
  const legs = ['左足', '右足'].map((n) => idx.find(n)).filter((i) => i >= 0);
  const heights = legs.map((i) => bones[i].position[1]).filter((y) => Number.isFinite(y) && y > 0);
  const legLength = heights.length ? heights.reduce((a, b) => a + b, 0) / heights.length : null;
  const arm = (side: '左' | '右'): [number, number, number] | null => {
    const a = idx.find(side + '腕'), e = idx.find(side + 'ひじ');
    if (a < 0 || e < 0) return null;
    const pa = pos(bones, a), pe = pos(bones, e);
    const d: [number, number, number] = [pe[0] - pa[0], pe[1] - pa[1], pe[2] - pa[2]];
    return Math.hypot(d[0], d[1], d[2]) > 1e-9 ? d : null;
  };
  return { legLength, arm: { left: arm('左'), right: arm('右') } };
}

/** Below this the two arms' rest directions count as the same (no compensation, tracks stay as they are). */
export const ARM_COMPENSATION_MIN_RAD = (0.1 * Math.PI) / 180;

/**
 * The rotation C that turns the target's rest arm direction onto the source's (so that the target's arm,
 * posed as W_source ⊗ C, points where the source's pointed); identity when either side is unknown or the
 * difference is under ARM_COMPENSATION_MIN_RAD.
 */
export function armCompensation(source: RestMeasures, target: RestMeasures, side: ArmSide): [number, number, number, number] {
  const s = source.arm[side], t = target.arm[side];
  if (!s || !t) return [0, 0, 0, 1];
  const c = rotationBetween(t, s);
  return qangle(c) < ARM_COMPENSATION_MIN_RAD ? [0, 0, 0, 1] : c;
}
