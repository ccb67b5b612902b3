/**
 * Export VPD at Frame…'s first question: what of the pose goes in (shared/vmd/vpd-parts.ts) — the selected bones and
 * morphs (the tracks of the selected keys and the active row: finger keys selected → a hand pose; a column of morph
 * keys → a face preset), the whole pose, its bones or its morphs — each choice with the counts it would write.
 * The selection is the default when there is one, as MMD's ポーズデータ保存 saves the bones selected in its bone
 * frame; else the whole pose. VpdExportDialog.vue shows the question; the file dialog comes after it.
 */
import { reactive } from 'vue';
import { locate, type EditKind, type KeyRef } from '../../../shared/key-edits';
import type { VmdDocument } from '../../../shared/vmd';
import type { MotionTracks } from '../../../shared/vmd/tracks';
import type { VpdPose } from '../../../shared/vmd/vpd';
import { vpdPart, type VpdParts, type VpdSelection } from '../../../shared/vmd/vpd-parts';

export const VPD_PARTS: readonly VpdParts[] = ['selected', 'all', 'bones', 'morphs'];

export interface VpdPartsRequest {
  frame: number;
  /** What each choice would write. */
  counts: Record<VpdParts, { bones: number; morphs: number }>;
  /** The choice shown first: 'selected' when the selection names a bone or morph the pose has, else 'all'. */
  initial: VpdParts;
}

/** The question the dialog is showing (null = closed). */
export const vpdPartsState = reactive({
  request: null as VpdPartsRequest | null,
  resolve: null as ((p: VpdParts | null) => void) | null,
});

/** Shows the question; resolves with the choice, or null on Cancel. A new question cancels a pending one. */
export function askVpdParts(req: VpdPartsRequest): Promise<VpdParts | null> {
  vpdPartsState.resolve?.(null);
  return new Promise((resolve) => {
    vpdPartsState.request = req;
    vpdPartsState.resolve = (p) => {
      vpdPartsState.request = null;
      vpdPartsState.resolve = null;
      resolve(p);
    };
  });
}

/**
 * The bone and morph names of the selected keys' tracks and of the active row (a bone picked in the bone list
 * makes its row active), as the timeline's "selected tracks" (editor/key-nav.ts tracksOfKeys) are.
 */
export function selectedNames(doc: VmdDocument, tracks: MotionTracks, refs: readonly KeyRef[], active: { kind: EditKind; track: number } | null): VpdSelection {
  const bones = new Set<string>(), morphs = new Set<string>();
  const add = (kind: EditKind, track: number) => {
    const name = kind === 'bone' ? tracks.bones.names[track] : kind === 'morph' ? tracks.morphs.names[track] : undefined;
    if (name !== undefined) (kind === 'bone' ? bones : morphs).add(name);
  };
  if (active) add(active.kind, active.track);
  for (const r of refs) {
    if (r.kind !== 'bone' && r.kind !== 'morph') continue;
    const loc = locate(tracks, r, doc[r.kind].count);
    if (loc) add(r.kind, loc.track);
  }
  return { bones, morphs };
}

/** The question for `pose` (the whole pose at `frame`) and the selection. */
export function vpdPartsRequest(pose: VpdPose, selected: VpdSelection, frame: number): VpdPartsRequest {
  const counts = Object.fromEntries(
    VPD_PARTS.map((p) => {
      const part = vpdPart(pose, p, selected);
      return [p, { bones: part.bones.length, morphs: part.morphs.length }];
    }),
  ) as VpdPartsRequest['counts'];
  const s = counts.selected;
  return { frame, counts, initial: s.bones + s.morphs > 0 ? 'selected' : 'all' };
}
