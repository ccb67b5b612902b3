/** Model inspection for `inspect MODEL.pmx` and `inspect MOTION --model MODEL` (wired to shared/pmx once it lands). */
import type { CliIo } from '../io';

export async function modelInspection(_model: string, _motion: unknown, _json: boolean, io: CliIo): Promise<boolean> {
  io.stderr('vmd-studio: model inspection is not available in this build\n');
  return false;
}
