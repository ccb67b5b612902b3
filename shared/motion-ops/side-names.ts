/**
 * Left and right in names written in Latin letters, for mirror (mirror.ts): the naming styles of the models
 * and captures in use — ARKit's blend shapes (eyeBlinkLeft, mouthSmileRight, jawLeft), Blender's and
 * VRoid's suffixes and infixes (brow_sad_geo_L, eye_wink_geo_R, arm.L, ball_leaf_r, J_Bip_L_UpperArm),
 * PMX English names (arm_L, hair IK_L, L toe, R hair7), VRM humanoid bones (leftUpperArm) and BVH joints
 * (LeftArm, LeftUpLeg, CMU's LThumb and LHipJoint).
 *
 * The tokens a side is read from, each swapped with its other side in the same spelling:
 * - clear: the whole word Left/Right, left/right or LEFT/RIGHT (camelCase counts as a word boundary:
 *   eyeBlinkLeft, leftUpperArm; Leftover, Bright or Eyelid hold none), and a lone L/R (or l/r) set off by
 *   `_ . - ` or a space (arm_L, L_Arm, J_Bip_R_Hand, hair IK_L, L toe): never a letter inside a word;
 * - weak: a capital L/R glued to a camelCase word at the name's start (LThumb, RHipJoint) or end
 *   (mouthLowerDownL: a 15-byte VMD name cut from mouthLowerDownLeft), and, in a name that fills its
 *   field, a word cut by the field's end (eyeLookDownRigh, mouthUpperUpLef: VMD names are 15 bytes).
 *
 * A pair of names is swapped only when both make sense (sidePairs): each is the other's swap, and
 * - with a model, both names are the model's (names cut to the field, as a motion holds them); a pair
 *   neither of whose names is the model's is judged as without a model; one named by the model and the
 *   other not is no pair (its key would move onto a morph or bone of the model that it did not drive);
 * - without a model, a clear pair whose names both fit the field whole swaps on its own (a motion with only
 *   LeftArm keys gets RightArm keys); a weak or cut pair only when the motion holds both names.
 * The rule depends on the pair and on sets a mirror maps onto themselves, so mirroring twice gives every
 * name back. Names with 左 or 右 are left to the Japanese rule (swapLeftRight).
 */
import { fitNameField, sjisLength } from '../vmd/sjis';

/** Clear tokens, then the weak ones (group 1: weak). */
const TOKEN = new RegExp(
  [
    '(?<![A-Za-z])(?:LEFT|RIGHT)(?![A-Za-z])',
    '(?:Left|Right)(?![a-z])',
    '(?<![A-Za-z])(?:left|right)(?![a-z])',
    '(?<=[_.\\- ])[LRlr](?=[_.\\- ]|$)',
    '^[LRlr](?=[_.\\- ])',
    '(^[LR](?=[A-Z][a-z])|(?<=[a-z])[LR]$)',
  ].join('|'),
  'g',
);

/** A side word cut by the field's end, at the end of a name that fills it: its whole word. */
const CUT = /(?:(?<=[a-z0-9_.\- ]|^)(Le|Lef|Ri|Rig|Righ)|(?<![A-Za-z])(le|lef|ri|rig|righ|LE|LEF|RI|RIG|RIGH))$/;

const OTHER: Record<string, string> = {
  Left: 'Right', Right: 'Left', left: 'right', right: 'left', LEFT: 'RIGHT', RIGHT: 'LEFT', L: 'R', R: 'L', l: 'r', r: 'l',
};
const WHOLE: Record<string, string> = { le: 'left', ri: 'right', Le: 'Left', Ri: 'Right', LE: 'LEFT', RI: 'RIGHT' };

/**
 * The name with every side token swapped; null when it has none. `clear`: no weak token among them;
 * `end`: where the last token ends (a string index).
 */
export function swapSideWords(name: string): { name: string; clear: boolean; end: number } | null {
  let clear = true, end = -1;
  const out = name.replace(TOKEN, (m: string, weak: string | undefined, at: number) => {
    end = at + m.length;
    if (weak) clear = false;
    return OTHER[m];
  });
  return end >= 0 ? { name: out, clear, end } : null;
}

/** A name as a field of `length` bytes holds it (cut at a character boundary). */
export function cutName(name: string, length: number): string {
  return sjisLength(name) <= length ? name : fitNameField(name, length).written;
}

/**
 * The other side of `name` in a field of `length` bytes, or null when it names no side (or has 左/右).
 * `clean`: found by clear tokens only, and no cut can change the pair: neither name fills the field, or
 * both are as long and no token reaches the field's end (J_Bip_L_UpperAr, cut from J_Bip_L_UpperArm, is
 * J_Bip_R_UpperAr either way; arm_L filling the field may be a cut arm_Lower).
 */
export function otherSideName(name: string, length: number): { name: string; clean: boolean } | null {
  if (/[左右]/.test(name)) return null;
  const bytes = sjisLength(name);
  let full = name, cut = false;
  if (bytes >= length) {
    const m = CUT.exec(name);
    if (m) {
      const part = m[1] ?? m[2];
      full = name.slice(0, m.index) + WHOLE[part.slice(0, 2)];
      cut = true;
    }
  }
  const s = swapSideWords(full);
  if (!s) return null;
  const other = cutName(s.name, length);
  const otherBytes = sjisLength(s.name);
  const whole = (bytes < length && otherBytes < length) || (bytes === otherBytes && sjisLength(name.slice(0, s.end)) < length);
  return { name: other, clean: s.clear && !cut && whole };
}

/**
 * The pairs of names (Latin-letter sides) a mirror swaps in a name field of `length` bytes, as a map that
 * holds both directions: `names` are the motion's (for mirror paste, with the copied keys'), `model` the
 * model's where one is known (any length: cut to the field here). See the header for the rule.
 */
export function sidePairs(length: number, names: Iterable<string>, model: Iterable<string> = []): Map<string, string> {
  const have = new Set(names);
  const inModel = new Set<string>();
  for (const n of model) inModel.add(cutName(n, length));
  const out = new Map<string, string>();
  const seen = new Map<string, ReturnType<typeof otherSideName>>();
  const other = (n: string) => {
    if (!seen.has(n)) seen.set(n, otherSideName(n, length));
    return seen.get(n)!;
  };
  for (const a of new Set([...have, ...inModel])) {
    if (out.has(a)) continue;
    const to = other(a);
    if (!to || to.name === a || out.has(to.name)) continue;
    const back = other(to.name);
    if (!back || back.name !== a) continue;
    const b = to.name;
    const known = (inModel.has(a) ? 1 : 0) + (inModel.has(b) ? 1 : 0);
    const ok = known === 2 || (known === 0 && ((to.clean && back.clean) || (have.has(a) && have.has(b))));
    if (!ok) continue;
    out.set(a, b).set(b, a);
  }
  return out;
}
