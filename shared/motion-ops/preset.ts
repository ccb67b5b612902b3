/**
 * Curve presets: set the interpolation of selected keys — bones by name pattern, a frame range, a
 * channel set (X, Y, Z, rotation), and/or camera keys with their six channels — to a named preset or
 * explicit x1,y1,x2,y2 (0..127). The batch form of what the curve editor does by hand.
 * Bone curves are written with setBoneCurves (all four rows stay consistent, the physics flag and
 * tail bytes stay), camera curves with setCameraCurve.
 */
import { LINEAR_CURVE, type Curve } from '../vmd/bezier';
import { failure, optionRefusal, type ArgumentError, type Outcome } from '../vmd/errors';
import { BONE_CHANNELS, CAMERA_CHANNELS, setBoneCurves, setCameraCurve, type BoneChannel, type CameraChannel } from '../vmd/interpolation';
import { BONE, CAMERA } from '../vmd/vmd-layout';
import { blockFromRecords, withBlocks, type VmdDocument } from '../vmd/vmd-document';
import { argumentError, namePattern } from '../edit-core/name-pattern';
import { copyRecord, frameAt, NameCache } from '../edit-core/record-util';
import { edited, editError, finishReport, newReport, type EditResult, warn } from '../edit-core/report';

export const CURVE_PRESETS = {
  /** Straight line corner to corner. */
  linear: [0, 0, 127, 127],
  /** MMD's default for new keys (also linear in effect). */
  default: LINEAR_CURVE,
  'ease-in': [64, 0, 127, 127],
  'ease-out': [0, 0, 64, 127],
  'ease-in-out': [64, 0, 64, 127],
} as const satisfies Record<string, Curve>;

export type PresetName = keyof typeof CURVE_PRESETS;

/** What is wrong with a curve or a channel list (the app's strings are `opt.<problem>`; a name pattern's: edit-core/name-pattern.ts). */
export type CurveProblem = 'curveRange' | 'curveUnknown';
export type ChannelsProblem = 'channelUnknown' | 'channelsNone';

/** A preset name (also "mmd-default") or "x1,y1,x2,y2" with whole numbers in 0..127. */
export function parseCurveSpec(spec: string): Outcome<Curve, ArgumentError<CurveProblem>> {
  const s = spec.trim().toLowerCase();
  if (s === 'mmd-default' || s === 'mmd') return { ok: true, value: CURVE_PRESETS.default };
  if (s in CURVE_PRESETS) return { ok: true, value: CURVE_PRESETS[s as PresetName] };
  const parts = s.split(',').map((p) => p.trim());
  if (parts.length === 4 && parts.every((p) => /^\d+$/.test(p))) {
    const n = parts.map(Number);
    if (n.every((v) => v >= 0 && v <= 127)) return { ok: true, value: [n[0], n[1], n[2], n[3]] };
    return argumentError('curveRange', `curve values must be in 0..127, got "${spec}"`, { value: spec });
  }
  return argumentError('curveUnknown', `unknown curve "${spec}": use ${Object.keys(CURVE_PRESETS).join(', ')}, mmd-default or x1,y1,x2,y2 (0..127)`, { value: spec });
}

const CHANNEL_ALIASES: Record<string, string> = { rot: 'r', rotation: 'r', dist: 'd', distance: 'd', fov: 'v', angle: 'v' };

/** Parses "x,y,z,r" (bones) or "x,y,z,r,d,v" (camera: target X/Y/Z, rotation, distance, field of view). */
export function parseChannels(spec: string, kind: 'bone' | 'camera'): Outcome<number[], ArgumentError<ChannelsProblem>> {
  const names: readonly string[] = kind === 'bone' ? BONE_CHANNELS : CAMERA_CHANNELS;
  const out = new Set<number>();
  for (let p of spec.split(',').map((x) => x.trim().toLowerCase()).filter(Boolean)) {
    p = CHANNEL_ALIASES[p] ?? p;
    if (p === 'all') names.forEach((_, i) => out.add(i));
    else if (names.includes(p)) out.add(names.indexOf(p));
    else return argumentError('channelUnknown', `unknown ${kind} channel "${p}": use ${names.join(', ')}`, { value: p, kind, allowed: names.join(', ') });
  }
  if (out.size === 0) return argumentError('channelsNone', `no ${kind} channels given`, { kind });
  return { ok: true, value: [...out].sort() };
}

export interface PresetOptions {
  curve: Curve;
  /** Bone name pattern (see namePattern); bones are left alone when undefined and `camera` is set. */
  bones?: string;
  /** Bone channels 0..3 (X, Y, Z, rotation); default all. */
  channels?: readonly BoneChannel[];
  /** Also (or only) set camera curves. */
  camera?: boolean;
  /** Camera channels 0..5; default all. */
  cameraChannels?: readonly CameraChannel[];
  /** Frame range, inclusive. */
  from?: number;
  to?: number;
}

export function preset(doc: VmdDocument, opts: PresetOptions): EditResult {
  const c = opts.curve;
  if (c.length !== 4 || c.some((v) => !Number.isInteger(v) || v < 0 || v > 127)) return editError('curve values must be whole numbers in 0..127', 'E_ARGUMENT');
  const from = opts.from ?? 0;
  const to = opts.to ?? Infinity;
  if (from > to) return failure(optionRefusal('E_ARGUMENT', `--from (${from}) is after --to (${to})`, 'to', 'order', { value: to, other: 'from', min: from }));
  const rep = newReport('preset');
  const boneSpec = opts.bones ?? (opts.camera ? undefined : '*');
  let matches: ((n: string) => boolean) | null = null;
  if (boneSpec !== undefined) {
    const p = namePattern(boneSpec);
    if (!p.ok) return failure({ ...p.error, option: 'bones' });
    matches = p.value;
  }
  const channels = opts.channels ?? [0, 1, 2, 3];
  const curves: Partial<Record<BoneChannel, Curve>> = {};
  for (const ch of channels) curves[ch] = c;
  const names = new NameCache();
  let matched = 0;

  const bones: Uint8Array[] = [];
  for (let i = 0; i < doc.bone.count; i++) {
    const r = copyRecord(doc.bone, i);
    const f = frameAt(doc.bone, i);
    if (matches && f >= from && f <= to && matches(names.name('bone', r))) {
      matched++;
      const ip = r.subarray(BONE.INTERPOLATION, BONE.INTERPOLATION + BONE.INTERPOLATION_LENGTH);
      const before = ip.slice();
      setBoneCurves(ip, curves);
      if (!sameBytes(before, ip)) rep.byKind.bone.changed++;
    }
    bones.push(r);
  }
  rep.byKind.bone.kept = bones.length;

  const cams: Uint8Array[] = [];
  const camChannels = opts.cameraChannels ?? [0, 1, 2, 3, 4, 5];
  for (let i = 0; i < doc.camera.count; i++) {
    const r = copyRecord(doc.camera, i);
    const f = frameAt(doc.camera, i);
    if (opts.camera && f >= from && f <= to) {
      matched++;
      const ip = r.subarray(CAMERA.INTERPOLATION, CAMERA.INTERPOLATION + CAMERA.INTERPOLATION_LENGTH);
      const before = ip.slice();
      for (const ch of camChannels) setCameraCurve(ip, ch, c);
      if (!sameBytes(before, ip)) rep.byKind.camera.changed++;
    }
    cams.push(r);
  }
  rep.byKind.camera.kept = cams.length;
  for (const k of ['morph', 'light', 'shadow', 'ik'] as const) rep.byKind[k].kept = doc[k].count;
  rep.extra.matched = matched;
  if (matched === 0) warn(rep, 'W_PRESET_NO_MATCH', 'no key matched the selection');
  const out = withBlocks(doc, { bone: blockFromRecords('bone', bones), camera: blockFromRecords('camera', cams) });
  return edited(out, finishReport(rep));
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
