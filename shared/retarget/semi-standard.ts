/**
 * The standard MMD skeleton with the semi-standard bones a motion keys (MMD's 準標準ボーン, as the
 * semi-standard plugin adds them to a model): a motion made "for the standard skeleton" (retarget without
 * a source model) was made for a model that has them, and its keys of 足D, 肩P, 腰キャンセル or 足IK親
 * turn what that model shows. Added only where the motion keys them, so a motion without them is planned
 * as before (its plain tracks stay byte for byte).
 *
 * - 肩P above 肩 (at 肩), with 肩C below 肩 (at 腕) cancelling it (append rotation of 肩P, ratio −1): the
 *   shoulder turns, the arm keeps its world rotation and moves with the shoulder;
 * - 腰キャンセル左/右 above 足 (at 足), cancelling 腰 (append −1);
 * - 足D/ひざD/足首D beside 足/ひざ/足首 (at their rests, parent 腰キャンセル or 下半身), each adding its own
 *   key onto its base bone's (append +1), and 足先EX below 足首D (at つま先);
 * - 足IK親 above 足ＩＫ (on the floor below it, translatable).
 */
import { BONE_FLAG, type ModelBone } from '../pmx/model-types';
import type { Vec3 } from '../vmd/records';
import { canonicalBoneName } from './bone-names';

const ROT = BONE_FLAG.ROTATABLE | BONE_FLAG.VISIBLE | BONE_FLAG.ENABLED;

/**
 * `bones` (a standard skeleton) with the semi-standard bones that `trackNames` key and `bones` lack; the
 * same array when none is needed. Names are compared canonically (full/half width, 左/右 spellings).
 */
export function withSemiStandardBones(bones: ModelBone[], trackNames: readonly string[]): ModelBone[] {
  const keyed = new Set(trackNames.map(canonicalBoneName));
  const out = bones.map((b) => ({ ...b }));
  const idx = new Map<string, number>();
  out.forEach((b, i) => {
    const k = canonicalBoneName(b.name);
    if (!idx.has(k)) idx.set(k, i);
  });
  const has = (k: string) => idx.has(k);
  const at = (k: string) => idx.get(k) ?? -1;
  const add = (name: string, parent: number, position: Vec3, extra: Partial<ModelBone> = {}): number => {
    out.push({
      name, nameEn: '', position: [...position] as Vec3, parent, layer: 0, flags: ROT, tailBone: -1, tailOffset: [0, 0, 0],
      appendParent: -1, appendRatio: 0, fixedAxis: null, ik: null, ...extra,
    });
    idx.set(canonicalBoneName(name), out.length - 1);
    return out.length - 1;
  };
  const append = (from: number, ratio: number): Partial<ModelBone> => ({ flags: ROT | BONE_FLAG.APPEND_ROTATE, appendParent: from, appendRatio: ratio });
  let added = false;
  for (const L of ['左', '右']) {
    const shoulder = at(L + '肩'), arm = at(L + '腕');
    if (keyed.has(L + '肩p') && !has(L + '肩p') && shoulder >= 0 && arm >= 0 && out[arm].parent === shoulder) {
      const p = add(`${L}肩P`, out[shoulder].parent, out[shoulder].position);
      out[shoulder].parent = p;
      if (!has(L + '肩c')) out[arm].parent = add(`${L}肩C`, shoulder, out[arm].position, append(p, -1));
      added = true;
    }
    const leg = at(L + '足'), knee = at(L + 'ひざ'), ankle = at(L + '足首'), waist = at('腰');
    if (keyed.has('腰キャンセル' + L) || keyed.has(L + '腰キャンセル')) {
      if (!has(L + '腰キャンセル') && !has('腰キャンセル' + L) && leg >= 0 && waist >= 0) {
        out[leg].parent = add(`腰キャンセル${L}`, out[leg].parent, out[leg].position, append(waist, -1));
        added = true;
      }
    }
    const dKeyed = ['足d', 'ひざd', '足首d', '足先ex'].some((k) => keyed.has(L + k) && !has(L + k));
    if (dKeyed && leg >= 0 && knee >= 0 && ankle >= 0) {
      let d = at(L + '足d');
      if (d < 0) d = add(`${L}足D`, out[leg].parent, out[leg].position, append(leg, 1));
      let kd = at(L + 'ひざd');
      if (kd < 0) kd = add(`${L}ひざD`, d, out[knee].position, append(knee, 1));
      let ad = at(L + '足首d');
      if (ad < 0) ad = add(`${L}足首D`, kd, out[ankle].position, append(ankle, 1));
      const toe = at(L + 'つま先');
      if (!has(L + '足先ex') && toe >= 0) add(`${L}足先EX`, ad, out[toe].position);
      added = true;
    }
    const ik = at(L + '足ik');
    if (keyed.has(L + '足ik親') && !has(L + '足ik親') && ik >= 0) {
      const p = out[ik].position;
      out[ik].parent = add(`${L}足IK親`, out[ik].parent, [p[0], 0, p[2]], { flags: ROT | BONE_FLAG.TRANSLATABLE });
      added = true;
    }
  }
  return added ? out : bones;
}
