/**
 * Output rules for single-file commands: `-o OUT` names the output, so an existing OUT is replaced
 * (atomically) — but never one of the inputs unless --overwrite says so. (Batch runs differ: there an
 * existing output is kept unless --overwrite.)
 */
import { atomicWrite, sameAsAny, type IoResult } from '../fs/files';

/** Writes a single-file command's output; refuses to replace an input without `overwriteInputs`. */
export async function writeOutput(output: string, bytes: Uint8Array, inputs: string[], overwriteInputs: boolean): Promise<IoResult<void>> {
  if (!overwriteInputs && (await sameAsAny(inputs, output))) {
    return { ok: false, error: { code: 'E_IO_EXISTS', message: 'the output is one of the inputs; add --overwrite to replace it', file: output } };
  }
  return atomicWrite(output, bytes, { overwrite: true });
}
