/**
 * A model's name in a motion's header, as every path that writes one from a model writes it (New motion in the
 * app, retarget, BVH/VRMA import, VPD → VMD, a motion built from poses). MMD cuts a name longer than the field
 * to its first bytes; so do we, at a character (never half of one), and say so: a header that silently lost its
 * name, or a tail, leaves the user guessing which model a motion was made for.
 */
import type { Diagnostic } from './errors';
import { encodable, fitNameField, sjisLength } from './sjis';
import { MODEL_NAME_LENGTH_V2 } from './vmd-layout';

/** How the warning about a cut model name begins in English (the CLI names the model's file before it). */
export const MODEL_NAME_NOTE_START = "the model's name ";

export interface ModelNameField {
  /** The zero-padded field, `length` bytes. */
  field: Uint8Array;
  /** The name as the field now holds it. */
  written: string;
  /**
   * Null when the name was written whole; else W_MODEL_NAME_LONG (over `length` bytes in Shift_JIS) or
   * W_MODEL_NAME_SJIS (characters Shift_JIS lacks, written as '?'), with params { name, written, bytes, limit }
   * for the app's own wording (bytes is 0 for W_MODEL_NAME_SJIS).
   */
  note: Diagnostic | null;
}

/** `name` in a model-name field of `length` bytes (20 in a version-0002 motion, 10 in a 0001 one). */
export function modelNameField(name: string, length: number = MODEL_NAME_LENGTH_V2): ModelNameField {
  const { field, written } = fitNameField(name, length);
  if (written === name) return { field, written, note: null };
  const sjis = encodable(name);
  const bytes = sjis ? sjisLength(name) : 0;
  const why = sjis ? `is ${bytes} bytes in Shift_JIS, more than the ${length} a VMD's header holds` : 'has characters Shift_JIS lacks';
  return {
    field,
    written,
    note: { code: sjis ? 'W_MODEL_NAME_LONG' : 'W_MODEL_NAME_SJIS', message: `${MODEL_NAME_NOTE_START}"${name}" ${why}: written as "${written}"`, params: { name, written, bytes, limit: length } },
  };
}
