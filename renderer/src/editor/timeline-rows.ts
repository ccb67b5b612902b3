/**
 * The rows of the track list and the timeline, as pure functions of the documents' tracks.
 *
 * A scene (stores/scene.ts) has several documents but one editor: the workspace (stores/workspace.ts) holds
 * them all with the active one, and every tool (selection, drag, copy/paste, delete, insert, the curve editor, presets, undo) works on it.
 * The camera document is still always in the timeline (issue 13): the rows are those of two documents at
 * once, each row naming its document (`doc`, the scene entry id):
 *
 *   [the actor's groups]  the active actor, or while the camera document is active the last active actor
 *   [Camera]              the camera document's camera, light and self-shadow rows (a row to add one when there is none)
 *
 * Both halves are built the same way whichever document is active, so a row keeps its index, id and fold
 * across a switch. That is the whole design: there is one timeline and one track list, one drawing
 * (timeline-draw.ts) and one hit test (Timeline.vue keyAt), and both take a row's keys from its own
 * document (`rowTracks`: the editor's tracks for the active document, the workspace's for the
 * other). Selection and the active track belong to the active document and apply only to its rows
 * (`isOwnRow`). Pressing on a row of the other document makes that document active first (scene.activate)
 * and then goes on as a press on the active document's row at the same index: a key pressed there is
 * selected and can be dragged in the same gesture, and every tool then works on it as on its own tab.
 */
import { byName, groupBones, tracksOf, CAMERA_DOC_KINDS, type EditKind } from '../../../shared/key-edits';
import { matchKey } from '../../../shared/pmx/model-inspect';
import type { MotionTracks } from '../../../shared/vmd/tracks';
import { CAMERA_MODEL_NAME } from '../../../shared/vmd/vmd-build';
import type { OutlineGroup } from '../model/model-outline';

export interface GroupRow {
  type: 'group';
  id: string;
  /** i18n key of the label. */
  label: string;
  count: number;
  collapsed: boolean;
  /** Tracks inside (drawn as a summary when collapsed). */
  members: { kind: EditKind; track: number }[];
  /** The scene document the row shows (scene entry id); absent: the active document. */
  doc?: number;
  /**
   * The entry of the fold set that toggles the group, when not its id: 'open:' + id for a group folded unless
   * opened (a face-only motion's bone groups, buildRows).
   */
  foldId?: string;
}

export interface TrackRow {
  type: 'track';
  id: string;
  kind: EditKind;
  track: number;
  /** Display name (bone / morph name), or i18n key for camera, light, self-shadow and display/IK. */
  name: string;
  group: string;
  keys: number;
  /** The scene document the row shows (scene entry id); absent: the active document. */
  doc?: number;
  /**
   * A row with no track behind it: 'camera', the scene has no camera document and the row offers to add one (no
   * keys, NO_DOC); 'bone', a bone of the shown model the motion has no key of yet (track −1, `name` the model's
   * name), listed as MMD's frame window lists the model's bones, so it can be picked there (then Enter keys it);
   * 'morph', a morph of the shown model the motion has no key of (track −1), listed as MMD's 表情 frame lists them.
   */
  add?: 'camera' | 'bone' | 'morph';
  /**
   * A bone or morph track the shown model lacks (its keys do nothing there; MMD ignores them): the row is dimmed and
   * says so (new-user pass numorph 4: はぅ and なごみ of a Miku face motion on Gene looked like any other row).
   */
  missing?: boolean;
}

export type Row = GroupRow | TrackRow;

/** `doc` of a row whose document does not exist yet (the camera group's "add" row). */
export const NO_DOC = -1;

/** A row's name as shown: bone and morph names as stored; groups and the camera/light/self-shadow/display·IK rows translated. */
export function rowLabel(r: Row, t: { dynamic(key: string): string }): string {
  if (r.type === 'group') return t.dynamic(r.label);
  return r.kind === 'bone' || r.kind === 'morph' ? r.name : t.dynamic(r.name);
}

/**
 * Rows for one document: display/IK, bone groups, morphs, camera, light, self-shadow. `pose`: the document is a VPD
 * pose, which has no place for display/IK keys (saving writes a VPD), so it gets no display/IK row. `modelBones`:
 * the bones (display frames) of the model the motion is shown on (modelRowBones): those without keys get rows in
 * their groups too (add: 'bone'), as MMD's frame window lists them (new-user pass nuscratch: after New the timeline
 * had no bone rows to click).
 */
export function buildRows(tracks: MotionTracks | null, collapsed: ReadonlySet<string>, opts: { pose?: boolean; modelBones?: readonly string[]; model?: RowsModel } = {}): Row[] {
  if (!tracks) return [];
  const rows: Row[] = [];
  /** `foldedFirst`: folded until opened (its fold entry 'open:' + id), for a group the motion leaves empty. */
  const section = (id: string, label: string, members: TrackRow[], foldedFirst = false) => {
    if (!members.length) return;
    const foldId = foldedFirst ? 'open:' + id : undefined;
    const isCollapsed = foldId ? !collapsed.has(foldId) : collapsed.has(id);
    rows.push({
      type: 'group', id, label, collapsed: isCollapsed,
      count: members.reduce((n, m) => n + m.keys, 0),
      members: members.filter((m) => !m.add).map((m) => ({ kind: m.kind, track: m.track })),
      ...(foldId ? { foldId } : {}),
    });
    if (!isCollapsed) rows.push(...members);
  };
  const model = opts.model;
  const modelBoneKeys = model ? new Set(model.bones.map(matchKey)) : null;
  // Display/IK first, as in MMD. A model motion always has the row, even with no key yet, so a first
  // one can be inserted; a camera/light-only motion drives no model and has none.
  const b = tracks.bones;
  // The model's bones the motion has no key of (each once; a name a motion cut at 15 bytes is the bone's).
  const have = new Set(b.names.map(matchKey));
  const unkeyed = opts.pose ? [] : (opts.modelBones ?? []).filter((n) => {
    const k = matchKey(n);
    return !have.has(k) && (have.add(k), true);
  });
  if (!opts.pose && (tracks.ik.frames.length || tracks.bones.frames.length || tracks.morphs.frames.length || unkeyed.length)) {
    section('ik', 'editor.group.ik', [{ type: 'track', id: 'ik', kind: 'ik', track: 0, name: 'editor.track.ik', group: 'ik', keys: tracks.ik.frames.length }]);
  }
  const names = unkeyed.length ? [...b.names, ...unkeyed] : b.names;
  // A face-only motion (morph keys, no bone key) shown on a model: its bone groups hold only the model's empty rows
  // (224 on Gene, the morphs after them). They start folded, as MMD's frame window opens with its frames folded, so the
  // morphs are in sight; a click opens one.
  const faceOnly = unkeyed.length > 0 && b.frames.length === 0 && tracks.morphs.frames.length > 0;
  for (const g of groupBones(names)) {
    section('bone:' + g.id, 'editor.group.' + g.id, g.tracks.map((t): TrackRow => t < b.names.length
      ? { type: 'track', id: 'bone:' + t, kind: 'bone', track: t, name: b.names[t], group: g.id, keys: b.start[t + 1] - b.start[t], ...(modelBoneKeys && !modelBoneKeys.has(matchKey(b.names[t])) ? { missing: true } : {}) }
      : { type: 'track', id: 'bone-model:' + names[t], kind: 'bone', track: -1, name: names[t], group: g.id, keys: 0, add: 'bone' }), faceOnly);
  }
  section('morph', 'editor.group.morphs', morphRows(tracks, model?.morphs));
  for (const k of CAMERA_DOC_KINDS) {
    const keys = tracksOf(tracks, k).frames.length;
    if (keys) section(k, 'editor.group.' + k, [{ type: 'track', id: k, kind: k, track: 0, name: 'editor.track.' + k, group: k, keys }]);
  }
  return rows;
}

/** The shown model as the rows see it: every bone's name, and its morphs in its order with their panels. */
export interface RowsModel {
  bones: readonly string[];
  morphs: readonly { name: string; panel: string }[];
}

/** MMD's morph panels in the order its 表情操作 shows them (目, リップ, 眉, その他). */
const PANEL_ORDER = ['eyes', 'mouth', 'brows', 'other'];

/**
 * The Morphs group's rows. Shown on a model (`modelMorphs`): every morph of the model, keyed or not (an unkeyed one is
 * an add: 'morph' row), by panel (目, リップ, 眉, その他) and in the model's order within each, as MMD's 表情 frame and
 * the morph panel list them; then the motion's morphs the model lacks (missing), by name. Without a model: the
 * motion's morphs by name (あいうえお first, as kana sort), not in the file's arbitrary order (see groupBones).
 */
function morphRows(tracks: MotionTracks, modelMorphs: readonly { name: string; panel: string }[] | undefined): TrackRow[] {
  const m = tracks.morphs;
  const row = (t: number, missing = false): TrackRow => ({
    type: 'track', id: 'morph:' + t, kind: 'morph', track: t, name: m.names[t], group: 'morphs', keys: m.start[t + 1] - m.start[t], ...(missing ? { missing } : {}),
  });
  const byNameOrder = (ts: number[]) => ts.sort((a, c) => byName(m.names[a], m.names[c]) || a - c);
  if (!modelMorphs) return byNameOrder(m.names.map((_, t) => t)).map((t) => row(t));
  const trackOf = new Map<string, number>();
  m.names.forEach((n, t) => trackOf.has(matchKey(n)) || trackOf.set(matchKey(n), t));
  const used = new Set<number>();
  const out: TrackRow[] = [];
  const rank = (p: string) => (PANEL_ORDER.includes(p) ? PANEL_ORDER.indexOf(p) : PANEL_ORDER.length);
  const ordered = modelMorphs.map((x, i) => ({ x, i })).sort((a, c) => rank(a.x.panel) - rank(c.x.panel) || a.i - c.i);
  for (const { x } of ordered) {
    const t = trackOf.get(matchKey(x.name));
    // Two model morphs cut to the same 15 bytes share one track: listed once, at the first.
    if (t !== undefined && used.has(t)) continue;
    if (t !== undefined) {
      used.add(t);
      out.push(row(t));
    } else out.push({ type: 'track', id: 'morph-model:' + x.name, kind: 'morph', track: -1, name: x.name, group: 'morphs', keys: 0, add: 'morph' });
  }
  const lacking = byNameOrder(m.names.map((_, t) => t).filter((t) => !used.has(t)));
  return out.concat(lacking.map((t) => row(t, true)));
}

/**
 * The bones of a model that the rows list: those in its display frames (PMX 表示枠), in their order, as MMD's frame
 * window lists them; the one nameless group of a model without frames (a PMD, the figure) lists none.
 */
export function displayFrameBones(groups: readonly OutlineGroup[]): string[] {
  return groups.filter((g) => g.name !== '').flatMap((g) => g.bones);
}

/**
 * `frameBones` (displayFrameBones of the model the motion is shown on) when the rows list them for this motion, else
 * none: any motion that drives a model — bone, morph or display/IK keys, or no keys at all (a New motion) — whatever
 * model its header names (a dance made for 初音ミク shown on Gene lists Gene's bones, as MMD's frame window lists the
 * loaded model's whatever motion is on it; before, only a motion whose header named the shown model did). Not a VPD
 * pose, nor a camera/light-only motion: no model keys, and camera, light or self-shadow keys or MMD's camera header
 * (カメラ・照明, `header` decoded).
 */
export function modelRowBones(tracks: MotionTracks | null, header: string, frameBones: readonly string[] | undefined, pose = false): readonly string[] | undefined {
  if (!tracks || !frameBones?.length || pose) return undefined;
  const modelKeys = tracks.bones.frames.length || tracks.morphs.frames.length || tracks.ik.frames.length;
  if (!modelKeys && (header.trim() === CAMERA_MODEL_NAME || CAMERA_DOC_KINDS.some((k) => tracksOf(tracks, k).frames.length))) return undefined;
  return frameBones;
}

/** One document of the scene as the rows see it. */
export interface RowsDoc {
  /** Scene entry id. */
  doc: number;
  tracks: MotionTracks;
  /** A VPD pose (no display/IK row). */
  pose?: boolean;
  /** The bones of the model the motion is shown on that the rows list (buildRows, modelRowBones). */
  modelBones?: readonly string[];
  /** That model's bones and morphs (buildRows: its morph rows, and the rows of names it lacks). */
  model?: RowsModel;
}

/** The two documents the rows show (stores/scene.ts): see the header. */
export interface SceneRowsInput {
  /** The active actor, or while the camera document is active the last active actor (null: none). */
  actor: RowsDoc | null;
  /** The camera document; null when the scene has none (the group then offers to add one). */
  camera: RowsDoc | null;
}

/** Id of the camera document's group (its camera, light and self-shadow rows are 'camera', 'light' and 'shadow'). */
export const CAMERA_GROUP = 'camera';

/**
 * The scene's rows: the actor's (buildRows, each naming the actor's document), then the group "Camera"
 * with the camera document's camera, light and self-shadow rows, all three always there as in MMD's camera
 * mode (a first key can be inserted on any). With no camera document the group holds one row that adds it.
 * An actor motion's own camera, light or self-shadow keys (a dance file that also carries a camera) keep
 * their rows, under the ids 'actor-camera', 'actor-light' and 'actor-shadow'.
 */
export function buildSceneRows(input: SceneRowsInput, collapsed: ReadonlySet<string>): Row[] {
  const rows: Row[] = [];
  if (input.actor) {
    const own = input.actor.doc;
    for (const r of buildRows(input.actor.tracks, renamedSet(collapsed), { pose: input.actor.pose, modelBones: input.actor.modelBones, model: input.actor.model })) {
      const id = ACTOR_RENAMED.has(r.id) ? 'actor-' + r.id : r.id;
      rows.push(r.type === 'group' ? { ...r, id, doc: own } : { ...r, id, group: ACTOR_RENAMED.has(r.group) ? 'actor-' + r.group : r.group, doc: own });
    }
  }
  const cam = input.camera;
  const isCollapsed = collapsed.has(CAMERA_GROUP);
  if (!cam) {
    rows.push({ type: 'group', id: CAMERA_GROUP, label: 'editor.group.camera', count: 0, collapsed: isCollapsed, members: [], doc: NO_DOC });
    if (!isCollapsed) rows.push({ type: 'track', id: 'camera-add', kind: 'camera', track: 0, name: 'scene.addCamera', group: CAMERA_GROUP, keys: 0, doc: NO_DOC, add: 'camera' });
    return rows;
  }
  const members: TrackRow[] = CAMERA_DOC_KINDS.map((k) => ({
    type: 'track', id: k, kind: k, track: 0, name: 'editor.track.' + k, group: CAMERA_GROUP, keys: tracksOf(cam.tracks, k).frames.length, doc: cam.doc,
  }));
  rows.push({
    type: 'group', id: CAMERA_GROUP, label: 'editor.group.camera', collapsed: isCollapsed, doc: cam.doc,
    count: members.reduce((n, m) => n + m.keys, 0),
    members: members.map((m) => ({ kind: m.kind, track: m.track })),
  });
  if (!isCollapsed) rows.push(...members);
  return rows;
}

/** Ids buildRows gives an actor's own camera, light and self-shadow groups and rows, which the Camera group's rows take. */
const ACTOR_RENAMED: ReadonlySet<string> = new Set(CAMERA_DOC_KINDS);

/** buildRows names an actor's own camera, light and self-shadow groups 'camera', 'light', 'shadow': their fold under the scene's ids. */
function renamedSet(collapsed: ReadonlySet<string>): ReadonlySet<string> {
  const out = new Set([...collapsed].filter((id) => !ACTOR_RENAMED.has(id)));
  for (const id of ACTOR_RENAMED) if (collapsed.has('actor-' + id)) out.add(id);
  return out;
}

/** Whether a row shows the active document (`activeDoc`, a scene entry id): selection and the active track apply to it. */
export function isOwnRow(r: Row, activeDoc: number | null): boolean {
  return r.doc === undefined || r.doc === activeDoc;
}

/**
 * The tracks a row's keys come from: the editor's (`active`) for a row of the active document, the kept
 * document's (`others`) for a row of another, null for an add row (no track behind it). Drawing and hit tests both use this.
 */
export function rowTracks(r: Row, activeDoc: number | null, active: MotionTracks | null, others: ReadonlyMap<number, MotionTracks> | null | undefined): MotionTracks | null {
  if (r.type === 'track' && r.add) return null;
  if (isOwnRow(r, activeDoc)) return active;
  return others?.get(r.doc!) ?? null;
}

/**
 * The track row above (`dir` −1) or below (+1) the active one, as ↑/↓ move MMD's selected bone row: over
 * every row listed (`rows`, in the order drawn: in a scene the actor's rows and then the camera document's,
 * so the camera, light and self-shadow rows are reached from the actor's last row and back), group and add
 * rows skipped (a collapsed group's tracks are not listed, so they are passed over). The active track is the
 * one of the active document (`activeDoc`; rows without a document are its own). With no active track (or
 * one not listed) ↓ takes the first track and ↑ the last; at either end it stays (null: nothing to move to).
 * A row of another document is returned as it is: the caller makes its document active first.
 */
export function neighbourRow(rows: readonly Row[], activeDoc: number | null, active: { kind: EditKind; track: number } | null, dir: -1 | 1): TrackRow | null {
  const tracks = rows.filter((r): r is TrackRow => r.type === 'track' && !r.add);
  if (tracks.length === 0) return null;
  const at = active ? tracks.findIndex((r) => isOwnRow(r, activeDoc) && r.kind === active.kind && r.track === active.track) : -1;
  const next = at < 0 ? (dir > 0 ? 0 : tracks.length - 1) : at + dir;
  if (next < 0 || next >= tracks.length || next === at) return null;
  return tracks[next];
}

/** neighbourTrack over one document's rows (neighbourRow with every row its own): the track it lands on. */
export function neighbourTrack(rows: readonly Row[], active: { kind: EditKind; track: number } | null, dir: -1 | 1): { kind: EditKind; track: number } | null {
  const r = neighbourRow(rows, null, active, dir);
  return r ? { kind: r.kind, track: r.track } : null;
}
