/**
 * The motion the Simplify tests open: センター moves smoothly with a key on every frame 0..60
 * (records 0..60), 左腕 likewise (records 61..121); and the selection of センター's keys 10..50.
 */
import { blockFromRecords, emptyVmd, encodeBoneRecord, readVmd, writeVmd, type VmdDocument } from '../../../shared/vmd';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useSelectionStore } from '../../../renderer/src/stores/selection';

export const CENTER_KEYS_10_TO_50 = Array.from({ length: 41 }, (_, i) => ({ kind: 'bone' as const, record: 10 + i }));

/** Opens the motion (a lone motion in the workspace); returns its bytes. */
export function openSmoothMotion(): Uint8Array {
  const recs: Uint8Array[] = [];
  for (let f = 0; f <= 60; f++) recs.push(encodeBoneRecord({ name: 'センター', frame: f, position: [Math.sin(f / 8), 0, 0], rotation: [0, 0, 0, 1] }));
  for (let f = 0; f <= 60; f++) recs.push(encodeBoneRecord({ name: '左腕', frame: f, position: [0, Math.cos(f / 8), 0], rotation: [0, 0, 0, 1] }));
  const bytes = writeVmd({ ...emptyVmd('m'), bone: blockFromRecords('bone', recs) });
  useSceneStore().openBytes('m.vmd', bytes, null);
  return bytes;
}

/** Opens it and selects センター's keys at frames 10..50. */
export function openAndSelect(): Uint8Array {
  const bytes = openSmoothMotion();
  useSelectionStore().select(CENTER_KEYS_10_TO_50);
  return bytes;
}

export function readBack(bytes: Uint8Array): VmdDocument {
  const r = readVmd(bytes);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
