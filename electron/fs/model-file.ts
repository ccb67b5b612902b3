/**
 * The one reader of a model file given on the command line or to the batch (--model, --from, --to, and
 * physics-bake's MODEL): read as an input document is (a folder, a device, a file past the bound or an
 * empty one refused with the reason), then named as what it is when it is not a model ("a VMD motion,
 * not a PMX or PMD model"), then parsed. Errors name the file. The CLI reads it asynchronously; the batch
 * prepares its operation synchronously (once per worker), so it reads it with loadModelFileSync.
 */
import { readFileSync, statSync } from 'node:fs';
import { emptyFileError, ioError, MAX_INPUT_BYTES, notRegularFileError, readInputBytes, tooLargeError, type IoResult } from './files';
import { fileKindName, fileKindOf } from '../../shared/ipc/file-kind';
import { failure, success, type Outcome } from '../../shared/vmd';
import { readModel, type ModelData } from '../../shared/pmx';
import { standardFigureModel } from '../../shared/skeleton/standard-figure';

/**
 * The model in `bytes` read from `file`. `takes` says where a model is asked for (modelOptionTakes('--to'),
 * or physics-bake's order of arguments): a motion or a capture given there is named as what it is, with that.
 */
export function modelFromBytes(file: string, bytes: Uint8Array, takes: string): Outcome<ModelData> {
  const kind = fileKindOf(file, bytes);
  if (kind !== null && kind !== 'pmx' && kind !== 'pmd') {
    return failure({ code: 'E_PMX_MAGIC', message: `${fileKindName(kind, bytes)}, not a PMX or PMD model: ${takes}`, file });
  }
  const m = readModel(bytes);
  return m.ok ? success(m.value) : failure({ ...m.error, file });
}

/** What an option that names a model takes, for modelFromBytes. */
export function modelOptionTakes(option: string): string {
  return `${option} takes a model (.pmx, .pmd)`;
}

/** The PMX/PMD model at `file` (see modelFromBytes), or with `null` the standard MMD skeleton, the preview's built-in figure. */
export async function loadModelFile(file: string | null, takes: string): Promise<Outcome<ModelData>> {
  if (file === null) return success(standardFigureModel());
  const r = await readInputBytes(file);
  return r.ok ? modelFromBytes(file, r.value, takes) : failure(r.error);
}

/** loadModelFile for the batch's synchronous preparation: the same checks and errors. */
export function loadModelFileSync(file: string, takes: string): Outcome<ModelData> {
  const r = readInputBytesSync(file);
  return r.ok ? modelFromBytes(file, r.value, takes) : failure(r.error);
}

/** readInputBytes's refusals, synchronously, for a file a person named on the command line (not swapped under us). */
function readInputBytesSync(file: string): IoResult<Uint8Array> {
  try {
    const st = statSync(file);
    if (!st.isFile()) return { ok: false, error: notRegularFileError(file, st) };
    if (st.size > MAX_INPUT_BYTES) return { ok: false, error: tooLargeError(file, st.size, MAX_INPUT_BYTES) };
    if (st.size === 0) return { ok: false, error: emptyFileError(file) };
    const b = readFileSync(file);
    return { ok: true, value: new Uint8Array(b.buffer, b.byteOffset, b.byteLength) };
  } catch (e) {
    return { ok: false, error: ioError(e, file) };
  }
}
