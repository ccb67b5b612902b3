/**
 * How a one-file command writes its `-o OUT`, the same rule for every command (convert included): an existing
 * OUT is kept unless --overwrite ("output exists (use --overwrite to replace it)", exit status 1), and the
 * output is never one of the inputs, --overwrite or not (each command refuses that as a bad argument before
 * reading, through links too: sameFile). Batch runs keep existing outputs unless --overwrite as well.
 * --overwrite never replaces a read-only file (its owner's write bit off, even for root; or one this user may not
 * write): "the file is read-only, so --overwrite does not replace it" (E_IO_DENIED, exit 1), as the app's saves
 * refuse one (files.ts isReadOnlyFile) — a file marked read-only is someone's "do not write this".
 */
import { atomicWrite, type IoResult } from '../fs/files';

/** Writes a one-file command's output atomically; an existing file is replaced only with `overwrite`, and only when not read-only. */
export function writeOutput(output: string, bytes: Uint8Array, overwrite: boolean): Promise<IoResult<void>> {
  return atomicWrite(output, bytes, { overwrite, keepReadOnly: true });
}
