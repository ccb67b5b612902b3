/**
 * Curve edits on keys. Bone curves go through setBoneCurves (all four rows of the 64-byte block
 * rewritten consistently, physics flag bytes 2–3 and the tail kept); camera curves through
 * setCameraCurve (24 bytes, stored x1, x2, y1, y2). Only the interpolation bytes of the touched
 * records change.
 */
import type { Curve } from '../vmd/bezier';
import { getBoneCurves, getCameraCurves, setBoneCurves, setCameraCurve, type BoneChannel, type CameraChannel } from '../vmd/interpolation';
import { BONE, CAMERA } from '../vmd/vmd-layout';
import type { VmdDocument } from '../vmd/vmd-document';
import { success, type Outcome } from '../vmd/errors';
import { applyDiff, BlockEditor, finish, refuse, type EditDiff, type EditOutcome, type EditRefusal } from './diff';
import { drain, type Steps } from './steps';
import type { KeyRef } from './key-ref';

/** Kinds that carry curves. */
export type CurveKind = 'bone' | 'camera';

/** Channel counts: bone X, Y, Z, rotation; camera target X, Y, Z, rotation, distance, fov. */
export const CHANNEL_COUNT: Record<CurveKind, number> = { bone: 4, camera: 6 };

/** The curves of one key, channel order as above. */
export function keyCurves(doc: VmdDocument, ref: KeyRef): Curve[] {
  if (ref.kind === 'bone') {
    const o = ref.record * BONE.SIZE + BONE.INTERPOLATION;
    return getBoneCurves(doc.bone.bytes, o);
  }
  if (ref.kind === 'camera') return getCameraCurves(doc.camera.bytes, ref.record * CAMERA.SIZE + CAMERA.INTERPOLATION);
  return [];
}

/** Clamps and rounds control points to the file's 0..127 integer grid. */
export function snapCurve(c: readonly number[]): Curve {
  const q = (v: number) => Math.max(0, Math.min(127, Math.round(Number.isFinite(v) ? v : 0)));
  return [q(c[0]), q(c[1]), q(c[2]), q(c[3])];
}

/**
 * Sets curves on every given key of one kind: `curves[ch]` for each channel present.
 * Keys of other kinds (morph, light: no curves) are ignored.
 */
export function setCurves(doc: VmdDocument, refs: readonly KeyRef[], curves: Partial<Record<number, Curve>>, label = 'curve'): EditOutcome {
  const bone = new BlockEditor(doc.bone);
  const camera = new BlockEditor(doc.camera);
  const entries = Object.entries(curves).map(([ch, c]) => [Number(ch), snapCurve(c!)] as const);
  let touched = 0;
  for (const ref of refs) {
    if (ref.kind === 'bone' && ref.record < doc.bone.count) {
      const rec = bone.copy(ref.record);
      const part: Partial<Record<BoneChannel, Curve>> = {};
      for (const [ch, c] of entries) if (ch >= 0 && ch < 4) part[ch as BoneChannel] = c;
      setBoneCurves(rec.subarray(BONE.INTERPOLATION, BONE.INTERPOLATION + BONE.INTERPOLATION_LENGTH), part);
      bone.put(ref.record, rec);
      touched++;
    } else if (ref.kind === 'camera' && ref.record < doc.camera.count) {
      const rec = camera.copy(ref.record);
      const ip = rec.subarray(CAMERA.INTERPOLATION, CAMERA.INTERPOLATION + CAMERA.INTERPOLATION_LENGTH);
      for (const [ch, c] of entries) if (ch >= 0 && ch < 6) setCameraCurve(ip, ch as CameraChannel, c);
      camera.put(ref.record, rec);
      touched++;
    }
  }
  if (touched === 0) return refuse('E_EMPTY', 'no key with curves selected', 'editor.refusal.noCurveKey');
  return success(finish(doc, label, [bone, camera].filter((e) => e.diff().patches.length > 0)));
}

/**
 * setCurves on many keys of one kind (the selection's records, ascending), with a packed diff: the
 * interpolation bytes of each touched record before the edit, in one array (BlockDiff.fields), and the
 * curves written as the diff's `rewrite` (redo writes them again over those bytes) instead of a second copy
 * of every record's 64 or 24 bytes. The bytes written are setCurves's; records whose bytes do not change
 * are left out of the diff.
 */
export function setCurvesOnRecords(doc: VmdDocument, kind: CurveKind, records: Uint32Array, curves: Partial<Record<number, Curve>>, label = 'curve'): EditOutcome {
  const d = drain(curvesDiffSteps(doc, kind, records, curves, label));
  return d.ok ? success({ doc: applyDiff(doc, d.value), diff: d.value }) : d;
}

/** Records curvesDiffSteps reads per step. */
const STEP_RECORDS = 1 << 12;

/**
 * The diff of setCurvesOnRecords without applying it, in steps of STEP_RECORDS records (the editor runs
 * a curve on 600,000 keys between frames), or its refusal.
 */
export function* curvesDiffSteps(doc: VmdDocument, kind: CurveKind, records: Uint32Array, curves: Partial<Record<number, Curve>>, label = 'curve'): Steps<Outcome<EditDiff, EditRefusal>> {
  const block = doc[kind];
  const entries = Object.entries(curves).map(([ch, c]) => [Number(ch), snapCurve(c!)] as const);
  const at = kind === 'bone' ? BONE.INTERPOLATION : CAMERA.INTERPOLATION;
  const len = kind === 'bone' ? BONE.INTERPOLATION_LENGTH : CAMERA.INTERPOLATION_LENGTH;
  let n = 0;
  while (n < records.length && records[n] < block.count) n++;
  if (n === 0) return refuse('E_EMPTY', 'no key with curves selected', 'editor.refusal.noCurveKey');
  const before = new Uint8Array(n * len);
  const kept = new Uint32Array(n);
  const part: Partial<Record<BoneChannel, Curve>> = {};
  for (const [ch, c] of entries) if (ch >= 0 && ch < 4) part[ch as BoneChannel] = c;
  // One record's curves as the edit writes them (the diff's rewrite: redo runs it again on the bytes before).
  const rewrite =
    kind === 'bone'
      ? (a: Uint8Array) => setBoneCurves(a, part)
      : (a: Uint8Array) => {
          for (const [ch, c] of entries) if (ch >= 0 && ch < 6) setCameraCurve(a, ch as CameraChannel, c);
        };
  const a = new Uint8Array(len);
  let m = 0;
  for (let k = 0; k < n; k++) {
    const o = records[k] * block.size + at;
    const b = before.subarray(m * len, (m + 1) * len);
    b.set(block.bytes.subarray(o, o + len));
    a.set(b);
    rewrite(a);
    let same = true;
    for (let i = 0; i < len && same; i++) if (a[i] !== b[i]) same = false;
    if (!same) kept[m++] = records[k];
    if ((k + 1) % STEP_RECORDS === 0) yield (k + 1) / n;
  }
  // Every record changed (a preset on all): the arrays as they are, not another 38 MB copy in one step.
  const whole = m === n;
  const fields = { records: whole ? kept : kept.slice(0, m), at, length: len, before: whole ? before : before.slice(0, m * len), rewrite };
  return success({ label, blocks: m ? [{ kind, patches: [], removed: [], appended: [], fields }] : [] });
}

/**
 * A copied curve: the curves of one key, the kind they came from, and the channel that was shown when it
 * was copied (`channel`), whose curve a paste writes onto each chosen channel, as MMD pastes the curve it
 * displayed. `channel` null: copied with every channel shown (Overlay), so each channel pastes onto the
 * same channel.
 */
export interface CurveClipboard {
  readonly kind: CurveKind;
  readonly curves: readonly Curve[];
  readonly channel: number | null;
}

/** The curves of `ref`; `channel` is the one shown (null: all of them, each pasting onto its own channel). */
export function copyCurves(doc: VmdDocument, ref: KeyRef, channel: number | null = null): CurveClipboard | null {
  if (ref.kind !== 'bone' && ref.kind !== 'camera') return null;
  const curves = keyCurves(doc, ref);
  const ch = channel === null ? null : Math.max(0, Math.min(curves.length - 1, Math.trunc(channel)));
  return { kind: ref.kind, curves, channel: ch };
}

/** The curve a paste writes on channel `ch` (undefined past the kind's channels). */
export function clipCurveFor(clip: CurveClipboard, ch: number): Curve | undefined {
  if (ch < 0 || ch >= clip.curves.length) return undefined;
  return clip.curves[clip.channel ?? ch];
}

/**
 * Pastes copied curves onto many keys on the chosen channels (MMD's copy → select column → paste):
 * the copied channel's curve onto every chosen channel, or each channel's own when copied with all
 * shown (CurveClipboard.channel null). Bone curves paste onto bone keys and camera curves onto camera
 * keys; `channels` picks which. A paste that changes no byte is a success with an empty diff.
 */
export function pasteCurves(doc: VmdDocument, refs: readonly KeyRef[], clip: CurveClipboard, channels: readonly number[]): EditOutcome {
  const targets = refs.filter((r) => r.kind === clip.kind);
  if (targets.length === 0) return refuse('E_EMPTY', `no ${clip.kind} key selected to paste the curve on`, clip.kind === 'camera' ? 'editor.refusal.noCameraKeyForCurve' : 'editor.refusal.noBoneKeyForCurve');
  const curves: Partial<Record<number, Curve>> = {};
  for (const ch of channels) {
    const c = clipCurveFor(clip, ch);
    if (c) curves[ch] = c;
  }
  return setCurves(doc, targets, curves, 'paste curve');
}

/** One curve onto all channels of the keys ("apply to all four channels"). */
export function applyCurveToAllChannels(doc: VmdDocument, refs: readonly KeyRef[], curve: Curve): EditOutcome {
  const curves: Partial<Record<number, Curve>> = {};
  const hasCamera = refs.some((r) => r.kind === 'camera');
  for (let ch = 0; ch < (hasCamera ? 6 : 4); ch++) curves[ch] = curve;
  return setCurves(doc, refs, curves, 'curve on all channels');
}
