/**
 * A bone or morph keyed in the app whose name is over a VMD key's 15 bytes of Shift_JIS is stored cut there, as MMD
 * stores it (shared/key-edits bone-key.ts, morph-key.ts). MMD matches the cut name to the model's bone or morph;
 * babylon-mmd and three.js match names exactly, so there the key does nothing. Said once per name in a session (a
 * notice on the first key of it), not on every drag.
 */
import { matchKey, namesSharingKey } from '../../../shared/pmx/model-inspect';
import { sjisLength } from '../../../shared/vmd/sjis';
import { useNotifyStore } from '../stores/notify';

/** The VMD name field of a bone or morph key, in bytes. */
const KEY_NAME_BYTES = 15;
const told = new Set<string>();

/**
 * Says (once per kind and name) that `name`'s keys are stored under a cut name; false when it fits or was said.
 * `modelNames`, the shown model's bones or morphs: where another of them is stored under the same cut name (Gene's
 * eye_surprise_geo_L and _R, both eye_surprise_ge), the notice says so instead, since a VMD cannot tell them apart and
 * a key of one is a key of both (new-user pass numorph 2: it said MMD plays the key "on the morph").
 */
export function tellCutName(kind: 'bone' | 'morph', name: string, modelNames: readonly string[] = []): boolean {
  const bytes = sjisLength(name);
  if (bytes <= KEY_NAME_BYTES || told.has(`${kind}:${name}`)) return false;
  told.add(`${kind}:${name}`);
  const others = namesSharingKey(name, modelNames);
  if (others.length) {
    useNotifyStore().info({ key: kind === 'bone' ? 'editor.boneNameShared' : 'editor.morphNameShared', params: { name, stored: matchKey(name), limit: KEY_NAME_BYTES, others: others.join(' / ') } });
    return true;
  }
  useNotifyStore().info({ key: kind === 'bone' ? 'editor.boneNameCut' : 'editor.morphNameCut', params: { name, stored: matchKey(name), bytes, limit: KEY_NAME_BYTES } });
  return true;
}

/** Forgets what was said (a test's fresh start). */
export function resetCutNames(): void {
  told.clear();
}
