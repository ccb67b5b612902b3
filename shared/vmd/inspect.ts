/** What a file is at a glance: kind, counts, length, names, camera cuts, oddities. */
import { BLOCK_KINDS, BONE, FPS, type BlockKind } from './vmd-layout';
import { absentBlocks, type IkBlock, type VmdDocument } from './vmd-document';
import { ikKey } from './records';
import { headerText } from './vmd-reader';
import { decodeName } from './sjis';
import type { CodecError, Diagnostic } from './errors';
import type { MotionTracks } from './tracks';
import type { VpdPose } from './vpd';
import { count, plural, agree } from '../i18n/plural';

export type MotionKind = 'motion' | 'morph' | 'camera' | 'light' | 'unknown';

export interface VmdInfo {
  format: 'vmd';
  header: string;
  model: string;
  kind: MotionKind;
  counts: Record<BlockKind, number>;
  absentBlocks: BlockKind[];
  lastFrame: number;
  durationSeconds: number;
  bones: string[];
  morphs: string[];
  cameraCuts: number;
  /** Bone keys whose quaternion length differs from 1 by more than 0.001 (kept as stored). */
  nonUnitQuaternions: number;
  warnings: string[];
}

/**
 * Kind from key counts (the thresholds mmdbox.net and the format notes use): motion if more than 10
 * bone keys; else morph if more than 10 morph keys; else camera if more than 10 camera keys; else light
 * if it has a light key and at most 10 camera keys; else unknown. The thresholds keep a few stray keys
 * from naming a file (a facial motion with a few bone keys is still a morph motion). A file with morph keys
 * and no bone, camera or light key at all is a facial motion whatever its count (a face preset made from
 * a 6-morph pose), as nothing else in it could make it another kind.
 */
export function detectKind(c: Pick<Record<BlockKind, number>, 'bone' | 'morph' | 'camera' | 'light'>): MotionKind {
  if (c.bone > 10) return 'motion';
  if (c.morph > 10) return 'morph';
  if (c.morph >= 1 && c.bone === 0 && c.camera === 0 && c.light === 0) return 'morph';
  if (c.camera > 10) return 'camera';
  if (c.light >= 1 && c.camera <= 10) return 'light';
  return 'unknown';
}

/**
 * A camera's or a light's motion, not a model's: no bone keys, and camera or light keys (what detectKind calls
 * 'camera' or 'light', whatever their number). The one test the operations that play a motion on a model
 * (physics-bake, export-bvh, export-vrma, pose, convert to VPD) refuse by; null for a model's motion and for a
 * morph-only motion (those are written, with a warning where nothing moves).
 */
export function stageMotionKind(c: Pick<Record<BlockKind, number>, 'bone' | 'camera' | 'light'>): 'camera' | 'light' | null {
  if (c.bone > 0) return null;
  if (c.camera > 0) return 'camera';
  if (c.light > 0) return 'light';
  return null;
}

/**
 * A camera or light motion (stageMotionKind) named with its keys, "a camera motion (70 camera keys, no bone
 * keys)", and its kind; null for any other motion.
 */
export function stageMotionWords(doc: Pick<VmdDocument, 'bone' | 'camera' | 'light'>): { kind: 'camera' | 'light'; words: string } | null {
  const c = { bone: doc.bone.count, camera: doc.camera.count, light: doc.light.count };
  const kind = stageMotionKind(c);
  if (!kind) return null;
  const n = (k: number, what: string) => plural(k, `${what} key`);
  const keys = [c.camera ? n(c.camera, 'camera') : '', c.light ? n(c.light, 'light') : ''].filter((x) => x).join(', ');
  return { kind, words: `a ${kind} motion (${keys}, no bone keys)` };
}

/**
 * The refusal of `op` (as the command line names it: "physics-bake") for a camera or light motion
 * (stageMotionWords), E_CAMERA_MOTION with its kind and counts for the app's phrasing; null for any other.
 * "a camera motion (70 camera keys, no bone keys): physics-bake works on a model's motion".
 */
export function stageMotionRefusal(doc: Pick<VmdDocument, 'bone' | 'camera' | 'light'>, op: string): CodecError | null {
  const stage = stageMotionWords(doc);
  if (!stage) return null;
  return {
    code: 'E_CAMERA_MOTION',
    message: `${stage.words}: ${op} works on a model's motion`,
    params: { kind: stage.kind, camera: doc.camera.count, light: doc.light.count, op },
  };
}

/** Camera cuts: adjacent distinct key frames exactly one apart, after sorting by frame. */
export function countCameraCuts(frames: Uint32Array): number {
  let cuts = 0;
  for (let i = 1; i < frames.length; i++) if (frames[i] - frames[i - 1] === 1) cuts++;
  return cuts;
}

/** Frames at which the camera cuts (the later frame of each one-frame pair). */
export function cameraCutFrames(frames: Uint32Array): number[] {
  const out: number[] = [];
  for (let i = 1; i < frames.length; i++) if (frames[i] - frames[i - 1] === 1) out.push(frames[i]);
  return out;
}

/**
 * What the summary says about a motion beyond its counts: the reader's diagnostics, then repeated keys
 * and non-unit rotations, each with a code and its values (the CLI prints `message`; the app translates
 * by `code` with `params`); given the display/IK block (`ik`), the IK bones it turns off and where (ikOffNotes)
 * and where it hides the model (displayOffNotes): inspect, the batch's inspect and the File panel; inspectVmd's
 * `warnings` leave them out, as a summary kept over a mirror or a retime would hold them stale.
 */
export function summaryNotes(diagnostics: readonly Diagnostic[], tracks: MotionTracks, nonUnitQuaternions: number, ik?: IkBlock): Diagnostic[] {
  const notes = [...diagnostics];
  const b = tracks.bones.duplicates, m = tracks.morphs.duplicates;
  if (b) notes.push({ code: 'N_BONE_DUPLICATES', message: `${plural(count(b), 'bone key')} ${agree(b, 'repeats', 'repeat')} a (bone, frame) pair; the first in the file is used`, params: { n: b } });
  if (m) notes.push({ code: 'N_MORPH_DUPLICATES', message: `${plural(count(m), 'morph key')} ${agree(m, 'repeats', 'repeat')} a (morph, frame) pair; the first in the file is used`, params: { n: m } });
  if (nonUnitQuaternions) {
    notes.push({ code: 'N_NON_UNIT', message: `${plural(count(nonUnitQuaternions), 'bone key')} ${agree(nonUnitQuaternions, 'has', 'have')} a rotation quaternion whose length is not 1 (kept as stored)`, params: { n: nonUnitQuaternions } });
  }
  if (ik) notes.push(...ikOffNotes(ikOffSpans(ik, tracks), tracks.lastFrame), ...displayOffNotes(displayOffSpans(ik, tracks), tracks.lastFrame));
  return notes;
}

/** A motion's summary as `vmd-studio inspect --json` and the batch's inspect give it, and the notes its `warnings` are. */
export type VmdInspection = VmdInfo & { ikOff?: IkOff[]; displayOff?: IkOffSpan[] };

/**
 * What inspect says of a motion file (the command line's and the batch's, one answer): inspectVmd's summary with
 * every note (summaryNotes, with the display/IK keys': `warnings` are their English lines), and where the display/IK
 * keys turn IK bones off (`ikOff`) and hide the model (`displayOff`: [from, to or null] frames), each only where
 * there is one. `notes` carry the codes, for the Japanese lines.
 */
export function inspectMotion(doc: VmdDocument, tracks: MotionTracks, diagnostics: Diagnostic[] = []): { info: VmdInspection; notes: Diagnostic[] } {
  const info = inspectVmd(doc, tracks, diagnostics);
  const notes = summaryNotes(diagnostics, tracks, info.nonUnitQuaternions, doc.ik);
  const ikOff = ikOffSpans(doc.ik, tracks);
  const displayOff = displayOffSpans(doc.ik, tracks);
  return { info: { ...info, ...(ikOff.length ? { ikOff } : {}), ...(displayOff.length ? { displayOff } : {}), warnings: notes.map((d) => d.message) }, notes };
}

/** Frames [from, to] an IK bone is off; `to` null: off from `from` on (no later key turns it back on). */
export type IkOffSpan = readonly [from: number, to: number | null];

/** The spans each IK bone is off in, for the IK bones some key turns off, in order of their first mention. */
export interface IkOff {
  readonly name: string;
  readonly spans: readonly IkOffSpan[];
}

/**
 * Where the display/IK keys turn IK bones off, as the preview plays them (shared/skeleton/ik-switches.ts): the
 * last key naming an IK bone at or before a frame decides it, a key that does not name it leaves it as it was,
 * and a bone no key has named yet is on. A motion made for FK legs (mc-mmd-rust's Drink.vmd: every leg IK off at
 * frame 0) plays its 足/ひざ/足首 keys, not the leg IK's: inspect and the File panel say so.
 */
export function ikOffSpans(ik: IkBlock, tracks: MotionTracks): IkOff[] {
  const since = new Map<string, number | null>();
  const spans = new Map<string, [number, number | null][]>();
  const t = tracks.ik;
  for (let k = 0; k < t.frames.length; k++) {
    const f = t.frames[k];
    for (const it of ikKey(ik, t.record[k]).iks) {
      const off = since.get(it.name) ?? null;
      if (!it.enabled && off === null) since.set(it.name, f);
      else if (it.enabled && off !== null) {
        since.set(it.name, null);
        if (!spans.has(it.name)) spans.set(it.name, []);
        spans.get(it.name)!.push([off, f - 1]);
      } else if (!since.has(it.name)) since.set(it.name, null);
    }
  }
  const out: IkOff[] = [];
  for (const [name, off] of since) {
    const list = spans.get(name) ?? [];
    if (off !== null) list.push([off, null]);
    if (list.length) out.push({ name, spans: list });
  }
  return out;
}

/** A leg IK bone (足ＩＫ, つま先ＩＫ; full- or half-width letters): off, the leg plays its FK keys. */
export function isLegIk(name: string): boolean {
  return /(足|つま先)IK/i.test(name.normalize('NFKC'));
}

/** Spans listed in a note at most; more read "…". */
const SPANS_SHOWN = 6;

/**
 * The notes for IK bones off over a span: one per group of IK bones off over the same frames, leg IKs apart
 * ("leg IK off from frame 0 (FK legs): 右足ＩＫ, 左足ＩＫ"; "IK off at frames 10–39: 右腕xcIK"). An open span ends
 * at the motion's last frame where several are listed. Codes N_LEG_IK_OFF(_FROM), N_IK_OFF(_FROM).
 */
export function ikOffNotes(off: readonly IkOff[], lastFrame: number): Diagnostic[] {
  const groups = new Map<string, { leg: boolean; spans: readonly IkOffSpan[]; names: string[] }>();
  for (const o of off) {
    const leg = isLegIk(o.name);
    const key = `${leg}:${o.spans.map(([a, b]) => `${a}-${b}`).join(',')}`;
    const g = groups.get(key);
    if (g) g.names.push(o.name);
    else groups.set(key, { leg, spans: o.spans, names: [o.name] });
  }
  const notes: Diagnostic[] = [];
  for (const g of groups.values()) {
    const names = g.names.join(', ');
    const [first] = g.spans;
    if (g.spans.length === 1 && first[1] === null) {
      const from = first[0];
      notes.push(g.leg
        ? { code: 'N_LEG_IK_OFF_FROM', message: `leg IK off from frame ${from} (FK legs): ${names}`, params: { from, names } }
        : { code: 'N_IK_OFF_FROM', message: `IK off from frame ${from}: ${names}`, params: { from, names } });
      continue;
    }
    const shown = g.spans.slice(0, SPANS_SHOWN).map(([a, b]) => `${a}–${b ?? Math.max(a, lastFrame)}`);
    const frames = shown.join(', ') + (g.spans.length > SPANS_SHOWN ? ', …' : '');
    notes.push(g.leg
      ? { code: 'N_LEG_IK_OFF', message: `leg IK off at frames ${frames} (FK legs): ${names}`, params: { frames, names } }
      : { code: 'N_IK_OFF', message: `IK off at frames ${frames}: ${names}`, params: { frames, names } });
  }
  return notes;
}

/**
 * Frames [from, to] the display/IK keys hide the model in (display off; `to` null: hidden from `from` on), as the
 * preview plays them (motion-driver.ts): the last key at or before a frame decides, none yet: shown; of two keys at
 * one frame the first in the file is used, as for every track (tracks.ts).
 */
export function displayOffSpans(ik: IkBlock, tracks: MotionTracks): IkOffSpan[] {
  const out: IkOffSpan[] = [];
  const t = tracks.ik;
  let from = -1;
  for (let k = 0; k < t.frames.length; k++) {
    const f = t.frames[k];
    const shown = ikKey(ik, t.record[k]).visible !== 0;
    if (!shown && from < 0) from = f;
    else if (shown && from >= 0) {
      if (f > from) out.push([from, f - 1]);
      from = -1;
    }
  }
  if (from >= 0) out.push([from, null]);
  return out;
}

/**
 * The note for the frames the model is hidden in (displayOffSpans): "model hidden from frame 120 (display off)",
 * or "model hidden at frames 10–19, 40–300 (display off)" (an open span ends at the motion's last frame where
 * several are listed). Codes N_HIDDEN_FROM, N_HIDDEN; none where it is never hidden.
 */
export function displayOffNotes(spans: readonly IkOffSpan[], lastFrame: number): Diagnostic[] {
  if (!spans.length) return [];
  const [first] = spans;
  if (spans.length === 1 && first[1] === null) return [{ code: 'N_HIDDEN_FROM', message: `model hidden from frame ${first[0]} (display off)`, params: { from: first[0] } }];
  const shown = spans.slice(0, SPANS_SHOWN).map(([a, b]) => `${a}–${b ?? Math.max(a, lastFrame)}`);
  const frames = shown.join(', ') + (spans.length > SPANS_SHOWN ? ', …' : '');
  return [{ code: 'N_HIDDEN', message: `model hidden at frames ${frames} (display off)`, params: { frames } }];
}

export function inspectVmd(doc: VmdDocument, tracks: MotionTracks, diagnostics: Diagnostic[] = []): VmdInfo {
  const counts = Object.fromEntries(BLOCK_KINDS.map((k) => [k, doc[k].count])) as Record<BlockKind, number>;
  let nonUnit = 0;
  // Count over every record (duplicates too): read from the block, not the deduplicated tracks.
  const v = doc.bone.view;
  for (let i = 0; i < doc.bone.count; i++) {
    const o = i * BONE.SIZE + BONE.ROTATION;
    const x = v.getFloat32(o, true), y = v.getFloat32(o + 4, true), z = v.getFloat32(o + 8, true), w = v.getFloat32(o + 12, true);
    if (Math.abs(Math.sqrt(x * x + y * y + z * z + w * w) - 1) > 1e-3) nonUnit++;
  }
  const warnings = summaryNotes(diagnostics, tracks, nonUnit).map((d) => d.message);
  const lastFrame = tracks.lastFrame;
  return {
    format: 'vmd',
    header: headerText(doc.header),
    model: decodeName(doc.modelName),
    kind: detectKind(counts),
    counts,
    absentBlocks: absentBlocks(doc),
    lastFrame,
    durationSeconds: Math.round((lastFrame / FPS) * 1000) / 1000,
    bones: [...tracks.bones.names].sort(),
    morphs: [...tracks.morphs.names].sort(),
    cameraCuts: countCameraCuts(tracks.camera.frames),
    nonUnitQuaternions: nonUnit,
    warnings,
  };
}

/**
 * A summary after keys only moved in time (no record added, removed or rewritten but for its frame): the
 * counts, names, quaternions and notes stay; the last frame, the duration and the camera cuts follow the
 * new tracks. Saves inspectVmd's pass over every bone record (600,000 keys: tens of ms) after a drag.
 */
export function retimedInfo(info: VmdInfo, tracks: MotionTracks): VmdInfo {
  const lastFrame = tracks.lastFrame;
  return { ...info, lastFrame, durationSeconds: Math.round((lastFrame / FPS) * 1000) / 1000, cameraCuts: countCameraCuts(tracks.camera.frames) };
}

/**
 * A summary after a left/right mirror (no key added, removed or moved; names swapped 左↔右, signs flipped):
 * the same counts, frames and warnings (a quaternion's length does not change with its signs), with the
 * bone and morph names of the new tracks.
 */
export function mirroredInfo(info: VmdInfo, tracks: MotionTracks): VmdInfo {
  return { ...info, bones: [...tracks.bones.names].sort(), morphs: [...tracks.morphs.names].sort() };
}

/** What a VPD pose file holds: the summary `vmd-studio inspect --json` and the batch inspect op both write. */
export interface VpdInfo {
  format: 'vpd';
  model: string;
  kind: 'pose';
  counts: { bone: number; morph: number };
  /** The bone count the file's header states (null when absent). */
  declaredBones: number | null;
  bones: string[];
  morphs: string[];
  warnings: string[];
}

export function inspectVpd(p: VpdPose, diagnostics: readonly Diagnostic[]): VpdInfo {
  return {
    format: 'vpd',
    model: p.model,
    kind: 'pose',
    counts: { bone: p.bones.length, morph: p.morphs.length },
    declaredBones: p.declaredBones,
    bones: [...new Set(p.bones.map((b) => b.name))].sort(),
    morphs: [...new Set(p.morphs.map((m) => m.name))].sort(),
    warnings: diagnostics.map((d) => d.message),
  };
}
