/**
 * What `physics-bake` and `ik-bake` read alike: a model and a motion (in either order, told apart by their
 * extensions, or the model as --model), -o OUT, --from/--to, the tolerances; then OUT checked against the inputs and
 * the model and the motion read, a failure said as the commands say it.
 */
import path from 'node:path';
import { readInputBytes, sameAsAny } from '../../fs/files';
import { readVmdAs } from '../file-kind';
import { loadModelFile, modelOptionTakes } from '../../fs/model-file';
import { fileKindByName } from '../../../shared/ipc/file-kind';
import type { ModelData } from '../../../shared/pmx/model-types';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import { optNumber, optValue, UsageError, outputRequired, type ParsedArgs } from '../args';
import type { CliIo } from '../io';
import { failWith } from './edit-output';

/** A bake's files and range as given on the command line. */
export interface BakeArgs {
  modelArg: string | undefined;
  /** The model and the motion as given (the model first). */
  givens: string[];
  outArg: string;
  from: number | undefined;
  to: number | undefined;
}

/** The files and the range; `twoFiles` is the usage error when not a model and a motion are given without --model. */
export function bakeArgs(a: ParsedArgs, twoFiles: string): BakeArgs {
  const modelArg = optValue(a, 'model');
  if (modelArg !== undefined && a.positionals.length !== 1) throw new UsageError('with --model MODEL, give one motion (.vmd)');
  if (modelArg === undefined && a.positionals.length !== 2) throw new UsageError(twoFiles);
  // Without --model, the model and the motion in either order (told apart by their names' extensions).
  const swapped = modelArg === undefined && fileKindByName(a.positionals[0]) === 'vmd' && ['pmx', 'pmd'].includes(fileKindByName(a.positionals[1]) ?? '');
  const givens = modelArg !== undefined ? [modelArg, ...a.positionals] : swapped ? [a.positionals[1], a.positionals[0]] : a.positionals;
  const outArg = optValue(a, 'output');
  if (!outArg) throw outputRequired();
  const from = optNumber(a, 'from', { integer: true, min: 0 });
  const to = optNumber(a, 'to', { integer: true, min: 0 });
  if (from !== undefined && to !== undefined && to < from) throw new UsageError(`--to (${to}) must not be before --from (${from})`);
  return { modelArg, givens, outArg, from, to };
}

/** --pos-tol and/or --rot-tol, each a number greater than 0 or undefined (the engine's default), in the order named. */
export function bakeTolerances(a: ParsedArgs, names: readonly ('pos-tol' | 'rot-tol')[]): (number | undefined)[] {
  const values = names.map((name) => optNumber(a, name));
  names.forEach((name, i) => {
    const v = values[i];
    if (v !== undefined && !(v > 0)) throw new UsageError(`--${name} must be greater than 0`);
  });
  return values;
}

/** The inputs read: the model, the motion, their absolute paths and OUT's. */
export interface BakeInputs {
  model: ModelData;
  motion: VmdDocument;
  modelFile: string;
  motionFile: string;
  output: string;
}

/**
 * OUT checked against the inputs, then the model and the motion read for `command`; `modelAndMotion` is what a
 * motion given where the model belongs is told without --model. A failure is said, its exit status returned.
 */
export async function readBakeInputs(io: CliIo, command: string, b: BakeArgs, modelAndMotion: string): Promise<BakeInputs | number> {
  const { givens } = b;
  const [modelFile, motionFile] = givens.map((p) => path.resolve(io.cwd, p));
  const output = path.resolve(io.cwd, b.outArg);
  if (await sameAsAny([modelFile, motionFile], output)) throw new UsageError('the output must not be one of the inputs');
  const model = await loadModelFile(modelFile, b.modelArg === undefined ? modelAndMotion : modelOptionTakes('--model'));
  if (!model.ok) return failWith(io, model.error, modelFile, givens);
  const vb = await readInputBytes(motionFile);
  if (!vb.ok) return failWith(io, vb.error, motionFile, givens);
  const motion = readVmdAs(motionFile, vb.value, command, givens[1]);
  if (!motion.ok) return failWith(io, motion.error, motionFile, givens);
  return { model: model.value, motion: motion.value, modelFile, motionFile, output };
}
