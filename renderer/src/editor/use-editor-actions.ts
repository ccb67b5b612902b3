/**
 * The editor's commands, shared by buttons, the keyboard and the menu: each reads the selection and
 * the open document, runs a pure edit from shared/key-edits through the history store (one undo step),
 * and updates the selection.
 */
import {
  applyCurveToAllChannels, copyCurves, copyKeys, isEmptyDiff, curvesDiffSteps, deleteRecords, editValues, insertKey, keyCurves, locate, mirrorPasteKeys, mirrorPoseAt, moveDiff, moveRecords, movedRecordsAfter, pasteCurves,
  pasteKeys, pasteKeysRepeatedly, replacedCount, setCurves, setCurvesOnRecords, setValuesAt, snapCurve, trackRange, tracksOf, copyFaceAt, copyPoseAt, keyAtFrame, boneTrackOf, REST_POSE, CHANNEL_COUNT, EDIT_KINDS, type EditDiff, type EditKind, type EditOutcome, type KeyEdit, type KeyRef,
  type MirrorPasteMode, type PoseTrack, type TrackTarget, type ValueEdit, registerValuesAt,
} from '../../../shared/key-edits';
import { useNotifyStore } from '../stores/notify';
import type { Curve } from '../../../shared/vmd/bezier';
import { MORPH } from '../../../shared/vmd/vmd-layout';
import type { MotionTracks } from '../../../shared/vmd/tracks';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import { useCurveEditorStore } from '../stores/curve-editor';
import { useWorkspaceStore } from '../stores/workspace';
import { useHistoryStore } from '../stores/history';
import { useSceneStore } from '../stores/scene';
import { usePreviewStore } from '../stores/preview';
import { useSelectionStore } from '../stores/selection';
import { useSimplifyStore } from '../stores/simplify';
import { useTimeStore } from '../stores/time';
import { registerPose } from '../shell/app-actions';

/** A curve on at least this many bone keys runs in slices between frames (stores/workspace.ts commitSteps). */
export const SLICED_CURVE_KEYS = 50_000;
/** A drag of at most this many keys says in its readout how many keys the drop would replace. */
const DRAG_COUNT_KEYS = 20_000;

/**
 * The last arrow-key nudge of a curve handle (nudgeHandle): its undo step and what it was made on, so the next
 * nudge of the same run replaces it. Module state: one editor, whichever component calls the actions.
 */
let nudgeRun: { step: unknown; doc: number | null; handle: number; channel: number; selVersion: number; curve: number[] } | null = null;
/** The info notice of the last Enter on a keyed frame (insertKeyAtCursor): a further press replaces it, not stacks. */
let registeredNotice: number | null = null;

export function useEditorActions() {
  const sel = useSelectionStore();
  const hist = useHistoryStore();
  const curve = useCurveEditorStore();
  const time = useTimeStore();
  const docStore = useWorkspaceStore();

  /**
   * Selected keys that carry curves, of the active key's kind (bone or camera). The other key of a camera
   * cut with the active key (one frame before or after it) is left out: its curve shapes the other shot's
   * segment, not the one shown (issue 30: a drag on 683's curve replaced 682's, the easing of 617→682).
   */
  function curveTargets(): KeyRef[] {
    const a = sel.active;
    if (!a || (a.kind !== 'bone' && a.kind !== 'camera')) return [];
    const refs = sel.refs.filter((r) => r.kind === a.kind);
    const doc = docStore.doc, tracks = docStore.tracks as MotionTracks | null;
    if (a.kind !== 'camera' || refs.length < 2 || !doc || !tracks) return refs;
    const at = locate(tracks, a, doc.camera.count)?.frame;
    if (at === undefined) return refs;
    return refs.filter((r) => r.record === a.record || Math.abs((locate(tracks, r, doc.camera.count)?.frame ?? Infinity) - at) !== 1);
  }

  /** How many keys curveTargets() names, without listing them (a bone selection is counted from its set). */
  function curveTargetCount(): number {
    const a = sel.active;
    if (a?.kind === 'bone') return sel.sets.bone.size;
    return curveTargets().length;
  }

  /** The active key's curves as stored. */
  function activeCurves(): Curve[] | null {
    const a = sel.active;
    const doc = docStore.doc;
    if (!a || !doc || (a.kind !== 'bone' && a.kind !== 'camera') || a.record >= doc[a.kind].count) return null;
    return keyCurves(doc, a);
  }

  /** Writes `c` on the curve editor's channel (or all channels when linked) of every selected key. */
  function setCurve(c: readonly number[], channel = curve.channel): boolean {
    const kind = sel.active?.kind;
    // Bone keys: straight from the selection's set, one packed diff (a preset on 600,000 keys).
    const bones = kind === 'bone' ? sel.sets.bone.toArray() : null;
    const targets = bones ? null : curveTargets();
    if (bones ? !bones.length : !targets!.length) return false;
    const snapped = snapCurve(c);
    const n = CHANNEL_COUNT[bones ? 'bone' : (targets![0].kind as 'bone' | 'camera')];
    const curves: Partial<Record<number, Curve>> = {};
    if (curve.linkChannels) for (let ch = 0; ch < n; ch++) curves[ch] = snapped;
    else curves[Math.min(channel, n - 1)] = snapped;
    // Many bone keys (a preset on 600,000): made, applied and committed in slices, with its progress.
    if (bones && bones.length >= SLICED_CURVE_KEYS) {
      void hist.runSteps('curve', (doc) => curvesDiffSteps(doc, 'bone', bones, curves), true);
      return true;
    }
    return hist.run((doc) => (bones ? setCurvesOnRecords(doc, 'bone', bones, curves) : setCurves(doc, targets!, curves))) !== null;
  }

  /**
   * Moves the selected handle by (dx, dy) on the 0..127 grid. A run of nudges is one undo step, as a drag of
   * the handle is (the undo pass: three presses of → took three Ctrl+Z): while the last step is this run's
   * own, on the same document, handle, channel and keys, and the document was not saved since, that step is
   * taken back (the keys stay selected) and the run's whole change is committed as one step in its place. A
   * run back to where it began leaves no step.
   */
  function nudgeHandle(dx: number, dy: number): boolean {
    const cs = activeCurves();
    if (!cs || !curve.handle) return false;
    const ch = Math.min(curve.channel, cs.length - 1);
    const i = curve.handle === 1 ? 0 : 2;
    const run = nudgeRun;
    const top = docStore.undoStack[docStore.undoStack.length - 1];
    const same =
      run !== null && top !== undefined && top === run.step && run.doc === docStore.activeId && run.handle === curve.handle && run.channel === ch && run.selVersion === sel.version && docStore.dirty;
    const c = same ? [...run.curve] : [...cs[ch]];
    c[i] = Math.max(0, Math.min(127, c[i] + dx));
    c[i + 1] = Math.max(0, Math.min(127, c[i + 1] + dy));
    nudgeRun = null;
    if (same) {
      // The run's previous step comes off (the keys it touched would become the selection: keep the user's).
      const keys = sel.sets, active = sel.active;
      docStore.undo();
      sel.selectSets(keys);
      if (active) sel.active = active;
    }
    const under = docStore.undoStack[docStore.undoStack.length - 1];
    const ok = setCurve(c);
    const made = docStore.undoStack[docStore.undoStack.length - 1];
    // Only a step this nudge made starts or goes on with the run (an empty change makes none).
    if (made && made !== under) nudgeRun = { step: made, doc: docStore.activeId, handle: curve.handle, channel: ch, selVersion: sel.version, curve: c };
    // A run back to its start commits nothing: it still did what was asked.
    return ok || same;
  }

  function applyToAllChannels(): boolean {
    const cs = activeCurves();
    const targets = curveTargets();
    if (!cs || !targets.length) return false;
    const c = cs[Math.min(curve.channel, cs.length - 1)];
    return hist.run((doc) => applyCurveToAllChannels(doc, targets, c)) !== null;
  }

  /**
   * Copies the active key's curve as shown: the channel in view (its curve is what Paste curve writes on
   * each ticked channel, as MMD), or with Overlay on every channel, each pasting onto its own.
   */
  function copyCurve(): boolean {
    const a = sel.active;
    const doc = docStore.doc;
    if (!a || !doc) return false;
    const clip = copyCurves(doc, a, curve.overlay ? null : curve.channel);
    if (clip) curve.setClipboard(clip);
    return clip !== null;
  }

  /** Why Paste curve cannot run now (an i18n key), or '' when it can. */
  function pasteCurveBlocked(): string {
    const clip = curve.clipboard;
    if (!clip) return 'curve.pasteNoClip';
    if (!sel.count) return 'curve.pasteNoKey';
    const has = clip.kind === 'bone' ? sel.sets.bone.size > 0 : sel.refs.some((r) => r.kind === 'camera');
    if (!has) return clip.kind === 'camera' ? 'editor.refusal.noCameraKeyForCurve' : 'editor.refusal.noBoneKeyForCurve';
    if (!curve.pasteChannels.some((on, ch) => on && ch < CHANNEL_COUNT[clip.kind])) return 'curve.pasteNoChannel';
    return '';
  }

  /** Pastes the copied curve on the ticked channels of the selected keys; says so when nothing changed. */
  function pasteCurve(): boolean {
    const clip = curve.clipboard;
    if (!clip) return false;
    const channels = curve.pasteChannels.map((on, ch) => (on ? ch : -1)).filter((ch) => ch >= 0 && ch < CHANNEL_COUNT[clip.kind]);
    const refs = sel.refs;
    const r = hist.run((doc) => pasteCurves(doc, refs, clip, channels));
    if (r && isEmptyDiff(r.diff)) useNotifyStore().info({ key: 'curve.pasteUnchanged' });
    return r !== null;
  }

  /** Deletes the selected keys (the selection's record sets; a kind selected whole is emptied in one step). */
  function deleteSelected(label: 'delete keys' | 'cut keys' = 'delete keys'): boolean {
    if (!sel.count) return false;
    const sets = sel.records();
    const r = hist.run((doc) => deleteRecords(doc, sets, label));
    if (r) sel.clear();
    return r !== null;
  }

  /**
   * Moves the selected keys by `delta` frames: one shift diff (the records and the offset), with the keys
   * they land on removed (MMD replaces them). Then see `afterMove`.
   */
  function moveSelected(delta: number): boolean {
    const sets = sel.records();
    const r = hist.run((doc, tracks) => moveRecords(doc, tracks, sets, delta));
    if (r) afterMove(r.diff);
    return r !== null;
  }

  /**
   * moveSelected for a drag's release and a typed frame: a move of many keys is applied in slices between
   * frames (progress after 100 ms, cancellable) and committed once, complete. Resolves to whether it was.
   */
  async function moveSelectedSliced(delta: number): Promise<boolean> {
    const sets = sel.records();
    let made: EditDiff | null = null;
    const ok = await hist.runDiff((doc, tracks) => {
      const d = moveDiff(doc, tracks, sets, delta);
      if (d.ok) made = d.value;
      return d;
    });
    if (ok && made) afterMove(made);
    return ok;
  }

  /**
   * How many keys a move of the selection by `delta` would replace (the drag's readout says it), or null
   * when the selection is too big to work that out on every pointer move.
   */
  function replacedByMove(delta: number): number | null {
    const doc = docStore.doc, tracks = docStore.tracks;
    if (!doc || !tracks || !delta || sel.count > DRAG_COUNT_KEYS) return null;
    const d = moveDiff(doc, tracks, sel.records(), delta);
    return d.ok ? replacedCount(d.value) : null;
  }

  /**
   * After a move that replaced keys: the records after each removed one moved down, so the selection (and
   * the active key) is set again to where the moved keys are now, and a notice says how many were replaced.
   */
  function afterMove(diff: EditDiff) {
    const n = replacedCount(diff);
    if (!n) return;
    const a = sel.active;
    if (a) {
      const b = diff.blocks.find((x) => x.kind === a.kind);
      const below = b ? b.removed.filter((x) => x.index < a.record).length : 0;
      sel.active = { kind: a.kind, record: a.record - below };
    }
    sel.selectSets(movedRecordsAfter(diff));
    useWorkspaceStore().editNotice('info', { key: n === 1 ? 'editor.movedReplacedOne' : 'editor.movedReplaced', params: { n } });
  }

  /** Camera, light and self-shadow keys go to the scene's camera document, model keys to its actor, whichever is shown. */
  function showDocumentFor(clip: { items: readonly { kind: string }[] }) {
    const target = useSceneStore().documentForKinds(clip.items.map((it) => it.kind));
    if (target !== null) useSceneStore().activate(target);
  }

  /** Runs one edit at the current frame as an undo step; the keys it wrote become the selection. */
  function runAndSelect(edit: (doc: VmdDocument, tracks: MotionTracks, frame: number) => EditOutcome<KeyEdit & { records: KeyRef[] }>): boolean {
    let placed: KeyRef[] = [];
    const r = hist.run((doc, tracks) => {
      const out = edit(doc, tracks, Math.round(time.frame));
      if (out.ok) placed = out.value.records;
      return out;
    });
    if (r) sel.select(placed, 'replace');
    return r !== null;
  }

  /**
   * A bone picked in the model (its joint, the Bones tab) that the open motion has no key of, so no track is
   * active: its name, else null. MMD's 登録 and 数値入力 work on it (the new-user pass: Enter and Register did
   * nothing for 右腕 on a new motion, and the Key panel showed no fields, until a ring was dragged).
   */
  function pickedUnkeyedBone(): string | null {
    const p = usePreviewStore().picked;
    return p && !p.tracked && !sel.activeTrack ? p.name : null;
  }

  /**
   * The bone (or morph) whose pose Copy takes and the key inspector shows when no key is selected, as in
   * MMD (a bone picked, no key): the active track when it is a bone or morph row with keys; a picked bone
   * without keys (pickedUnkeyedBone) as track −1 with its name, at rest; else null.
   */
  function poseTrack(): PoseTrack | null {
    const t = sel.activeTrack, tracks = docStore.tracks;
    if (!t && !sel.count && tracks) {
      const name = pickedUnkeyedBone();
      if (!name) return null;
      // The pick's flag may lag the document (a track just added by the file): its keys then count.
      const i = boneTrackOf(tracks, name);
      const [a, b] = i >= 0 ? trackRange(tracks.bones, i) : [0, 0];
      return a < b ? { kind: 'bone', track: i } : { kind: 'bone', track: -1, name };
    }
    if (sel.count || !t || !tracks || (t.kind !== 'bone' && t.kind !== 'morph')) return null;
    const tt = t.kind === 'bone' ? tracks.bones : tracks.morphs;
    if (t.track < 0 || t.track >= tt.names.length) return null;
    const [a, b] = trackRange(tt, t.track);
    return a < b ? { kind: t.kind, track: t.track } : null;
  }

  /** The name of a pose track (its bone or morph). */
  function poseTrackName(p: PoseTrack): string {
    if (p.track < 0) return p.name ?? '';
    const tracks = docStore.tracks;
    return (p.kind === 'bone' ? tracks?.bones.names[p.track] : tracks?.morphs.names[p.track]) ?? '';
  }

  /**
   * Ctrl+C: the selected keys; with none selected, the selected bone's pose at the current frame (its key
   * there, else the interpolated pose the preview shows), which Paste puts at the playhead as pasted keys.
   * The Morphs group row clicked last, or the morph panel focused (`facePanel`) with no key selected and no morph
   * row active: the whole face (copyFaceAtCursor).
   */
  function copySelectedKeys(opts: { facePanel?: boolean } = {}): boolean {
    const doc = docStore.doc;
    // The 表情 group row clicked last: the whole face, as Copy face (a group row folds and never becomes a track).
    if (sel.activeGroup) return copyFaceAtCursor(sel.activeGroup.doc);
    // From the morph panel with no key selected and no single morph row active: the face too (one morph's row
    // active copies its weight, below).
    if (!sel.count && opts.facePanel && sel.activeTrack?.kind !== 'morph') return copyFaceAtCursor(faceActorId());
    if (!sel.count) {
      const p = doc ? poseTrack() : null, tracks = docStore.tracks;
      const frame = Math.max(0, Math.round(time.frame));
      const clip = p && doc && tracks ? copyPoseAt(doc, tracks, [p], frame) : null;
      // Nothing to copy: said, not silent (the new-user pass pressed Ctrl+C and saw nothing happen).
      if (!p || !clip?.items.length) {
        useNotifyStore().info({ key: doc ? 'editor.copyNeedsKeys' : 'editor.copyNeedsMotion' });
        return false;
      }
      sel.setClipboard(clip);
      // A morph has a weight, not a pose (new-user pass numorph 7: "Copied the pose of まばたき" read as a bone's).
      if (p.kind === 'morph') {
        const b = clip.items[0].bytes, weight = new DataView(b.buffer, b.byteOffset, b.byteLength).getFloat32(MORPH.WEIGHT, true);
        useNotifyStore().info({ key: 'editor.copiedWeight', params: { name: poseTrackName(p), frame, weight: String(Math.round(weight * 1000) / 1000) } });
      } else useNotifyStore().info({ key: 'editor.copiedPose', params: { name: poseTrackName(p), frame } });
      return true;
    }
    if (!doc) return false;
    sel.setClipboard(copyKeys(doc, sel.refs));
    return true;
  }

  /** The document whose face the morph panel shows and keys: the active one, or with the camera document active the shown actor's. */
  function faceActorId(): number | null {
    const scene = useSceneStore();
    return scene.active?.kind === 'camera' ? scene.shownActorId : docStore.activeId;
  }

  /**
   * The whole face at the playhead (the morph panel's Copy face): every morph of document `id`'s motion (the active
   * one unless given: the panel's actor) at its weight there, keyed or in between as the preview plays it, which Paste
   * registers at the playhead as pasted keys, one undo step (new-user pass numorph 7: copying the column of keys at a
   * frame left out the morphs in between keys, and Ctrl+C took one morph).
   */
  function copyFaceAtCursor(id: number | null = docStore.activeId): boolean {
    const d = docStore.get(id);
    const frame = Math.max(0, Math.round(time.frame));
    if (!d) {
      useNotifyStore().info({ key: 'editor.copyNeedsMotion' });
      return false;
    }
    const clip = copyFaceAt(d.doc, d.tracks, frame);
    if (!clip.items.length) {
      useNotifyStore().info({ key: 'editor.copyFaceNone' });
      return false;
    }
    sel.setClipboard(clip);
    useNotifyStore().info({ key: 'editor.copiedFace', params: { frame, n: clip.items.length } });
    return true;
  }

  /**
   * Ctrl+X (as MikuMikuMoving cuts keys): the selected keys copied, then deleted as one undo step (the copy
   * touches no history). With no key selected it does nothing: Copy's fallback (the bone's pose) is no cut.
   */
  function cutSelectedKeys(): boolean {
    if (!sel.count || !copySelectedKeys()) return false;
    return deleteSelected('cut keys');
  }

  /**
   * A value typed in the key inspector with no key selected: registered as the pose track's key at the
   * current frame (its key there edited, else a new key with the in-between pose and that value), one
   * undo step; the key becomes the selection.
   */
  function editPoseAtCursor(edit: ValueEdit): boolean {
    const p = poseTrack();
    if (!p) return false;
    let record = -1;
    const r = hist.run((doc, tracks) => {
      const out = setValuesAt(doc, tracks, p, Math.max(0, Math.round(time.frame)), edit);
      if (out.ok) record = out.value.record;
      return out;
    });
    if (r && record >= 0) sel.select([{ kind: p.kind, record }], 'replace');
    return r !== null;
  }

  /**
   * A value typed in the key inspector while the selected key sits at another frame than the playhead: MMD's
   * panel works at the playhead, so the value goes to that key's track there (its key at the playhead edited,
   * else the key Enter would register there, with the value), one undo step ("register key", or `label`); the
   * key becomes the selection. A switcher moved to 300 with key 0 selected, typed Z, and the edit went to key 0.
   */
  function registerValuesAtCursor(target: TrackTarget, edit: ValueEdit, label?: string): boolean {
    let record = -1;
    const r = hist.run((doc, tracks) => {
      const out = registerValuesAt(doc, tracks, target, Math.max(0, Math.round(time.frame)), edit, label);
      if (out.ok) record = out.value.record;
      return out;
    });
    if (r && record >= 0) sel.select([{ kind: target.kind, record }], 'replace');
    return r !== null;
  }

  function pasteKeysAtCursor(): boolean {
    const clip = sel.clipboard;
    if (!clip) return false;
    showDocumentFor(clip);
    return runAndSelect((doc, tracks, frame) => pasteKeys(doc, tracks, clip, frame));
  }

  /**
   * Paste repeatedly… (a blink every 3 s): the copied keys `times` times from the current frame, every `every`
   * frames, one undo step (shared pasteKeysRepeatedly); the pasted keys become the selection.
   */
  function pasteKeysRepeatedlyAtCursor(times: number, every: number): boolean {
    const clip = sel.clipboard;
    if (!clip) return false;
    showDocumentFor(clip);
    return runAndSelect((doc, tracks, frame) => pasteKeysRepeatedly(doc, tracks, clip, frame, times, every));
  }

  /**
   * Mirror paste (反転貼り付け) at the current frame: the copied keys with 左/右 swapped and mirrored
   * ('all'), or only those with a side, onto the other side ('otherSide'). One undo step; the pasted
   * keys become the selection.
   */
  function mirrorPasteAtCursor(mode: MirrorPasteMode = 'all'): boolean {
    const clip = sel.clipboard;
    if (!clip) return false;
    showDocumentFor(clip);
    const outline = usePreviewStore().modelOutline;
    const modelMorphs = (outline?.morphs ?? []).map((m) => m.name);
    const modelBones = (outline?.groups ?? []).flatMap((g) => g.bones);
    return runAndSelect((doc, tracks, frame) => mirrorPasteKeys(doc, tracks, clip, frame, mode, modelMorphs, modelBones));
  }

  /**
   * Mirrors the pose at the current frame in place: the bones of the selected bone keys and their other
   * sides, or every bone when no bone key is selected. One undo step; the written keys become the selection.
   */
  function mirrorPoseAtCursor(): boolean {
    const tracks = docStore.tracks;
    const doc = docStore.doc;
    if (!tracks || !doc) return false;
    const scope = new Set<number>();
    for (const ref of sel.refs) {
      if (ref.kind !== 'bone') continue;
      const loc = locate(tracks, ref, doc.bone.count);
      if (loc) scope.add(loc.track);
    }
    const at = sel.activeTrack;
    if (!scope.size && at?.kind === 'bone') scope.add(at.track);
    const modelBones = (usePreviewStore().modelOutline?.groups ?? []).flatMap((g) => g.bones);
    return runAndSelect((d, t, frame) => mirrorPoseAt(d, t, frame, scope.size ? [...scope] : undefined, modelBones));
  }

  /**
   * The 表示・IK row as a track a key is registered on: with the IK bones of the model shown, which a new key lists
   * besides the key in force's (as MMD's 表示・IK panel registers every IK bone of the model).
   */
  function ikTarget(): TrackTarget {
    const iks = usePreviewStore().modelOutline?.ikBones ?? [];
    return iks.length ? { kind: 'ik', iks } : { kind: 'ik' };
  }

  /**
   * Inserts a key on the active track at the current frame with the interpolated pose (display/IK: the state in force).
   * On a frame where the track has a key, MMD's 登録 registers the pose there again; here every edit goes into the key
   * as it is made (a typed value, a ring drag on release), so the pose at that frame is the key's and registering it
   * again would change nothing: the key is selected (as a registered one is) and a quiet info line says so, replacing
   * its own previous one. It was a warning ("That frame already has a key"), and MMD users press Enter after every
   * adjustment (curve-polish pass). The edit itself (shared insertKey) still refuses a second key at a frame.
   */
  function insertKeyAtCursor(): boolean {
    const t = sel.activeTrack;
    if (!t) return registerPicked();
    const tracks = docStore.tracks as MotionTracks | null;
    if (tracks) {
      const tt = tracksOf(tracks, t.kind);
      const [a, b] = trackRange(tt, t.kind === 'bone' || t.kind === 'morph' ? t.track : 0);
      const frame = Math.max(0, Math.round(time.frame));
      const k = a < b ? keyAtFrame(tt.frames, a, b, frame) : -1;
      if (k >= 0) {
        sel.select([{ kind: t.kind, record: tt.record[k] }], 'replace');
        const notify = useNotifyStore();
        if (registeredNotice !== null) notify.dismiss(registeredNotice);
        registeredNotice = notify.info({ key: 'editor.registeredAlready', params: { frame } });
        return true;
      }
    }
    let record = -1;
    const r = hist.run((doc, tracks) => {
      const target: TrackTarget = t.kind === 'bone' || t.kind === 'morph' ? { kind: t.kind, track: t.track } : t.kind === 'ik' ? ikTarget() : { kind: t.kind };
      const out = insertKey(doc, tracks, target, Math.round(time.frame));
      if (out.ok) record = out.value.record;
      return out;
    });
    if (r && record >= 0) sel.select([{ kind: t.kind, record }], 'replace');
    return r !== null;
  }

  /**
   * Enter on a picked bone without keys (pickedUnkeyedBone): its pose at the current frame registered as its
   * key, as MMD's 登録 keys a bone never keyed: the rest pose (the motion does not move it), one undo step, the
   * key selected and its track active. With no motion open, one is started (registerPose), as a ring drag does.
   * The undo step is "register key" (キー登録), as Enter's on a bone with keys, not the ring drag's "pose bone".
   */
  function registerPicked(): boolean {
    const name = pickedUnkeyedBone();
    if (!name) return false;
    const p = poseTrack();
    if (p && p.track >= 0) {
      sel.setActiveTrack({ kind: 'bone', track: p.track });
      return insertKeyAtCursor();
    }
    return registerPose({ name, track: -1, pose: REST_POSE, frame: Math.max(0, Math.round(time.frame)), label: 'register key' }) !== null;
  }

  /** Selects every key of the motion (Ctrl+A); the active key stays active. */
  function selectAll(): boolean {
    const doc = docStore.doc;
    if (!doc) return false;
    const counts = Object.fromEntries(EDIT_KINDS.map((k) => [k, doc[k].count])) as Record<EditKind, number>;
    sel.selectAll(counts);
    return sel.count > 0;
  }

  /** Selects every key on one track (double-click on its name), in time order; the last becomes active. */
  function selectTrack(kind: EditKind, track: number): boolean {
    const tracks = docStore.tracks;
    if (!tracks) return false;
    const t = tracksOf(tracks, kind);
    const [from, to] = trackRange(t, track);
    const refs: KeyRef[] = [];
    for (let k = from; k < to; k++) refs.push({ kind, record: t.record[k] });
    sel.select(refs, 'replace');
    sel.setActiveTrack({ kind, track });
    return refs.length > 0;
  }

  /**
   * A typed value on the selected keys of `kind`; `keep` leaves some out (a position on bones the model does not let
   * move). `label`: the step's name, when the caller knows better than "edit values" (a typed camera value).
   */
  function editSelected(edit: ValueEdit, kind = sel.active?.kind, keep?: (r: KeyRef) => boolean, label?: string): boolean {
    const refs = sel.refs.filter((r) => r.kind === kind && (!keep || keep(r)));
    if (!refs.length) return false;
    return hist.run((doc) => editValues(doc, refs, edit, label)) !== null;
  }

  /**
   * Simplify: opens the Simplify panel (stores/simplify.ts), which at once previews the tracks of the
   * selected keys refitted between the first and the last selected key within its tolerances (the
   * curve pane overlays the result on the original, with the key counts and the largest error); its
   * Apply commits exactly that preview as one undo step. False when nothing simplifiable is selected.
   */
  function simplifySelected(): boolean {
    return useSimplifyStore().start();
  }

  return {
    curveTargets, curveTargetCount, activeCurves, setCurve, nudgeHandle, applyToAllChannels, copyCurve, pasteCurve, pasteCurveBlocked,
    deleteSelected, moveSelected, moveSelectedSliced, replacedByMove, pickedUnkeyedBone, poseTrack, poseTrackName, ikTarget, copySelectedKeys, copyFaceAtCursor, faceActorId, cutSelectedKeys, editPoseAtCursor, registerValuesAtCursor, pasteKeysAtCursor, pasteKeysRepeatedlyAtCursor, mirrorPasteAtCursor, mirrorPoseAtCursor, insertKeyAtCursor, editSelected, selectAll, selectTrack,
    simplifySelected,
  };
}
