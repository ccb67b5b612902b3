/**
 * What the key-edit tests share: the edit an outcome carries (a refusal fails the test with its message),
 * and a VMD's document (bytes that do not read fail the test).
 */
import type { EditOutcome, KeyEdit } from '../../shared/key-edits';
import { readVmd, type VmdDocument } from '../../shared/vmd';

export function accepted<T extends KeyEdit>(o: EditOutcome<T>): T {
  if (!o.ok) throw new Error('refused: ' + o.error.message);
  return o.value;
}

export function readOk(bytes: Uint8Array): VmdDocument {
  const r = readVmd(bytes);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
