/** Reads a PMX or PMD model, telling them apart by their magic bytes. */
import { fail, type Result } from '../vmd/errors';
import type { ModelData } from './model-types';
import { isPmd, readPmd } from './pmd-reader';
import { isPmx, readPmx } from './pmx-reader';

/** True when the bytes start like a PMX or PMD model. */
export function isModel(bytes: Uint8Array): boolean {
  return isPmx(bytes) || isPmd(bytes);
}

/** Parses a PMX (2.0/2.1) or PMD model. Errors are values with byte offsets; never throws. */
export function readModel(bytes: Uint8Array): Result<ModelData> {
  if (isPmx(bytes)) return readPmx(bytes);
  if (isPmd(bytes)) return readPmd(bytes);
  return fail('E_PMX_MAGIC', 'not a PMX or PMD model: it starts with neither "PMX " nor "Pmd"', 0);
}
