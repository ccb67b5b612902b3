/**
 * Shared view state of the track list and the timeline (one per editor): the rows (frame groups and
 * tracks, built from the tracks when the document changes), which groups are collapsed, horizontal
 * scroll/zoom and vertical scroll. The track list (DOM) and the timeline (canvas) read the same rows
 * and scroll together.
 */
import { computed, inject, provide, reactive, ref, type InjectionKey } from 'vue';
import { groupBones, type EditKind } from '../../../shared/key-edits';
import type { MotionTracks } from '../../../shared/vmd/tracks';
import { useDocumentStore } from '../stores/document';
import { fitRange, followFrame, initialView, medianKeyGap, minFrameStart, ROW_HEIGHT, rowsTop, zoomAtFrame, zoomAtX, type FollowMode } from './timeline-math';

export { MIN_PX_PER_FRAME, MAX_PX_PER_FRAME } from './timeline-math';
export { ROW_HEIGHT, RULER_HEIGHT } from './timeline-math';

export interface GroupRow {
  type: 'group';
  id: string;
  /** i18n key of the label. */
  label: string;
  count: number;
  collapsed: boolean;
  /** Tracks inside (drawn as a summary when collapsed). */
  members: { kind: EditKind; track: number }[];
}

export interface TrackRow {
  type: 'track';
  id: string;
  kind: EditKind;
  track: number;
  /** Display name (bone / morph name), or i18n key for camera, light and display/IK. */
  name: string;
  group: string;
  keys: number;
}

export type Row = GroupRow | TrackRow;

/**
 * Rows for a document: display/IK, bone groups, morphs, camera, light. `pose`: the document is a VPD
 * pose, which has no place for display/IK keys (saving writes a VPD), so it gets no display/IK row.
 */
/** A row's name as shown: bone and morph names as stored; groups and the camera/light/display·IK rows translated. */
export function rowLabel(r: Row, t: { dynamic(key: string): string }): string {
  if (r.type === 'group') return t.dynamic(r.label);
  return r.kind === 'camera' || r.kind === 'light' || r.kind === 'ik' ? t.dynamic(r.name) : r.name;
}

export function buildRows(tracks: MotionTracks | null, collapsed: ReadonlySet<string>, opts: { pose?: boolean } = {}): Row[] {
  if (!tracks) return [];
  const rows: Row[] = [];
  const section = (id: string, label: string, members: TrackRow[]) => {
    if (!members.length) return;
    const isCollapsed = collapsed.has(id);
    rows.push({
      type: 'group', id, label, collapsed: isCollapsed,
      count: members.reduce((n, m) => n + m.keys, 0),
      members: members.map((m) => ({ kind: m.kind, track: m.track })),
    });
    if (!isCollapsed) rows.push(...members);
  };
  // Display/IK first, as in MMD. A model motion always has the row, even with no key yet, so a first
  // one can be inserted; a camera/light-only motion drives no model and has none.
  if (!opts.pose && (tracks.ik.frames.length || tracks.bones.frames.length || tracks.morphs.frames.length)) {
    section('ik', 'editor.group.ik', [{ type: 'track', id: 'ik', kind: 'ik', track: 0, name: 'editor.track.ik', group: 'ik', keys: tracks.ik.frames.length }]);
  }
  const b = tracks.bones;
  for (const g of groupBones(b.names)) {
    section('bone:' + g.id, 'editor.group.' + g.id, g.tracks.map((t) => ({
      type: 'track', id: 'bone:' + t, kind: 'bone', track: t, name: b.names[t], group: g.id, keys: b.start[t + 1] - b.start[t],
    })));
  }
  const m = tracks.morphs;
  section('morph', 'editor.group.morphs', m.names.map((n, t) => ({
    type: 'track', id: 'morph:' + t, kind: 'morph', track: t, name: n, group: 'morphs', keys: m.start[t + 1] - m.start[t],
  })));
  if (tracks.camera.frames.length) {
    section('camera', 'editor.group.camera', [{ type: 'track', id: 'camera', kind: 'camera', track: 0, name: 'editor.track.camera', group: 'camera', keys: tracks.camera.frames.length }]);
  }
  if (tracks.light.frames.length) {
    section('light', 'editor.group.light', [{ type: 'track', id: 'light', kind: 'light', track: 0, name: 'editor.track.light', group: 'light', keys: tracks.light.frames.length }]);
  }
  return rows;
}

export function createTimelineView() {
  const doc = useDocumentStore();
  const collapsed = ref(new Set<string>());
  const view = reactive({
    /** Frame at the left edge of the key area (may be fractional). */
    frameStart: -2,
    pxPerFrame: 6,
    /** Vertical scroll of the rows, px. */
    scrollY: 0,
    /** Size of the timeline's key area, px (set by the timeline on resize). */
    width: 800,
    height: 300,
    /** The music row's band under the ruler, px (MusicRow.vue sets it): the rows start below it. */
    band: 0,
  });
  /** The navigation tools' state: which tracks the key buttons look at, and the range select bar. */
  const nav = reactive({
    scope: 'active' as 'active' | 'selected' | 'all',
    rangeOpen: false,
    rangeFrom: 0,
    rangeTo: 0,
    /** 'all', 'active', 'selected' or a group row's id. */
    rangeTracks: 'all',
  });
  const rows = computed(() => {
    void doc.version;
    return buildRows(doc.tracks as MotionTracks | null, collapsed.value, { pose: doc.format === 'vpd' });
  });
  function toggleGroup(id: string) {
    const next = new Set(collapsed.value);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    collapsed.value = next;
  }
  function clampScroll() {
    const max = Math.max(0, rows.value.length * ROW_HEIGHT - (view.height - rowsTop(view)));
    view.scrollY = Math.max(0, Math.min(max, view.scrollY));
  }
  function scrollBy(dy: number) {
    view.scrollY += dy;
    clampScroll();
  }
  /** Zooms about a pixel x of the key area (the wheel: the frame under the pointer stays put). */
  function zoomAt(x: number, factor: number) {
    Object.assign(view, zoomAtX(view, x, factor));
  }
  /** Zooms keeping frame f (the playhead) at its screen x (the buttons and keys). */
  function zoomAbout(f: number, factor: number) {
    Object.assign(view, zoomAtFrame(view, f, factor));
  }
  function panFrames(df: number) {
    view.frameStart = Math.max(minFrameStart(view.pxPerFrame), view.frameStart + df);
  }
  /** Moves the view so frame f (the playhead) is visible: pages, or while playing in 'smooth' mode scrolls. */
  function follow(f: number, playing = false, mode: FollowMode = 'page') {
    const next = followFrame(view, f, mode, playing);
    if (next !== view.frameStart) view.frameStart = next;
  }
  /** Scrolls so frame f is visible (a jump while paused). */
  function reveal(f: number) {
    follow(f, false);
  }
  /**
   * Scrolls the rows so a track's row is in view (opening its group if it is collapsed): after a bone is
   * picked in the 3D preview, its row may be far down the list.
   */
  function revealTrack(kind: EditKind, track: number) {
    const find = () => rows.value.findIndex((r) => r.type === 'track' && r.kind === kind && r.track === track);
    if (find() < 0) {
      const group = rows.value.find((r) => r.type === 'group' && r.collapsed && r.members.some((m) => m.kind === kind && m.track === track));
      if (!group) return;
      toggleGroup(group.id);
    }
    const i = find();
    if (i < 0) return;
    const top = i * ROW_HEIGHT, visible = view.height - rowsTop(view);
    if (top < view.scrollY || top + ROW_HEIGHT > view.scrollY + visible) {
      view.scrollY = top - Math.max(0, (visible - ROW_HEIGHT) / 2);
      clampScroll();
    }
  }
  /** Shows the whole motion. */
  function fit(lastFrame: number) {
    Object.assign(view, fitRange(view.width, 0, Math.max(lastFrame, 0)));
  }
  /** Shows frames from..to (zoom to the selection). */
  function fitFrames(from: number, to: number) {
    Object.assign(view, fitRange(view.width, from, to));
  }
  /** The first view of a newly opened motion: its keys a readable distance apart (timeline-math.initialView). */
  function initial(tracks: MotionTracks | null) {
    // Range select's fields start over with each motion: its whole length.
    nav.rangeFrom = 0;
    nav.rangeTo = tracks?.lastFrame ?? 0;
    if (!tracks) return fit(0);
    // Bone and camera keys set the pace; a morph track (lip sync, a key every frame or two) only when
    // nothing else has two keys.
    const camera = { frames: tracks.camera.frames, start: [0, tracks.camera.frames.length] };
    const gap = medianKeyGap([tracks.bones, camera]) || medianKeyGap([tracks.morphs]);
    Object.assign(view, initialView(view.width, tracks.lastFrame, gap));
  }
  return { view, nav, rows, collapsed, toggleGroup, scrollBy, clampScroll, zoomAt, zoomAbout, panFrames, follow, reveal, revealTrack, fit, fitFrames, initial };
}

export type TimelineView = ReturnType<typeof createTimelineView>;
const KEY: InjectionKey<TimelineView> = Symbol('timeline-view');

export function provideTimelineView(): TimelineView {
  const v = createTimelineView();
  provide(KEY, v);
  return v;
}

export function useTimelineView(): TimelineView {
  const v = inject(KEY, null);
  if (!v) throw new Error('useTimelineView outside the editor');
  return v;
}
