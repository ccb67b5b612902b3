/**
 * A bone or morph keyed in the app whose name is over a VMD key's 15 bytes of Shift_JIS is stored cut there, as MMD
 * stores it (shared/key-edits bone-key.ts, morph-key.ts). MMD matches the cut name to the model's bone or morph;
 * babylon-mmd and three.js match names exactly, so there the key does nothing. Said once per name in a session (a
 * notice on the first key of it), not on every drag.
 */
import { matchKey } from '../../../shared/pmx/model-inspect';
import { sjisLength } from '../../../shared/vmd/sjis';
import { useNotifyStore } from '../stores/notify';

/** The VMD name field of a bone or morph key, in bytes. */
const KEY_NAME_BYTES = 15;
const told = new Set<string>();

/** Says (once per kind and name) that `name`'s keys are stored under a cut name; false when it fits or was said. */
export function tellCutName(kind: 'bone' | 'morph', name: string): boolean {
  const bytes = sjisLength(name);
  if (bytes <= KEY_NAME_BYTES || told.has(`${kind}:${name}`)) return false;
  told.add(`${kind}:${name}`);
  useNotifyStore().info({ key: kind === 'bone' ? 'editor.boneNameCut' : 'editor.morphNameCut', params: { name, stored: matchKey(name), bytes, limit: KEY_NAME_BYTES } });
  return true;
}

/** Forgets what was said (a test's fresh start). */
export function resetCutNames(): void {
  told.clear();
}
