/**
 * Shared view state of the track list and the timeline (one per editor): the rows (frame groups and
 * tracks, built from the tracks when the document changes), which groups are collapsed, horizontal
 * scroll/zoom and vertical scroll. The track list (DOM) and the timeline (canvas) read the same rows
 * and scroll together. In a scene the rows are the actor's and the camera document's (timeline-rows.ts
 * says how one timeline shows two documents).
 */
import { computed, inject, provide, reactive, ref, watch, type InjectionKey } from 'vue';
import type { EditKind } from '../../../shared/key-edits';
import type { MotionTracks } from '../../../shared/vmd/tracks';
import { useWorkspaceStore } from '../stores/workspace';
import { useSceneStore } from '../stores/scene';
import { useTimeStore } from '../stores/time';
import { usePreviewStore } from '../stores/preview';
import { motionModelName } from '../stores/retarget';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import { buildRows, buildSceneRows, displayFrameBones, isOwnRow, modelRowBones, NO_DOC, type Row, type RowsDoc, type RowsModel, type SceneRowsInput } from './timeline-rows';
import { fitRange, followFrame, initialView, jumpFrame, medianKeyGap, minFrameStart, ROW_HEIGHT, rowsTop, zoomAtFrame, zoomAtX, type FollowMode } from './timeline-math';

export { MIN_PX_PER_FRAME, MAX_PX_PER_FRAME } from './timeline-math';
export { ROW_HEIGHT, RULER_HEIGHT } from './timeline-math';

export { buildRows, buildSceneRows, isOwnRow, rowLabel, rowTracks, NO_DOC, CAMERA_GROUP, type GroupRow, type TrackRow, type Row, type RowsDoc, type SceneRowsInput } from './timeline-rows';

/**
 * The bones the rows list for `doc` shown on a model (modelRowBones): the display-frame bones of the preview's model
 * (`frameBones`, worked out once per model). In a scene the preview shows the shown actor's model, but not always:
 * while another actor's model loads (a switch of actor) it still shows the last one, and the motion capture dialog
 * lends it a model of its own. So an actor gets them only when the preview's model is its own (`actorModel`, its
 * scene entry's path); `actorModel` undefined: a lone document, on the preview's model.
 */
function modelBonesFor(doc: VmdDocument | null | undefined, tracks: MotionTracks | null, pose: boolean, frameBones: readonly string[], actorModel?: string | null): readonly string[] | undefined {
  const model = usePreviewStore().model;
  if (!doc || !model || (actorModel !== undefined && actorModel !== model.path)) return undefined;
  return modelRowBones(tracks, motionModelName(doc), frameBones, pose);
}

/**
 * The two documents the rows show, from the scene store (timeline-rows.ts): the actor (the active one, or
 * the last active one while the camera document is active) and the camera document, each with its tracks
 * (each document's own, from the workspace). Null when the window is not
 * a scene (no entries): the rows are then the open document's alone.
 */
function sceneInput(frameBones: readonly string[], model: RowsModel | undefined): (SceneRowsInput & { others: Map<number, MotionTracks> }) | null {
  const doc = useWorkspaceStore();
  const scene = useSceneStore();
  if (!scene.entries.length) return null;
  const activeId = scene.activeId;
  const others = new Map<number, MotionTracks>();
  const input = (id: number | null): RowsDoc | null => {
    if (id === null) return null;
    if (id === activeId) return doc.tracks ? { doc: id, tracks: doc.tracks as MotionTracks, pose: doc.format === 'vpd' } : null;
    const s = useWorkspaceStore().get(id);
    if (!s) return null;
    others.set(id, s.tracks);
    return { doc: id, tracks: s.tracks, pose: s.format === 'vpd' };
  };
  const cam = scene.cameraEntry;
  const actorId = scene.shownActorId;
  const actor = input(actorId);
  const actorDoc = actorId === null ? null : actorId === activeId ? doc.doc : useWorkspaceStore().get(actorId)?.doc;
  const part = scene.entries.find((e) => e.id === actorId);
  const actorModel = part && !part.missingModel ? part.model : null;
  const modelBones = actor ? modelBonesFor(actorDoc, actor.tracks, !!actor.pose, frameBones, actorModel) : undefined;
  return { actor: actor && { ...actor, modelBones, model: modelBones && model }, camera: cam ? input(cam.id) : null, others };
}

export function createTimelineView() {
  const doc = useWorkspaceStore();
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
  const scene = useSceneStore();
  const preview = usePreviewStore();
  /** The preview's model's display-frame bones: worked out once per model, not on every edit (600k-key files). */
  const frameBones = computed(() => displayFrameBones(preview.modelOutline?.groups ?? []));
  /** The preview's model's bones and morphs (the morph rows, and the rows of names it lacks): once per model too. */
  const rowsModel = computed<RowsModel | undefined>(() => {
    const o = preview.modelOutline;
    return o && preview.model ? { bones: o.groups.flatMap((g) => g.bones), morphs: o.morphs } : undefined;
  });
  /** The documents the rows show (recomputed on every edit, open and switch: each bumps doc.version). */
  const sources = computed(() => {
    void doc.version;
    void scene.activeId;
    void scene.entries.length;
    return sceneInput(frameBones.value, rowsModel.value);
  });
  /** Every row shown: the scene's actor and camera document (timeline-rows.ts), or the lone document's. */
  const rows = computed<Row[]>(() => {
    const src = sources.value;
    if (!src) {
      const tracks = doc.tracks as MotionTracks | null, pose = doc.format === 'vpd';
      const modelBones = modelBonesFor(doc.doc, tracks, pose, frameBones.value);
      return buildRows(tracks, collapsed.value, { pose, modelBones, model: modelBones && rowsModel.value });
    }
    return buildSceneRows(src, collapsed.value);
  });
  /** The scene entry id of the active document (rows of others draw their keys but take no selection). */
  const activeDoc = computed(() => scene.activeId);
  /** The kept tracks of the shown documents that are not active, by scene entry id. */
  const others = computed(() => sources.value?.others ?? null);
  /** The rows of the active document (range select's groups, reveal). */
  const ownRows = computed(() => rows.value.filter((r) => isOwnRow(r, activeDoc.value)));
  // A switch of document that leaves none of the new one's rows in view (its tab, an undo of its step)
  // scrolls to them, its first row at the top as far as the rows go. A press on one of its rows (the
  // timeline's switch) has them in view already: nothing moves under the pointer.
  watch(
    () => scene.activeId,
    (id, old) => {
      if (id === null || old === null) return;
      const rs = rows.value;
      const first = rs.findIndex((r) => r.doc === id);
      if (first < 0) return;
      let last = first;
      while (last + 1 < rs.length && rs[last + 1].doc === id) last++;
      const visible = view.height - rowsTop(view);
      if ((last + 1) * ROW_HEIGHT <= view.scrollY || first * ROW_HEIGHT >= view.scrollY + visible) {
        view.scrollY = first * ROW_HEIGHT;
        clampScroll();
      }
    },
  );
  /**
   * Whether the scroll position `y` shows a document's rows for its tab: at least three of them whole (all of
   * them when it has fewer). The camera's group row peeking in at the bottom is not "in view" (new-user pass:
   * the Camera tab clicked then left the timeline on the morph rows). A switch by a press on one of its rows
   * (the watch above) keeps the looser rule: any of its rows in view, so the row under the pointer stays.
   */
  function showsDoc(id: number, y: number): boolean {
    const rs = rows.value;
    const visible = view.height - rowsTop(view);
    let whole = 0, total = 0;
    rs.forEach((r, i) => {
      if (r.doc !== id) return;
      total++;
      if (i * ROW_HEIGHT >= y && (i + 1) * ROW_HEIGHT <= y + visible) whole++;
    });
    return total > 0 && whole >= Math.min(3, total);
  }
  /**
   * Scrolls a document's rows into view for its tab (SceneTabs pick). `to`: 'here' (its tab clicked while it
   * is active) leaves the rows where they are when they show it, else its first row goes to the top; a number
   * (a switch back to it) is where it was left; 'first' (a switch to it the first time) its first row, as far
   * as the rows go.
   */
  function revealDoc(id: number, to: number | 'here' | 'first') {
    const first = rows.value.findIndex((r) => r.doc === id);
    if (first < 0) return;
    const top = first * ROW_HEIGHT;
    if (to === 'here') view.scrollY = showsDoc(id, view.scrollY) ? view.scrollY : top;
    else if (to === 'first') view.scrollY = top;
    else view.scrollY = to;
    clampScroll();
  }
  /**
   * Makes a row's document the active one when the row shows another document of the scene (a press or
   * a click there goes on as one on the active document's row at the same index). True when the row's
   * document is now active; false for the add row and when switching failed.
   */
  function activateRowDoc(r: Row): boolean {
    if (isOwnRow(r, activeDoc.value)) return true;
    return r.doc !== undefined && r.doc !== NO_DOC && scene.activate(r.doc);
  }
  /** Folds or opens a group (`foldId`: the entry that does it for a group folded until opened, GroupRow.foldId). */
  function toggleGroup(id: string, foldId?: string) {
    if (foldId) id = foldId;
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
  /** Scrolls so a frame typed in the frame field lands in view with context (timeline-math.jumpFrame). */
  function jump(f: number) {
    const next = jumpFrame(view, f);
    if (next !== view.frameStart) view.frameStart = next;
  }
  /**
   * Scrolls so frames a..b are all in view when they fit (centred, at the zoom as it is); when they do not
   * fit, so that a is (a range selected far from the view, or wider than it).
   */
  function revealSpan(a: number, b: number) {
    const span = view.width / view.pxPerFrame;
    const end = view.frameStart + span;
    if (a >= view.frameStart && b <= end) return;
    if (b - a > span * 0.9) return reveal(a);
    view.frameStart = Math.max(minFrameStart(view.pxPerFrame), (a + b) / 2 - span / 2);
  }
  /**
   * Scrolls the rows so a track's row is in view (opening its group if it is collapsed): after a bone is
   * picked in the 3D preview, its row may be far down the list.
   */
  function revealTrack(kind: EditKind, track: number) {
    const own = (r: Row) => isOwnRow(r, activeDoc.value);
    const find = () => rows.value.findIndex((r) => own(r) && r.type === 'track' && !r.add && r.kind === kind && r.track === track);
    if (find() < 0) {
      const group = rows.value.find((r) => own(r) && r.type === 'group' && r.collapsed && r.members.some((m) => m.kind === kind && m.track === track));
      if (!group) return;
      toggleGroup(group.id, group.type === 'group' ? group.foldId : undefined);
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
    // A motion without keys (a new one) shows the song, when there is one: it is what is keyed along.
    if (!tracks || !tracks.lastFrame) return fit(useTimeStore().musicEnd);
    // Bone and camera keys set the pace; a morph track (lip sync, a key every frame or two) only when
    // nothing else has two keys.
    const camera = { frames: tracks.camera.frames, start: [0, tracks.camera.frames.length] };
    const gap = medianKeyGap([tracks.bones, camera]) || medianKeyGap([tracks.morphs]);
    Object.assign(view, initialView(view.width, tracks.lastFrame, gap));
  }
  return { view, nav, rows, ownRows, activeDoc, others, activateRowDoc, revealDoc, showsDoc, collapsed, toggleGroup, scrollBy, clampScroll, zoomAt, zoomAbout, panFrames, follow, reveal, jump, revealSpan, revealTrack, fit, fitFrames, initial };
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
