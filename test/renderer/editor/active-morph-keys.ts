// What the lip-sync tests read back from the active document: every morph key, and the bytes Save would write.
import { buildTracks, writeVmd } from '../../../shared/vmd';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';

/** (name, frame) → weight of every morph key of the active document. */
export function keys(): Map<string, number> {
  const t = buildTracks(useWorkspaceStore().doc!).morphs, out = new Map<string, number>();
  t.names.forEach((n, i) => {
    for (let k = t.start[i]; k < t.start[i + 1]; k++) out.set(`${n}@${t.frames[k]}`, t.weight[k]);
  });
  return out;
}
/** The active document as Save writes it. */
export const bytes = () => Buffer.from(writeVmd(useWorkspaceStore().doc!));
