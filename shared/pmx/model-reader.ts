/** Reads a PMX or PMD model, telling them apart by their magic bytes. */
import { fail, type Diagnostic, type Result } from '../vmd/errors';
import type { ModelData } from './model-types';
import { isPmd, readPmd } from './pmd-reader';
import { isPmx, readPmx } from './pmx-reader';

/** True when the bytes start like a PMX or PMD model. */
export function isModel(bytes: Uint8Array): boolean {
  return isPmx(bytes) || isPmd(bytes);
}

/**
 * A reader's note on anything but the physics section: the model's own repairs. (A physics section it
 * could not read is `physicsError`, which `inspect` and the preview say on their own line.)
 */
export function isRepairNote(d: Diagnostic): boolean {
  return d.code !== 'W_PMX_PHYSICS' && d.code !== 'W_PMD_PHYSICS';
}

/** Parses a PMX (2.0/2.1) or PMD model. Errors are values with byte offsets; never throws. */
export function readModel(bytes: Uint8Array): Result<ModelData> {
  if (isPmx(bytes)) return readPmx(bytes);
  if (isPmd(bytes)) return readPmd(bytes);
  return fail('E_PMX_MAGIC', 'not a PMX or PMD model: it starts with neither "PMX " nor "Pmd"', 0);
}
