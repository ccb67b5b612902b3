/**
 * How a one-file command writes its `-o OUT`, the same rule for every command (convert included): an existing
 * OUT is kept unless --overwrite ("output exists (use --overwrite to replace it)", exit status 1), and the
 * output is never one of the inputs, --overwrite or not (each command refuses that as a bad argument before
 * reading, through links too: sameFile). Batch runs keep existing outputs unless --overwrite as well.
 */
import { atomicWrite, type IoResult } from '../fs/files';

/** Writes a one-file command's output atomically; an existing file is replaced only with `overwrite`. */
export function writeOutput(output: string, bytes: Uint8Array, overwrite: boolean): Promise<IoResult<void>> {
  return atomicWrite(output, bytes, { overwrite });
}
