/**
 * `vmd-studio ik-bake MODEL MOTION -o OUT` — MMD's 「IKをFKに焼き込み」: the pose the model's IK gives under the
 * motion written as rotation keys of the chains' bones, with those IK bones switched off (shared/bake/ik-bake.ts).
 * The model and the motion in either order (told apart by their extensions), or the model as --model.
 */
import { writeOutput } from '../output';
import { writeVmd } from '../../../shared/vmd';
import { ikBake, type IkBakeReport } from '../../../shared/bake';
import { optValue, parseArgs, UsageError } from '../args';
import { bakeArgs, bakeTolerances, readBakeInputs } from './bake-inputs';
import type { CommandInfo } from '../io';
import { displayPath, formatCount, formatMeasure } from '../format';
import { plural } from '../../../shared/i18n/plural';
import { failWith, jsonSuccess } from './edit-output';
import { guarded } from '../signals';
import { cliProgress } from '../progress';

const MODEL_AND_MOTION = 'ik-bake takes a model and a motion: vmd-studio ik-bake MODEL.pmx MOTION.vmd -o OUT.vmd';

/** The report line (after "ik-bake: OUT: "). */
export function ikBakeLine(r: IkBakeReport): string {
  return (
    `${plural(r.bones.length, 'bone')} baked (${r.bones.join(', ')}) over frames ${r.from}–${r.to}, keys ${formatCount(r.rawKeys)} raw → ${formatCount(r.keptKeys)} kept, ${formatCount(r.replacedKeys)} replaced` +
    (r.edgeKeys ? `, ${formatCount(r.edgeKeys)} added at the range's ends keeping the motion's values outside it` : '') +
    `; IK off over the range: ${r.ikOff.join(', ')}` +
    `; played back with that IK off against the IK pose: max rotation error ${formatMeasure(r.maxRotationErrorDeg)}°, max position error ${formatMeasure(r.maxPositionError)}` +
    (r.worst ? ` (${r.worst.bone} at frame ${r.worst.frame})` : '') +
    (r.namesTooLong.length ? `; NOT baked (a link's name is over 15 bytes, its IK left on): ${r.namesTooLong.join(', ')}` : '') +
    (r.ikNamesTooLong.length ? `; NOT baked (IK name over 20 bytes): ${r.ikNamesTooLong.join(', ')}` : '')
  );
}

export const ikBakeCommand: CommandInfo = {
  summary: 'bake a model\'s IK under a motion into rotation keys of the legs (IK → FK) and switch that IK off',
  usage: `vmd-studio ik-bake MODEL.pmx|.pmd MOTION.vmd -o OUT.vmd [--from A --to B] [--bones 左足ＩＫ,右足ＩＫ] [--raw]
                        [--rot-tol DEG] [--overwrite] [--json] [--quiet]
       vmd-studio ik-bake MOTION.vmd --model MODEL.pmx|.pmd -o OUT.vmd [options as above]
  MMD's "IK to FK" (IKをFKに焼き込み): plays the motion on the model with its IK as the motion switches it, and
  writes the rotation each bone of the IK chains (足ＩＫ: 足, ひざ; つま先ＩＫ: 足首) has at every frame of A..B as
  keys of that bone, then switches those IK bones off over A..B (display/IK keys at A, and at B+1 back to the
  motion's state when the motion goes on). OUT then shows the same pose with the IK off, and the legs can be edited
  bone by bone, or played by a program without IK.
  Keys the motion had for those bones inside A..B are replaced; each gets a key at A-1 and B+1 with the motion's own
  value, so the IK outside A..B solves as before; every other key is written byte for byte. The bones' own
  translations are kept as the motion has them (IK only turns them).
  --model MODEL    the model (or give it beside the motion, without --model)
  --from A --to B  frames to bake (default 0 to the motion's last key)
  --bones LIST     IK bones to bake, comma-separated, as the model names them (default: every IK bone the motion
                   has on somewhere in A..B; e.g. 左足ＩＫ,右足ＩＫ,左つま先ＩＫ,右つま先ＩＫ for the legs alone)
  --raw            a key on every frame (no reduction)
  --rot-tol DEG    how far a bone's rotation may stray from the IK pose, in degrees (default 0.1)
  --overwrite      replace an existing OUT
  Nothing is written, status 1, when the model has no IK bones, an IK bone named in --bones is not the model's,
  or the motion has the IK bones off over all of A..B.
  The report: the bones baked, raw and kept key counts, the IK switched off, and the largest error measured by
  playing OUT (that IK off) against the IK pose at every frame, over the baked bones and each chain's end (足首,
  つま先): a rotation error within --rot-tol moves the foot by up to the leg's length times it.`,
  async run(argv, io) {
    const a = parseArgs(argv, { values: ['output', 'model', 'from', 'to', 'bones', 'rot-tol'], flags: ['raw', 'overwrite', 'json', 'quiet'], aliases: { o: 'output' } });
    const args = bakeArgs(a, 'give a model (.pmx|.pmd) and a motion (.vmd)');
    const { givens, outArg, from, to } = args;
    const [rotTol] = bakeTolerances(a, ['rot-tol']);
    const bonesArg = optValue(a, 'bones');
    const bones = bonesArg === undefined ? undefined : bonesArg.split(/[,、，]/).map((s) => s.trim()).filter(Boolean);
    if (bones && bones.length === 0) throw new UsageError('--bones takes IK bone names, comma-separated (e.g. 左足ＩＫ,右足ＩＫ)');
    const inputs = await readBakeInputs(io, 'ik-bake', args, MODEL_AND_MOTION);
    if (typeof inputs === 'number') return inputs;
    const { model, motion, modelFile, motionFile, output } = inputs;
    const progress = cliProgress(io, 'ik-bake', null, a.flags.has('quiet'));
    const r = ikBake(model, motion, { from, to, bones, raw: a.flags.has('raw'), rotationToleranceDeg: rotTol, progress: progress.tell });
    progress.end();
    if (!r.ok) {
      // What the model lacks is the model's; IK off over the range, a span past the bound, a camera motion: the motion's.
      const aboutMotion = r.error.params?.reason === 'off' || r.error.code === 'E_SPAN' || r.error.code === 'E_CAMERA_MOTION';
      return failWith(io, { ...r.error, file: r.error.file ?? (aboutMotion ? motionFile : r.error.code === 'E_IK' ? modelFile : undefined) }, undefined, givens);
    }
    return guarded(async () => {
      const w = await writeOutput(output, writeVmd(r.value.doc), a.flags.has('overwrite'));
      if (!w.ok) return failWith(io, w.error, output, [outArg]);
      if (a.flags.has('json')) jsonSuccess(io, { output, ...r.value.report });
      else if (!a.flags.has('quiet')) io.stdout(`ik-bake: ${displayPath(output, outArg, io.cwd)}: ${ikBakeLine(r.value.report)}\n`);
      return 0;
    });
  },
};
