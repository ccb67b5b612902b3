/**
 * The one-file edit commands: mirror, trim, speed, shift, preset, rename, reduce, bake. Each runs its
 * operation through electron/batch/ops.ts (shared/batch/doc-edits.ts, shared/batch/fit-ops.ts), so a one-file command and a batch
 * apply exactly the same code and options. Exit status: 0 written, 1 the file failed, 2 bad arguments;
 * 130/143 after SIGINT/SIGTERM (signals.ts).
 */
import path from 'node:path';
import { writeOutput } from '../output';
import { outputRefusal, readInputBytes, sameFile } from '../../fs/files';
import type { BatchOp } from '../../../shared/batch/types';
import { MAX_MOTION_FILE_BYTES } from '../../../shared/ipc/validate';
import { optValue, parseArgs, UsageError, oneInputError, outputRequired } from '../args';
import type { CommandInfo } from '../io';
import { displayPath } from '../format';
import { guarded } from '../signals';
import { cliProgress } from '../progress';
import { loadMapping, OP_DETAILS, OP_SPECS, opOptions, prepare, resolveFileOptions, specFor } from './op-options';
import { failWith, jsonSuccess, printWarnings, reportLine } from './edit-output';
import { convertFirstMessage, wrongKindError } from '../file-kind';
import { fileKindByName } from '../../../shared/ipc/file-kind';
import { loadModelFile, modelOptionTakes } from '../../fs/model-file';

/** The edits that take a VPD pose as well (a .vpd in, a .vpd out: electron/batch/ops.ts poseEdit). */
const TAKES_POSES: readonly BatchOp[] = ['mirror'];

function singleFileCommand(op: BatchOp, summary: string): CommandInfo {
  const poses = TAKES_POSES.includes(op);
  const usage = `vmd-studio ${op} IN.vmd -o OUT.vmd ${OP_SPECS[op].help} [--overwrite] [--json] [--quiet]${poses ? `\n       vmd-studio ${op} IN.vpd -o OUT.vpd ${OP_SPECS[op].help} [--overwrite] [--json] [--quiet]   (a pose, written as a pose)` : ''}\n  ${OP_DETAILS[op]}`;
  return {
    summary,
    usage,
    async run(argv, io) {
      const a = parseArgs(argv, specFor(op, { values: ['output'], flags: ['overwrite', 'json', 'quiet'] }));
      if (a.positionals.length !== 1) throw oneInputError();
      const outArg = optValue(a, 'output');
      if (!outArg) throw outputRequired();
      const o = opOptions(op, a);
      resolveFileOptions(op, o, io);
      // A --model that is not a readable model is a problem of that file, exit status 1 as retarget's --to and
      // the imports' --model are (it was 2 here, said as a bad argument, from the batch's option check below).
      if (typeof o.model === 'string' && o.model !== '') {
        const m = await loadModelFile(o.model, modelOptionTakes('--model'));
        if (!m.ok) return failWith(io, m.error, o.model, [optValue(a, 'model') ?? o.model]);
      }
      await loadMapping(o, io);
      const prepared = prepare(op, o);
      const input = path.resolve(io.cwd, a.positionals[0]);
      const output = path.resolve(io.cwd, outArg);
      // These edit VMD motions and write VMD bytes: a pose or JSON goes through convert, before or after.
      // Mirror takes a pose as it is and writes a pose (a .vpd in, a .vpd out).
      const outExt = path.extname(output).toLowerCase();
      const pose = poses && fileKindByName(a.positionals[0]) === 'vpd';
      // A pose or JSON by its name is an input of the wrong kind: exit status 1, as one found by its content is.
      const convertFirst = pose ? null : convertFirstMessage(op, a.positionals[0]);
      if (convertFirst) return failWith(io, { code: 'E_VMD_MAGIC', message: convertFirst, file: input }, input, [a.positionals[0]]);
      if (pose && outExt !== '.vpd') throw new UsageError(`${op} of a pose writes a VPD pose: give -o a .vpd name (vmd-studio convert turns it into ${outExt === '.json' ? 'JSON' : 'a VMD'} afterwards)`);
      if (!pose && (outExt === '.json' || outExt === '.vpd')) throw new UsageError(`${op} writes a VMD motion: give -o a .vmd name (vmd-studio convert turns it into ${outExt === '.json' ? 'JSON' : 'a VPD'} afterwards)`);
      // Also through a link (-o a link to the input, or a path through a folder link to it).
      if (await sameFile(input, output)) throw new UsageError('the output must be a different file (inputs are never modified)');
      return guarded(async () => {
        const givens = [a.positionals[0], outArg];
        // Said before the work (a refit of a large dance takes seconds); the write checks again, atomically.
        const refused = await outputRefusal(output, a.flags.has('overwrite'));
        if (refused) return failWith(io, refused, output, givens);
        const r = await readInputBytes(input, { maxBytes: MAX_MOTION_FILE_BYTES });
        if (!r.ok) return failWith(io, r.error, input, givens);
        const wrong = wrongKindError(input, r.value, pose ? 'vpd' : 'vmd', op, a.positionals[0]);
        if (wrong) return failWith(io, wrong, input, givens);
        // A fit (reduce, bake, speed --refit) tells its tracks as it goes, mirror its keys: seconds on a large motion (progress.ts).
        const progress = cliProgress(io, op, op === 'mirror' ? 'keys' : 'tracks', a.flags.has('quiet'));
        const out = await prepared.run(r.value, path.extname(input).toLowerCase(), displayPath(input, a.positionals[0], io.cwd), progress.tell);
        progress.end();
        if (!out.ok) return failWith(io, out.error, input, givens);
        const w = await writeOutput(output, out.value.bytes, a.flags.has('overwrite'));
        if (!w.ok) return failWith(io, w.error, output, givens);
        if (a.flags.has('json')) jsonSuccess(io, { input, output, ...out.value.report });
        else if (!a.flags.has('quiet')) io.stdout(`${op}: ${displayPath(output, outArg, io.cwd)}: ${reportLine(out.value.report)}\n`);
        printWarnings(io, out.value.report, displayPath(input, a.positionals[0], io.cwd));
        return 0;
      });
    },
  };
}

export const mirrorCommand = singleFileCommand('mirror', 'mirror left/right (names 左⇄右 and Left⇄Right, positions, rotations, camera) of a motion or a pose; mirroring twice is the identity');
export const trimCommand = singleFileCommand('trim', 'keep frames A..B, holding the pose at A and re-fitting cut curves; reports the pose error');
export const speedCommand = singleFileCommand('speed', 'change speed by a factor (frame / K, rounded; --refit re-fits within tolerance, nothing dropped)');
export const shiftCommand = singleFileCommand('shift', 'move every key by N frames (--clip to cut what lands before 0)');
export const presetCommand = singleFileCommand('preset', 'set interpolation curves of selected bone/camera keys to a preset');
export const renameCommand = singleFileCommand('rename', 'rename/retarget bones (and morphs) from a JSON or CSV mapping');
export const reduceCommand = singleFileCommand('reduce', 'fewer keys within a tolerance (curves fitted, errors measured by playing both files)');
export const bakeCommand = singleFileCommand('bake', 'a key on every frame (for tools that want baked data)');
