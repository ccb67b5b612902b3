/**
 * The timeline's navigation commands, shared by the toolbar buttons, the range bar and the editor's keys:
 * previous/next key of the active track, the selected tracks or any track (as MMD's frame buttons),
 * zoom about the playhead, fit the motion or the selection, and range select (範囲選択). The maths is in
 * key-nav.ts and timeline-math.ts; this file reads the stores and applies the answers.
 */
import type { MotionTracks } from '../../../shared/vmd/tracks';
import { EDIT_KINDS, type EditKind } from '../../../shared/key-edits';
import { useWorkspaceStore } from '../stores/workspace';
import { useSelectionStore } from '../stores/selection';
import { useSettingsStore } from '../stores/settings';
import { useTimeStore } from '../stores/time';
import { useNotifyStore } from '../stores/notify';
import { adjacentKeyFrame, allTracks, frameSpan, keysInRange, tracksOfKeys, tracksWithKeysInRange, type TrackId, type TrackScope } from './key-nav';
import type { FollowMode } from './timeline-math';
import type { TimelineView } from './timeline-view';

/** The settings.ui key of the follow mode ('page' | 'smooth'). */
export const FOLLOW_SETTING = 'timeline.follow';
/** How much one zoom step (button, + / − key) multiplies the pixels per frame. */
export const ZOOM_STEP = 1.4;

export function useTimelineNav(tv: TimelineView) {
  const docStore = useWorkspaceStore();
  const sel = useSelectionStore();
  const time = useTimeStore();
  const settings = useSettingsStore();

  const tracks = () => docStore.tracks as MotionTracks | null;
  function counts(): Record<EditKind, number> {
    const d = docStore.doc!;
    return Object.fromEntries(EDIT_KINDS.map((k) => [k, d[k].count])) as Record<EditKind, number>;
  }

  /**
   * The selected tracks of the last jump, while the selection is still the one it made (its keys at one
   * frame may sit on fewer tracks than were selected: the next jump keeps to all of them).
   */
  let lastJump: { version: number; doc: unknown; ids: TrackId[] } | null = null;

  /** The tracks a scope names right now. */
  function scopeTracks(scope: TrackScope): TrackId[] {
    const t = tracks();
    if (!t || !docStore.doc) return [];
    if (scope === 'all') return allTracks(t);
    if (scope === 'active') return sel.activeTrack ? [sel.activeTrack] : [];
    if (lastJump && lastJump.version === sel.version && lastJump.doc === docStore.doc) return lastJump.ids;
    return tracksOfKeys(t, sel.refs, counts(), sel.activeTrack);
  }

  /**
   * Goes to the previous (dir −1) or next key of the scope's tracks; false when there is none. With no active
   * track (a file just opened), 'active' goes by every track, as MMD's frame buttons step through the whole motion
   * with nothing picked: `[` / `]` right after opening did nothing and said nothing (docs pass, docsfix 7). The keys
   * there on those tracks become the selection (the active track's key the active one), so the key and
   * curve panes show the key landed on and edits go to it, not to the key selected before.
   */
  function jumpKey(dir: 1 | -1, scope: TrackScope = tv.nav.scope): boolean {
    const t = tracks();
    if (!t) return false;
    const ids = scope === 'active' && !sel.activeTrack ? scopeTracks('all') : scopeTracks(scope);
    const f = adjacentKeyFrame(t, ids, time.frame, dir);
    if (f === null) return false;
    time.pause();
    time.seek(f);
    tv.reveal(f);
    const keys = keysInRange(t, ids, f, f);
    if (keys.length) {
      sel.select(keys, 'replace');
      const own = sel.activeTrack ? keysInRange(t, [sel.activeTrack], f, f)[0] : undefined;
      if (own) sel.active = own;
      lastJump = { version: sel.version, doc: docStore.doc, ids };
    }
    return true;
  }

  function zoom(factor: number) {
    tv.zoomAbout(time.frame, factor);
  }
  /**
   * Fits the active motion (in a scene, not the scene's longest document) and the song, which the motion is
   * keyed along (so F shows the frames past the last key up to the music's end); the time line when neither has length.
   */
  function fitMotion() {
    tv.fit(Math.max(docStore.tracks?.lastFrame ?? 0, time.musicEnd) || time.lastFrame);
  }
  /** Zooms to the selected keys' frames; false when nothing is selected. */
  function fitSelection(): boolean {
    const t = tracks();
    if (!t || !docStore.doc || !sel.count) return false;
    const s = frameSpan(t, sel.refs, counts());
    if (!s) return false;
    tv.fitFrames(s[0], s[1]);
    return true;
  }

  const followMode = (): FollowMode => (settings.settings.ui?.[FOLLOW_SETTING] === 'smooth' ? 'smooth' : 'page');
  function setFollowMode(mode: FollowMode) {
    void settings.update({ ui: { ...settings.settings.ui, [FOLLOW_SETTING]: mode } });
  }

  /** The tracks range select works on: 'all', 'active', 'selected', or a group row's id. */
  function rangeTracks(choice: string): TrackId[] | null {
    if (choice === 'all' || choice === 'active' || choice === 'selected') {
      const ids = scopeTracks(choice);
      return choice === 'active' && !ids.length ? null : ids;
    }
    const g = tv.ownRows.value.find((r) => r.type === 'group' && r.id === choice);
    return g && g.type === 'group' ? g.members.map((m) => ({ kind: m.kind, track: m.track })) : [];
  }

  /**
   * Range select: every key of the chosen tracks from frame `from` to `to` (inclusive) replaces the
   * selection (or joins it with `add`). Returns how many keys and the tracks they are on, or null when the
   * choice names no track (no active track).
   */
  function selectRange(from: number, to: number, choice: string, add = false): { keys: number; tracks: TrackId[] } | null {
    const t = tracks();
    if (!t) return { keys: 0, tracks: [] };
    const ids = rangeTracks(choice);
    if (!ids) return null;
    const keys = keysInRange(t, ids, from, to);
    sel.select(keys, add ? 'add' : 'replace');
    // Show the selected keys when they are off screen (a range typed far from the view): all of them when
    // they fit at this zoom, else from the first. The chosen tracks' first key from the range's start on,
    // and their last key up to its end.
    const first = keys.length ? adjacentKeyFrame(t, ids, Math.min(from, to) - 1, 1) : null;
    const last = keys.length ? adjacentKeyFrame(t, ids, Math.max(from, to) + 1, -1) : null;
    if (first !== null) tv.revealSpan(first, last ?? first);
    return { keys: keys.length, tracks: keys.length ? tracksWithKeysInRange(t, ids, from, to) : [] };
  }

  /** Opens (or closes) the range bar (its fields: the whole motion when opened, then as last typed). */
  function toggleRange(open = !tv.nav.rangeOpen) {
    if (open && !tv.nav.rangeFrom && !tv.nav.rangeTo) tv.nav.rangeTo = time.lastFrame;
    tv.nav.rangeOpen = open;
  }

  /**
   * The play range's button and L: with a range set, it ends (the whole time line plays again); else the
   * selected keys' frames become the range and play in a loop, the music from the range's start each pass
   * (stores/music.ts). False, with a notice saying how to set one, when the keys selected span no frames.
   */
  function togglePlayRange(): boolean {
    if (time.range) {
      time.clearRange();
      return true;
    }
    const t = tracks();
    const s = t && docStore.doc && sel.count ? frameSpan(t, sel.refs, counts()) : null;
    if (!s || !time.setPlayRange(s[0], s[1])) {
      useNotifyStore().info({ key: 'timeline.playRangeNone' });
      return false;
    }
    tv.revealSpan(s[0], s[1]);
    time.play();
    return true;
  }

  return { scopeTracks, toggleRange, togglePlayRange, jumpKey, zoom, fitMotion, fitSelection, followMode, setFollowMode, selectRange };
}
