/**
 * What a screen reader hears of an edit (WCAG 4.1.3 status messages): the history step done, undone or redone
 * ("Register key (dance.vmd)", "Undo: register key (dance.vmd)"), then the selection it leaves ("Key 上半身, frame
 * 30"); and, alone, a change of the selected key or the active track (↑/↓, [/]). Nothing else spoke of these: the
 * only live region was the notices', and the undo button's new title is not announced. Announcer.vue puts the
 * text in a polite live region, once things have settled (a held ↑ or a box drag says where it ended, not every
 * row on the way; playback changes neither, so it says nothing while playing).
 */
import { EDIT_KINDS, type EditKind } from '../../../shared/key-edits';
import { trackRange } from '../../../shared/key-edits/key-ref';
import type { MotionTracks } from '../../../shared/vmd/tracks';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import { boneName, frameOf, morphName } from '../../../shared/vmd/records';
import type { UiStringKey } from '../../../shared/i18n/strings';

type T = (key: UiStringKey, params?: Record<string, string | number>) => string;

/** What a change of the history stacks was, from their tops before and after (steps move between the stacks as they are). */
export function historyChange<S>(before: { undo?: S; redo?: S }, after: { undo?: S; redo?: S }): { way: 'do' | 'undo' | 'redo'; step: S } | null {
  if (before.redo !== undefined && after.undo === before.redo) return { way: 'redo', step: before.redo };
  if (before.undo !== undefined && after.redo === before.undo) return { way: 'undo', step: before.undo };
  if (after.undo !== undefined && after.undo !== before.undo) return { way: 'do', step: after.undo };
  return null;
}

/** The words for a history step: `label` in the UI's language (edit-labels.ts), `doc` whose it is. */
export function historyText(way: 'do' | 'undo' | 'redo', label: string, doc: string, t: T): string {
  const key: UiStringKey = way === 'undo' ? 'announce.undo' : way === 'redo' ? 'announce.redo' : 'announce.do';
  // Japanese in full-width brackets (nujp 9: 「キー登録 (…)」 mixed half-width ones into a Japanese sentence).
  return t(key, { label, doc: doc ? t('announce.doc', { doc }) : '' });
}

/** A camera, light, self-shadow or display·IK track's name; a bone's or morph's is its own. */
function kindName(kind: EditKind, t: T): string {
  return t(kind === 'camera' ? 'inspector.camera' : kind === 'light' ? 'inspector.light' : kind === 'shadow' ? 'inspector.shadow' : 'inspector.ik');
}

export interface SelectionView {
  count: number;
  active: { kind: EditKind; record: number } | null;
  activeTrack: { kind: EditKind; track: number } | null;
}

/**
 * The selection in words: one key ("Key 上半身, frame 30"), several ("12 keys selected"), or none and the active
 * track ("Track センター, 1 key"); '' with nothing to say (no document, no track).
 */
export function selectionText(sel: SelectionView, doc: VmdDocument | null, tracks: MotionTracks | null, t: T): string {
  if (!doc) return '';
  const a = sel.active;
  if (sel.count === 1 && a && EDIT_KINDS.includes(a.kind) && a.record < doc[a.kind].count) {
    const name = a.kind === 'bone' ? boneName(doc.bone, a.record) : a.kind === 'morph' ? morphName(doc.morph, a.record) : kindName(a.kind, t);
    return t('announce.key', { name, frame: frameOf(doc[a.kind], a.record) });
  }
  if (sel.count > 1) return t('announce.keys', { n: sel.count });
  const tr = sel.activeTrack;
  if (!tr || !tracks) return '';
  if (tr.kind === 'bone' || tr.kind === 'morph') {
    const tt = tr.kind === 'bone' ? tracks.bones : tracks.morphs;
    if (tr.track < 0 || tr.track >= tt.names.length) return '';
    const [from, to] = trackRange(tt, tr.track);
    return t('announce.track', { name: tt.names[tr.track], n: to - from });
  }
  return t('announce.track', { name: kindName(tr.kind, t), n: doc[tr.kind].count });
}
