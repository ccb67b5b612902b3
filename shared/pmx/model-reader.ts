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

/** "PMX 2.0", "PMX 2.1", "PMD 1.0": a model's format and version as PMX Editor names them. */
export function modelFormatText(m: Pick<ModelData, 'format' | 'version'>): string {
  return `${m.format.toUpperCase()} ${m.version.toFixed(1)}`;
}

/**
 * Parses a PMX (2.0/2.1) or PMD model. Errors are values with byte offsets; never throws. With the file's
 * name, a model whose extension says the other format gets a note (W_MODEL_EXTENSION): it is read as what its
 * bytes are, but MMD picks its reader by the extension and would not load it.
 */
export function readModel(bytes: Uint8Array, fileName?: string): Result<ModelData> {
  const r = isPmx(bytes) ? readPmx(bytes) : isPmd(bytes) ? readPmd(bytes) : null;
  if (!r) return fail('E_PMX_MAGIC', 'not a PMX or PMD model: it starts with neither "PMX " nor "Pmd"', 0);
  if (!r.ok || fileName === undefined) return r;
  const ext = /\.(pmx|pmd)$/i.exec(fileName)?.[1].toLowerCase();
  if (ext && ext !== r.value.format) {
    const file = fileName.split(/[\\/]/).pop() ?? fileName;
    const format = modelFormatText(r.value);
    const params = { file, format, ext: `.${r.value.format}` };
    r.diagnostics.unshift({ code: 'W_MODEL_EXTENSION', message: `${file} is a ${format} model: MMD reads by extension; rename it .${r.value.format}`, params });
  }
  return r;
}
