/** `vmd-studio sample FILE.vmd --frame F [--json]` — the pose at a (possibly fractional) frame. */
import path from 'node:path';
import { buildTracks, samplePose, type Pose } from '../../../shared/vmd';
import { optNumber, parseArgs, UsageError } from '../args';
import { loadMotion } from '../load';
import type { CommandInfo } from '../io';
import { failWith, jsonSuccess } from './edit-output';

const fmt = (v: number[]) => v.map((x) => x.toFixed(6).padStart(12)).join(' ');

function human(pose: Pose): string {
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
  if (pose.light) lines.push(`light: color ${fmt(pose.light.color)}  direction ${fmt(pose.light.direction)}`);
  return lines.join('\n') + '\n';
}

export const sampleCommand: CommandInfo = {
  summary: 'the pose at a frame (fractional too), interpolated like MMD plays it',
  usage: `vmd-studio sample FILE.vmd --frame F [--json]
  --frame F  frame number, may be fractional (e.g. 120.5)
  --json     {frame, bones: {name: {position, rotation}}, morphs: {name: weight}, camera, light} in MMD coordinates`,
  async run(argv, io) {
    const a = parseArgs(argv, { values: ['frame'], flags: ['json'], aliases: { f: 'frame' } });
    if (a.positionals.length !== 1) throw new UsageError('give exactly one .vmd file');
    const frame = optNumber(a, 'frame');
    if (frame === undefined) throw new UsageError('--frame is required');
    if (frame < 0) throw new UsageError('--frame must not be negative');
    const file = path.resolve(io.cwd, a.positionals[0]);
    const l = await loadMotion(file, 'sample', a.positionals[0], 'vmd');
    if (!l.ok) return failWith(io, l.error, file, a.positionals);
    if (l.value.format !== 'vmd') return failWith(io, { code: 'E_UNSUPPORTED', message: 'sample needs a VMD motion (a VPD is a single pose; use inspect or convert)', file }, file, a.positionals);
    const pose = samplePose(buildTracks(l.value.doc), frame);
    if (a.flags.has('json')) jsonSuccess(io, { ...pose });
    else io.stdout(human(pose));
    return 0;
  },
};
