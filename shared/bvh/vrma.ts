/**
 * VRM Animation (VRMC_vrm_animation 1.0) ↔ MMD motion, over a plain description of the file
 * (`VrmaData`: nodes, the humanoid and expression tables, animation tracks). The glTF container is
 * read and written by electron/vrma/vrma-io.ts with @gltf-transform/core; shared/ holds no glTF library
 * (its tsconfig has neither DOM nor Node types, which the libraries' own types need).
 *
 * In: the VRMA's node tree becomes a capture skeleton (a BvhMotion sampled at 60 fps: rotations as
 * Z-X-Y Euler channels, the hips' translation as position channels; glTF is right-handed with the
 * character facing +Z, as BVH), its humanoid table names the parts, and the same retargeting and
 * fitting as BVH import apply (import.ts). Expressions (a node's translation X is the weight) become
 * morph keys through the expression table.
 *
 * Out: the motion as the model plays it (take.ts), the humanoid bones as nodes. The VRMA's rest pose is
 * a T-pose, as VRM's normalized humanoid expects (arms along ±X; the rest of the body as the model's
 * rest): each part's node turns by C = the shortest rotation from its T-pose segment onto the model's
 * rest segment, so the node's world rotation at t is Q(t)·C and every segment points as on the model.
 * Positions in meters: MMD units × 0.08.
 */
import type { ModelData } from '../pmx/model-types';
import type { CodecError, Diagnostic, Outcome } from '../vmd/errors';
import type { Quat, Vec3 } from '../vmd/records';
import type { VmdDocument } from '../vmd/vmd-document';
import type { BvhChannel, BvhJoint, BvhMotion } from './bvh-reader';
import { isFingerPart, isHumanoidPart, type HumanoidPart } from './humanoid';
import { importBvh, type ImportOptions, type ImportReport } from './import';
import { fromMmdQuat, fromMmdVec, fromTo, len, qconj, qmul, qnormalize, quatToEuler, rotate, sub } from './quat';
import { humanoidTake } from './take';
import { stageMotionRefusal } from '../vmd/inspect';
import { count, plural, agree } from '../i18n/plural';
import { warn } from '../edit-core/report';

export interface VrmaNode {
  name: string;
  /** Parent node index, −1 for a root. */
  parent: number;
  /** Rest translation and rotation (glTF: meters, right-handed). */
  translation: Vec3;
  rotation: Quat;
}

export interface VrmaTrack {
  node: number;
  path: 'rotation' | 'translation';
  interpolation: 'LINEAR' | 'STEP' | 'CUBICSPLINE';
  /** Seconds. */
  times: Float32Array;
  /** 4 (rotation) or 3 (translation) per time; CUBICSPLINE: in-tangent, value, out-tangent per time. */
  values: Float32Array;
}

export interface VrmaData {
  nodes: VrmaNode[];
  /** Humanoid bone name → node index. */
  humanBones: Record<string, number>;
  /** Expression name (preset or custom) → node index. */
  expressions: Record<string, number>;
  tracks: VrmaTrack[];
}

/** VRM expression → MMD morph: the usual names of MMD models' morphs. */
export const DEFAULT_EXPRESSION_MAP: Readonly<Record<string, string>> = {
  aa: 'あ', ih: 'い', ou: 'う', ee: 'え', oh: 'お',
  blink: 'まばたき', blinkLeft: 'ウィンク', blinkRight: 'ウィンク右',
  happy: '笑い', angry: '怒り', sad: '困る', relaxed: 'なごみ', surprised: 'びっくり',
};

/**
 * Other names MMD models give the default morph of an expression, tried in order where the table's own is
 * not there (the motion keys none by it on export, the model lacks it on import): あにまさ式-derived models
 * (wavefile's) have えー and no え, Gene has both, ああ/いい as wider あ/い. Shapes that are not the vowel
 * (ワ, ∧, □, ω: mouth shapes a motion keys beside the vowels) are not taken for one.
 */
export const EXPRESSION_VARIANTS: Readonly<Record<string, readonly string[]>> = { aa: ['ああ'], ih: ['いい'], ee: ['えー'] };

/** The built-in morph of an expression on a model: the table's default, else the first variant the model has (as vrmaToMotion picks). */
export function defaultMorphOf(expr: string, modelHas: (morph: string) => boolean): string | undefined {
  const d = DEFAULT_EXPRESSION_MAP[expr];
  if (d === undefined || modelHas(d)) return d;
  return (EXPRESSION_VARIANTS[expr] ?? []).find(modelHas) ?? d;
}

/** The morph names an expression may go by: the table's, then, where that is the default, its variants. */
function morphCandidates(table: ReadonlyMap<string, string>, expr: string): string[] {
  const m = table.get(expr);
  if (m === undefined) return [];
  return m === DEFAULT_EXPRESSION_MAP[expr] ? [m, ...(EXPRESSION_VARIANTS[expr] ?? [])] : [m];
}

/** The expression table with a map file's "morphs" rows over it (expression → morph; "-" or "" drops one). */
export function parseExpressionMap(rows?: ReadonlyMap<string, string>): Map<string, string> {
  const t = new Map(Object.entries(DEFAULT_EXPRESSION_MAP));
  if (rows) for (const [k, v] of rows) (v.trim() === '-' || v.trim() === '' ? t.delete(k) : t.set(k, v.trim()));
  return t;
}

/** Meters per MMD unit (MMD's 1 unit ≈ 8 cm). */
export const METERS_PER_UNIT = 0.08;
/** Rate the VRMA's tracks are sampled at before fitting: 30 fps when every key time is on MMD's frame grid, else 60. */
function sampleRate(v: VrmaData): number {
  for (const t of v.tracks) for (const x of t.times) if (Math.abs(x * 30 - Math.round(x * 30)) > 1e-3) return 60;
  return 30;
}

function sampleTrack(t: VrmaTrack, time: number, out: number[]): void {
  const n = t.path === 'rotation' ? 4 : 3;
  const cubic = t.interpolation === 'CUBICSPLINE';
  const at = (i: number, c: number) => t.values[(cubic ? (3 * i + 1) * n : i * n) + c];
  const T = t.times;
  let i = 0;
  if (time <= T[0]) i = -1;
  else {
    // Binary search: last i with T[i] <= time.
    let lo = 0, hi = T.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (T[mid] <= time) lo = mid;
      else hi = mid - 1;
    }
    i = lo;
  }
  if (i < 0 || i >= T.length - 1 || t.interpolation === 'STEP') {
    const k = Math.max(0, i);
    for (let c = 0; c < n; c++) out[c] = at(k, c);
    return;
  }
  const u = (time - T[i]) / (T[i + 1] - T[i] || 1);
  if (n === 3) {
    for (let c = 0; c < 3; c++) out[c] = at(i, c) + (at(i + 1, c) - at(i, c)) * u;
    return;
  }
  // Rotation: slerp, shortest way (CUBICSPLINE's tangents are not followed: its values, slerped).
  let bx = at(i + 1, 0), by = at(i + 1, 1), bz = at(i + 1, 2), bw = at(i + 1, 3);
  const ax = at(i, 0), ay = at(i, 1), az = at(i, 2), aw = at(i, 3);
  let d = ax * bx + ay * by + az * bz + aw * bw;
  if (d < 0) {
    bx = -bx; by = -by; bz = -bz; bw = -bw; d = -d;
  }
  let s0 = 1 - u, s1 = u;
  if (d < 0.9995) {
    const th = Math.acos(Math.min(1, d));
    s0 = Math.sin((1 - u) * th) / Math.sin(th);
    s1 = Math.sin(u * th) / Math.sin(th);
  }
  const q: Quat = [s0 * ax + s1 * bx, s0 * ay + s1 * by, s0 * az + s1 * bz, s0 * aw + s1 * bw];
  qnormalize(q);
  for (let c = 0; c < 4; c++) out[c] = q[c];
}

const ZXY: BvhChannel[] = ['Zrotation', 'Xrotation', 'Yrotation'];
const POS: BvhChannel[] = ['Xposition', 'Yposition', 'Zposition'];

/** The VRMA as a capture skeleton: nodes parents first, sampled at 60 fps. */
export function vrmaAsCapture(v: VrmaData): Outcome<{ motion: BvhMotion; parts: (HumanoidPart | null)[]; nodeJoint: number[]; frames: number; rate: number }, CodecError> {
  const bad = (message: string) => ({ ok: false as const, error: { code: 'E_VRMA_FORMAT' as const, message } });
  if (v.humanBones.hips === undefined) return bad('the VRM Animation has no hips in its humanoid');
  // Parents first.
  const order: number[] = [];
  const placed = new Uint8Array(v.nodes.length);
  const children: number[][] = v.nodes.map(() => []);
  v.nodes.forEach((n, i) => (n.parent >= 0 ? children[n.parent].push(i) : undefined));
  const visit = (i: number, depth: number) => {
    if (placed[i] || depth > 512) return;
    placed[i] = 1;
    order.push(i);
    for (const c of children[i]) visit(c, depth + 1);
  };
  v.nodes.forEach((n, i) => n.parent < 0 && visit(i, 0));
  const nodeJoint = new Array<number>(v.nodes.length).fill(-1);
  order.forEach((nd, j) => (nodeJoint[nd] = j));
  const hasTranslation = new Set(v.tracks.filter((t) => t.path === 'translation').map((t) => t.node));
  // Only the hips' translation moves a body part; other translation tracks (expressions) are not joints' motion.
  const hipsNode = v.humanBones.hips;
  let cc = 0;
  const joints: BvhJoint[] = order.map((nd) => {
    const N = v.nodes[nd];
    const channels = nd === hipsNode && hasTranslation.has(nd) ? [...POS, ...ZXY] : ZXY.slice();
    const j: BvhJoint = { name: N.name || `node${nd}`, parent: N.parent >= 0 ? nodeJoint[N.parent] : -1, offset: [N.translation[0], N.translation[1], N.translation[2]], channels, channelStart: cc, endSite: false, line: 0 };
    cc += channels.length;
    return j;
  });
  const SAMPLE_FPS = sampleRate(v);
  let duration = 0;
  for (const t of v.tracks) if (t.times.length) duration = Math.max(duration, t.times[t.times.length - 1]);
  const frames = Math.floor(duration * SAMPLE_FPS + 1e-3) + 1;
  if (frames * cc > 10_000_000) return { ok: false, error: { code: 'E_BVH_TOO_LARGE', message: `${frames} frames of ${cc} channels is more than the importer reads` } };
  const values = new Float64Array(frames * cc);
  const rot = new Map<number, VrmaTrack>(), tr = new Map<number, VrmaTrack>();
  for (const t of v.tracks) (t.path === 'rotation' ? rot : tr).set(t.node, t);
  const q = [0, 0, 0, 1], p = [0, 0, 0];
  for (let f = 0; f < frames; f++) {
    const time = f / SAMPLE_FPS;
    order.forEach((nd, j) => {
      const J = joints[j];
      let o = f * cc + J.channelStart;
      if (J.channels.length === 6) {
        // glTF's translation replaces the node's, as a BVH joint's position channels replace its OFFSET (bvh-pose.ts).
        sampleTrack(tr.get(nd)!, time, p);
        for (let c = 0; c < 3; c++) values[o++] = p[c];
      }
      const rt = rot.get(nd);
      if (rt) sampleTrack(rt, time, q);
      else for (let c = 0; c < 4; c++) q[c] = v.nodes[nd].rotation[c];
      const e = quatToEuler(q, [2, 0, 1]);
      values[o] = (e[2] * 180) / Math.PI;
      values[o + 1] = (e[0] * 180) / Math.PI;
      values[o + 2] = (e[1] * 180) / Math.PI;
    });
  }
  const parts: (HumanoidPart | null)[] = joints.map(() => null);
  for (const [name, nd] of Object.entries(v.humanBones)) if (isHumanoidPart(name) && nodeJoint[nd] >= 0) parts[nodeJoint[nd]] = name;
  // The root above the hips drives the model: it goes first.
  let hr = nodeJoint[hipsNode];
  while (hr >= 0 && joints[hr].parent >= 0) hr = joints[hr].parent;
  const roots = [hr, ...joints.flatMap((J, j) => (J.parent < 0 && j !== hr ? [j] : []))];
  return { ok: true, value: { motion: { joints, roots, channelCount: cc, frameCount: frames, frameTime: 1 / SAMPLE_FPS, values }, parts, nodeJoint, frames, rate: SAMPLE_FPS } };
}

export type VrmaImportOptions = Omit<ImportOptions, 'parts' | 'morphs' | 'map' | 'fps'> & { expressions?: Map<string, string> };

/** VRMA → VMD on a model (bones as import-bvh, expressions → morph keys). */
export function vrmaToMotion(v: VrmaData, model: ModelData, opts: VrmaImportOptions = {}): Outcome<{ doc: VmdDocument; report: ImportReport & { expressions: { expression: string; morph: string; inModel: boolean }[] }; notes: Diagnostic[] }, CodecError> {
  const cap = vrmaAsCapture(v);
  if (!cap.ok) return cap;
  const { motion, parts, frames, rate } = cap.value;
  // The hips must be the first root (the one that drives the model).
  const table = opts.expressions ?? parseExpressionMap();
  const modelMorphs = new Set(model.morphs.map((m) => m.name));
  const morphs: { name: string; weights: Float64Array }[] = [];
  const expressions: { expression: string; morph: string; inModel: boolean }[] = [];
  const trackOf = new Map(v.tracks.filter((t) => t.path === 'translation').map((t) => [t.node, t]));
  const p = [0, 0, 0];
  for (const [name, nd] of Object.entries(v.expressions)) {
    const cands = morphCandidates(table, name);
    const morph = cands.find((c) => modelMorphs.has(c)) ?? cands[0] ?? (modelMorphs.has(name) ? name : undefined);
    const t = trackOf.get(nd);
    if (!morph || !t) continue;
    const w = new Float64Array(frames);
    for (let f = 0; f < frames; f++) {
      sampleTrack(t, f / rate, p);
      w[f] = Math.max(0, Math.min(1, p[0]));
    }
    morphs.push({ name: morph, weights: w });
    expressions.push({ expression: name, morph, inModel: modelMorphs.has(morph) });
  }
  const r = importBvh(motion, model, { ...opts, parts, morphs });
  if (!r.ok) return r;
  // Expression nodes and chain-end helpers are not joints anyone would map.
  const notJoints = new Set(Object.values(v.expressions).map((nd) => v.nodes[nd].name));
  const unmappedJoints = r.value.report.unmappedJoints.filter((n) => !notJoints.has(n.replace(/ \(root \d+\)$/, '')) && !n.endsWith('_tip'));
  // A morph the model lacks is keyed still (the motion may go to another model), and said: a map row's
  // typo would otherwise only show as a face that does not move. Not where the model has no morphs at all
  // (the standard skeleton: the motion is made for whichever model plays it).
  const lacking = model.morphs.length ? expressions.filter((e) => !e.inModel) : [];
  const coded = { warnings: [...r.value.report.warnings], warningCodes: [...r.value.report.warningCodes] };
  if (lacking.length) {
    const list = lacking.map((e) => `${e.expression} → ${e.morph}`).join(', ');
    warn(coded, 'W_VRMA_EXPRESSIONS_LACKING', `expressions whose morph the model lacks (keyed all the same): ${list}`, { list });
  }
  return { ok: true, value: { doc: r.value.doc, report: { ...r.value.report, unmappedJoints, expressions, ...coded }, notes: r.value.notes } };
}

export interface VrmaExportReport {
  frames: number;
  bones: string[];
  expressions: { expression: string; morph: string }[];
  missingBones: string[];
  /** Bones the motion moves that reach no humanoid bone (take.ts HumanoidTake.leftOut). */
  leftOutBones: string[];
  /** Morphs the motion moves (a weight above 0) that no expression of the table took. */
  unusedMorphs: string[];
}

/** What export-vrma says of the morphs no expression took (null: none; the first 12 named). */
export function unusedMorphsWarning(names: readonly string[]): Diagnostic | null {
  if (!names.length) return null;
  const n = names.length, shown = names.slice(0, 12).join(' '), more = n - 12;
  const message = `${plural(count(n), 'keyed morph')} ${agree(n, 'has', 'have')} no expression in the table and ${agree(n, 'was', 'were')} left out (a --map file's "morphs" section adds rows): ${shown}${more > 0 ? ` and ${more} more` : ''}`;
  return more > 0 ? { code: 'W_EXPORT_MORPHS_LEFT_OUT_MORE', message, params: { n, names: shown, more } } : { code: 'W_EXPORT_MORPHS_LEFT_OUT', message, params: { n, names: shown } };
}

const ARM_CHAIN: Readonly<Record<string, 1 | -1>> = { leftUpperArm: 1, leftLowerArm: 1, leftHand: 1, rightUpperArm: -1, rightLowerArm: -1, rightHand: -1 };

/** VMD played on a model → VrmaData (T-pose rest, humanoid rotations and hips translation, expressions). */
export function motionToVrma(doc: VmdDocument, model: ModelData, opts: { expressions?: Map<string, string> } = {}): Outcome<{ vrma: VrmaData; report: VrmaExportReport }, CodecError> {
  // A camera or light motion would be the figure standing still: refused, not written.
  const stage = stageMotionRefusal(doc, 'export-vrma');
  if (stage) return { ok: false, error: stage };
  const tk = humanoidTake(doc, model);
  if (!tk.ok) return tk;
  const t = tk.value;
  const n = t.parts.length;
  // T-pose rest (MMD coordinates): the arm chain's offsets laid along ±X, keeping their lengths.
  const offset = t.parts.map((_, k): Vec3 => (t.parent[k] < 0 ? t.restPosition[k] : sub(t.restPosition[k], t.restPosition[t.parent[k]])));
  const tOffset = offset.map((o, k): Vec3 => (ARM_CHAIN[t.parts[k]] ? [ARM_CHAIN[t.parts[k]] * len(o), 0, 0] : o));
  const tPos: Vec3[] = [];
  t.parts.forEach((_, k) => (tPos[k] = t.parent[k] < 0 ? tOffset[k] : [0, 1, 2].map((c) => tPos[t.parent[k]][c] + tOffset[k][c]) as Vec3));
  // Segment ends per part: its first child along the chain (the take's tree), or its tip.
  const children: number[][] = t.parts.map(() => []);
  t.parent.forEach((p, k) => p >= 0 && children[p].push(k));
  // A hand points at its middle finger's base (else the index finger's, else its tip: 手首's tail), as a reader
  // aligns it (retarget.ts SEGMENT_END): laid along ±X by its tip while the reader took the finger, Gene's
  // wrists came back from VMD → VRMA → VMD turned by 3° at every frame (the tip and the finger's base are
  // not on one line from the wrist), and the first index joints by 3° the other way.
  const segPref: Partial<Record<HumanoidPart, HumanoidPart[]>> = { hips: [], spine: ['chest', 'upperChest', 'neck'], chest: ['upperChest', 'neck'], upperChest: ['neck'], leftHand: ['leftMiddleProximal', 'leftIndexProximal'], rightHand: ['rightMiddleProximal', 'rightIndexProximal'] };
  // A part with no segment turns as its parent part does (parents come first), as a reader aligns it
  // (retarget.ts): a fingertip without a tail stays on its finger's line at rest.
  const C: Quat[] = [];
  t.parts.forEach((part, k) => {
    let e: Vec3 | null = null, d: Vec3 | null = null;
    const pref = segPref[part];
    const kids = pref ? pref.map((p) => t.parts.indexOf(p)).filter((c) => c >= 0) : children[k];
    if (kids.length) {
      e = sub(t.restPosition[kids[0]], t.restPosition[k]);
      // The hand's finger is laid out along ±X by the hand's own turn (below), not by its rest offset.
      const s = ARM_CHAIN[part];
      d = s && isFingerPart(t.parts[kids[0]]) ? [s * len(e), 0, 0] : sub(tPos[kids[0]], tPos[k]);
    } else if (t.tip[k]) {
      e = sub(t.tip[k]!, t.restPosition[k]);
      const s = ARM_CHAIN[part];
      d = s ? [s * len(e), 0, 0] : e;
    }
    C[k] = e && d && len(e) > 1e-9 ? fromTo(d, e) : t.parent[k] >= 0 ? C[t.parent[k]] : [0, 0, 0, 1];
  });
  // Fingers keep their shape against the hand: laid out turned as the hand is turned onto ±X (H, the
  // hand's C undone). Each finger's C is then the shortest turn from its laid-out segment onto the model's,
  // as a reader aligns segments (import.ts, three-vrm): not H itself, whose twist about a thumb that points
  // off the hand's line a reader cannot recover (a VMD → VRMA → VMD round trip turned 親指０ by 23°).
  const handTurn = (part: HumanoidPart): number => (isFingerPart(part) ? t.parts.indexOf(part.startsWith('left') ? 'leftHand' : 'rightHand') : -1);
  t.parts.forEach((part, k) => {
    const h = handTurn(part);
    if (h < 0) return;
    tOffset[k] = rotate(qconj(C[h]), offset[k]);
    const next = children[k][0];
    const e = next !== undefined ? sub(t.restPosition[next], t.restPosition[k]) : t.tip[k] ? sub(t.tip[k]!, t.restPosition[k]) : null;
    C[k] = e && len(e) > 1e-9 ? fromTo(rotate(qconj(C[h]), e), e) : C[t.parent[k]];
  });
  const nodes: VrmaNode[] = t.parts.map((part, k) => ({
    name: part,
    parent: t.parent[k],
    translation: fromMmdVec(tOffset[k]).map((x) => x * METERS_PER_UNIT) as Vec3,
    rotation: [0, 0, 0, 1],
  }));
  // Chain ends get a child node at their tip (not a humanoid bone): the segment a reader aligns them by.
  t.parts.forEach((part, k) => {
    const tip = t.tip[k];
    if (!tip || children[k].length) return;
    const o = sub(tip, t.restPosition[k]);
    const s = ARM_CHAIN[part];
    const h = handTurn(part);
    const to: Vec3 = s ? [s * len(o), 0, 0] : h >= 0 ? rotate(qconj(C[h]), o) : o;
    nodes.push({ name: `${part}_tip`, parent: k, translation: fromMmdVec(to).map((x) => x * METERS_PER_UNIT) as Vec3, rotation: [0, 0, 0, 1] });
  });
  const humanBones: Record<string, number> = {};
  t.parts.forEach((p, k) => (humanBones[p] = k));
  const times = new Float32Array(t.frames);
  for (let f = 0; f < t.frames; f++) times[f] = f / 30;
  const tracks: VrmaTrack[] = [];
  const world = new Float64Array(n * 4);
  const rotVals = t.parts.map(() => new Float32Array(t.frames * 4));
  for (let f = 0; f < t.frames; f++) {
    for (let k = 0; k < n; k++) world.set(qmul(t.worldRotation.subarray((f * n + k) * 4, (f * n + k) * 4 + 4), C[k]), 4 * k);
    for (let k = 0; k < n; k++) {
      const p = t.parent[k];
      const w = world.subarray(4 * k, 4 * k + 4);
      const local = p < 0 ? Array.from(w) : qmul(qconj(world.subarray(4 * p, 4 * p + 4)), w);
      const g = fromMmdQuat(local);
      // Keep consecutive values on one side (glTF slerps the short way anyway; smaller files compare better).
      if (f > 0) {
        const prev = rotVals[k].subarray((f - 1) * 4, f * 4);
        if (g[0] * prev[0] + g[1] * prev[1] + g[2] * prev[2] + g[3] * prev[3] < 0) for (let c = 0; c < 4; c++) g[c] = -g[c];
      }
      rotVals[k].set(g, f * 4);
    }
  }
  t.parts.forEach((_, k) => tracks.push({ node: k, path: 'rotation', interpolation: 'LINEAR', times, values: rotVals[k] }));
  const hipsK = t.parent.indexOf(-1);
  const hv = new Float32Array(t.frames * 3);
  for (let f = 0; f < t.frames; f++) hv.set(fromMmdVec(t.hipsPosition.subarray(3 * f, 3 * f + 3)).map((x) => x * METERS_PER_UNIT), 3 * f);
  tracks.push({ node: hipsK, path: 'translation', interpolation: 'LINEAR', times, values: hv });
  // Expressions: a node per expression whose morph the motion keys.
  const table = opts.expressions ?? parseExpressionMap();
  const expressions: Record<string, number> = {};
  const used: { expression: string; morph: string }[] = [];
  for (const expr of table.keys()) {
    const morph = morphCandidates(table, expr).find((c) => t.morphs.has(c));
    if (morph === undefined) continue;
    const w = t.morphs.get(morph)!;
    const k = nodes.length;
    nodes.push({ name: `Expression_${expr}`, parent: -1, translation: [0, 0, 0], rotation: [0, 0, 0, 1] });
    const vals = new Float32Array(t.frames * 3);
    for (let f = 0; f < t.frames; f++) vals[3 * f] = w[f];
    tracks.push({ node: k, path: 'translation', interpolation: 'LINEAR', times, values: vals });
    expressions[expr] = k;
    used.push({ expression: expr, morph });
  }
  // Morphs the motion moves that no expression took: said, as the bones left out are.
  const taken = new Set(used.map((u) => u.morph));
  const unusedMorphs = [...t.morphs].filter(([name, w]) => !taken.has(name) && w.some((x) => x > 1e-6)).map(([name]) => name);
  return { ok: true, value: { vrma: { nodes, humanBones, expressions, tracks }, report: { frames: t.frames, bones: t.parts.slice(), expressions: used, missingBones: t.missingBones, leftOutBones: t.leftOut, unusedMorphs } } };
}
