/**
 * Lip sync by tapping (the morph panel's mode: MorphPanel.vue; its keys A I U E O N W M X, shell/shortcuts.ts): a tap
 * keys one mouth shape of the shown model at the playhead at the chosen weight and every other mouth shape 0 there
 * (shared/key-edits/lip-sync.ts keyMouthShape), one undo step. While the song plays the key lands on the frame playing
 * and playback goes on (a line is keyed by ear in one pass); paused, the playhead then steps forward by the chosen
 * frames, so a line is tapped through syllable by syllable.
 */
import { computed } from 'vue';
import { findMouthShapes, keyMouthShape, locate, MOUTH_SHAPE_LABEL, type MouthShape } from '../../../shared/key-edits';
import { useHistoryStore } from '../stores/history';
import { useLipSyncStore } from '../stores/lip-sync';
import { useNotifyStore } from '../stores/notify';
import { usePreviewStore } from '../stores/preview';
import { useSelectionStore } from '../stores/selection';
import { useTimeStore } from '../stores/time';
import { useWorkspaceStore } from '../stores/workspace';
import { readyFaceDocument } from '../shell/app-actions';
import { PLAYHEAD_MAX } from '../stores/time';

/** The key (KeyboardEvent.key, lower case) of each tap in the mode: N is ん, or closed on a model without one; M is ω. */
export const LIP_SYNC_KEYS: Record<string, MouthShape | 'closed'> = { a: 'a', i: 'i', u: 'u', e: 'e', o: 'o', n: 'n', w: 'wa', m: 'omega', x: 'closed' };

export function useLipSync() {
  const ls = useLipSyncStore();
  const preview = usePreviewStore();
  const docStore = useWorkspaceStore();
  const time = useTimeStore();
  const sel = useSelectionStore();

  /** The shown model's mouth-shape morphs, and the vowels it lacks. */
  const shapes = computed(() => findMouthShapes(preview.modelOutline?.morphs ?? []));

  /**
   * One tap: `shape` keyed at the store's weight (ん on a model without one: the mouth closed), the other shapes 0,
   * at the playhead, one undo step; the tapped key selected. A shape the model lacks is said, not keyed. False when
   * nothing was keyed.
   */
  function tap(shape: MouthShape | 'closed'): boolean {
    const { found } = shapes.value;
    if (!Object.keys(found).length) {
      useNotifyStore().warning({ key: 'lipSync.none' });
      return false;
    }
    let pick = shape;
    if (pick === 'n' && !found.n) pick = 'closed';
    if (pick !== 'closed' && !found[pick]) {
      useNotifyStore().warning({ key: 'lipSync.shapeMissing', params: { shape: MOUTH_SHAPE_LABEL[pick] } });
      return false;
    }
    const playing = time.playing;
    const frame = Math.max(0, Math.round(time.frame));
    // The face of the shown actor (with the camera document active, the actor's); no motion open: a new one.
    const ready = readyFaceDocument();
    if (!ready) return false;
    if (ready === 'started') time.seek(frame);
    let records: number[] = [];
    const r = useHistoryStore().run((doc, tracks) => {
      const out = keyMouthShape(doc, tracks, frame, found, pick, ls.weight);
      if (out.ok) records = out.value.records;
      return out;
    });
    if (!r) return false;
    ls.last = { shape: pick, frame };
    const tracks = docStore.tracks, doc = docStore.doc;
    // The tapped key becomes the selection and its row the active track (the Key panel shows it); closed: the column.
    const keys = records.map((record) => ({ kind: 'morph' as const, record }));
    if (keys.length) {
      const loc = tracks && doc ? locate(tracks, keys[0], doc.morph.count) : null;
      if (loc && pick !== 'closed') sel.setActiveTrack({ kind: 'morph', track: loc.track });
      sel.select(pick === 'closed' ? keys : [keys[0]], 'replace');
    }
    // Paused: on to the next syllable's frame. Playing: the song moves the playhead.
    if (!playing && ls.step > 0) time.seek(Math.min(PLAYHEAD_MAX, frame + ls.step));
    return true;
  }

  return { shapes, tap };
}
