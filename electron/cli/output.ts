/**
 * Output rules for single-file commands: `-o OUT` names the output, so an existing OUT is replaced
 * (atomically) — but never one of the inputs unless --overwrite says so. (Batch runs differ: there an
 * existing output is kept unless --overwrite.)
 */
import path from 'node:path';
import { realpathSync } from 'node:fs';
import { atomicWrite, type IoResult } from '../fs/files';

function canonical(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** Writes a single-file command's output; refuses to replace an input without `overwriteInputs`. */
export async function writeOutput(output: string, bytes: Uint8Array, inputs: string[], overwriteInputs: boolean): Promise<IoResult<void>> {
  const out = canonical(output);
  if (!overwriteInputs && inputs.some((i) => canonical(i) === out)) {
    return { ok: false, error: { code: 'E_IO_EXISTS', message: 'the output is one of the inputs; add --overwrite to replace it', file: output } };
  }
  return atomicWrite(output, bytes, { overwrite: true });
}
