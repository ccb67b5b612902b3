/** `vmd-studio build POSE.vpd@FRAME ... -o OUT.vmd` — a motion from poses. */
import path from 'node:path';
import { readInputBytes } from '../../fs/files';
import { MAX_MOTION_FILE_BYTES } from '../../../shared/ipc/validate';
import { readVpd } from '../../../shared/vmd';
import { buildFromPoses, parseCurveSpec, type PoseAt } from '../../../shared/motion-ops';
import { optValue, parseArgs, UsageError, outputRequired } from '../args';
import type { CommandInfo } from '../io';
import { failWith, writeEditResult } from './edit-output';
import { wrongKindError } from '../file-kind';

export const buildCommand: CommandInfo = {
  summary: 'build a motion from poses: POSE.vpd@FRAME ... (union of bones, rest pose where missing)',
  usage: `vmd-studio build POSE.vpd@FRAME [POSE.vpd@FRAME...] -o OUT.vmd [--curve PRESET] [--skip-long-names] [--overwrite] [--json] [--quiet]
  Every pose gets a key for every bone any pose has (rest pose where it lacks one) and every morph
  (weight 0 where missing). Curves: MMD's linear default, or --curve linear|ease-in|ease-out|ease-in-out|x1,y1,x2,y2.`,
  async run(argv, io) {
    const a = parseArgs(argv, { values: ['output', 'curve'], flags: ['skip-long-names', 'overwrite', 'json', 'quiet'], aliases: { o: 'output' } });
    if (a.positionals.length < 1) throw new UsageError('give at least one POSE.vpd@FRAME');
    const outArg = optValue(a, 'output');
    if (!outArg) throw outputRequired();
    let curve;
    const cs = optValue(a, 'curve');
    if (cs) {
      const c = parseCurveSpec(cs);
      if (!c.ok) throw new UsageError(c.error.message);
      curve = c.value;
    }
    const specs = a.positionals.map((p) => {
      const m = /^(.*)@(\d+)$/.exec(p);
      if (!m) throw new UsageError(`"${p}": give each pose as FILE.vpd@FRAME`);
      return { file: path.resolve(io.cwd, m[1]), given: m[1], frame: Number(m[2]) };
    });
    const poses: PoseAt[] = [];
    for (const s of specs) {
      // Errors name the pose as it was typed; another kind of file (a VMD, a model) is said as such.
      const r = await readInputBytes(s.file, { maxBytes: MAX_MOTION_FILE_BYTES });
      if (!r.ok) return failWith(io, r.error, s.file, [s.given]);
      const wrong = wrongKindError(s.file, r.value, 'vpd', 'build', s.given);
      if (wrong) return failWith(io, wrong, s.file, [s.given]);
      const p = readVpd(r.value);
      if (!p.ok) return failWith(io, p.error, s.file, [s.given]);
      poses.push({ pose: p.value, frame: s.frame });
    }
    const r = buildFromPoses(poses, { curve, skipLongNames: a.flags.has('skip-long-names') });
    if (!r.ok) return failWith(io, r.error);
    return writeEditResult(io, a, path.resolve(io.cwd, outArg), r.value.doc, r.value.report, 'build');
  },
};
