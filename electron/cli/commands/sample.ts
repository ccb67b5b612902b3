/** `vmd-studio sample FILE.vmd --frame F [--json]` — the pose at a (possibly fractional) frame. */
import path from 'node:path';
import { buildTracks, ikKey, keyAtOrBefore, samplePose, sampleSelfShadow, type MotionTracks, type Pose, type VmdDocument } from '../../../shared/vmd';
import { LIGHT_COLOR_SCALE, shadowRangeOf } from '../../../shared/key-edits/values';
import { ikStatesAt } from '../../../shared/key-edits/ik';
import { optNumber, parseArgs, UsageError } from '../args';
import { loadMotion } from '../load';
import type { CommandInfo } from '../io';
import { failWith, jsonSuccess } from './edit-output';

const fmt = (v: number[]) => v.map((x) => x.toFixed(6).padStart(12)).join(' ');
/** A figure as MMD's panels show it, to 2 places at most (a light between keys can be 127.5 of 255). */
const panel = (x: number) => String(+x.toFixed(2));

/** The self-shadow in force: its mode and stored distance, and the distance on MMD's 0–9999 panel (shadowRangeOf). */
type SelfShadow = { mode: number; distance: number; range: number };

/**
 * The display/IK state at the frame (the key at or before it; null for a motion without display/IK keys): whether the
 * model is shown and which IK bones are off (shared ikStatesAt: the last key naming one decides, as the preview plays).
 */
function ikStateAt(doc: VmdDocument, tracks: MotionTracks, frame: number): { display: boolean; ikOff: string[] } | null {
  const t = tracks.ik;
  if (!t.frames.length) return null;
  const k = keyAtOrBefore(t.frames, 0, t.frames.length, frame);
  // Before the first key: shown, every IK on (MMD's defaults).
  if (k < 0) return { display: true, ikOff: [] };
  const states = ikStatesAt(doc, tracks, frame);
  return { display: ikKey(doc.ik, t.record[k]).visible !== 0, ikOff: [...states].filter(([, on]) => !on).map(([name]) => name) };
}

function human(pose: Pose, shadow: SelfShadow | null, ik: { display: boolean; ikOff: string[] } | null): string {
  const lines = [`frame ${pose.frame}`];
  const names = Object.keys(pose.bones);
  if (names.length) lines.push('bones (position x y z | rotation x y z w):');
  for (const n of names) lines.push(`  ${n.padEnd(12, '　')} ${fmt(pose.bones[n].position)} | ${fmt(pose.bones[n].rotation)}`);
  const morphs = Object.keys(pose.morphs);
  if (morphs.length) lines.push('morphs:');
  for (const m of morphs) lines.push(`  ${m.padEnd(12, '　')} ${pose.morphs[m].toFixed(6)}`);
  if (pose.camera) {
    const c = pose.camera;
    lines.push(`camera: target ${fmt(c.target)}  rotation ${fmt(c.rotation)}  distance ${c.distance.toFixed(4)}  fov ${c.fov.toFixed(3)}`);
    lines.push(`        position ${fmt(c.position)}`);
  }
  // The colour as stored (0–1) and as the Key panel and MMD's 照明 panel show it (0–255).
  if (pose.light) lines.push(`light: color ${fmt(pose.light.color)} (0–255: ${pose.light.color.map((c) => panel(c * LIGHT_COLOR_SCALE)).join(' ')})  direction ${fmt(pose.light.direction)}`);
  if (shadow) lines.push(`self-shadow: ${shadow.mode === 0 ? 'off (mode 0)' : `mode ${shadow.mode}`}  distance ${panel(shadow.range)} (0–9999, as MMD's panel; stored ${shadow.distance.toFixed(6)})`);
  if (ik) lines.push(`display ${ik.display ? 'on' : 'off'}  ${ik.ikOff.length ? `IK off: ${ik.ikOff.join(' ')}` : 'IK all on'}`);
  return lines.join('\n') + '\n';
}

export const sampleCommand: CommandInfo = {
  summary: 'the pose at a frame (fractional too), interpolated like MMD plays it: bones, morphs, camera, light, self-shadow',
  usage: `vmd-studio sample FILE.vmd --frame F [--json]
  --frame F  frame number, may be fractional (e.g. 120.5)
  --json     {frame, bones: {name: {position, rotation}}, morphs: {name: weight}, camera, light, selfShadow} in MMD coordinates;
             with display/IK keys also display (true: the model shown) and ikOff (the IK bones off there)
  The light colour prints as stored (0–1) and as the Key panel shows it (0–255; --json: 0–1). The self-shadow is the
  key in force (a step): mode 0 (off), 1 or 2 and the distance on MMD's 0–9999 panel (--json: {mode, distance as
  stored, range 0–9999 to 2 places}).
A motion with display/IK keys gets a last line: display on/off and the IK bones off at that frame.`,
  async run(argv, io) {
    const a = parseArgs(argv, { values: ['frame'], flags: ['json'], aliases: { f: 'frame' } });
    const frame = optNumber(a, 'frame');
    // `sample FILE 150`: the frame given as a second word; say where it goes rather than "one file".
    if (a.positionals.length === 2 && frame === undefined && /^\d+(\.\d+)?$/.test(a.positionals[1])) {
      throw new UsageError(`the frame goes after --frame: vmd-studio sample ${a.positionals[0]} --frame ${a.positionals[1]}`);
    }
    if (a.positionals.length !== 1) throw new UsageError('give exactly one .vmd file');
    if (frame === undefined) throw new UsageError('--frame is required');
    if (frame < 0) throw new UsageError('--frame must not be negative');
    const file = path.resolve(io.cwd, a.positionals[0]);
    const l = await loadMotion(file, 'sample', a.positionals[0], 'vmd');
    if (!l.ok) return failWith(io, l.error, file, a.positionals);
    if (l.value.format !== 'vmd') return failWith(io, { code: 'E_UNSUPPORTED', message: 'sample needs a VMD motion (a VPD is a single pose; use inspect or convert)', file }, file, a.positionals);
    const tracks = buildTracks(l.value.doc);
    const pose = samplePose(tracks, frame);
    const s = sampleSelfShadow(l.value.doc, tracks, frame);
    // The range to 2 places, as the Key panel shows it (a float32's steps: 0.01125 is 8874.99996).
    const selfShadow = s && { ...s, range: +shadowRangeOf(s.distance).toFixed(2) };
    const ik = ikStateAt(l.value.doc, tracks, frame);
    if (a.flags.has('json')) jsonSuccess(io, { ...pose, selfShadow, ...(ik ?? {}) });
    else io.stdout(human(pose, selfShadow, ik));
    return 0;
  },
};
