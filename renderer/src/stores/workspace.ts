/**
 * The workspace: the one owner of every open document, keyed by id, with the active id, and of the undo
 * history across them. Each document holds its bytes (the VmdDocument and its MotionTracks, kept out of
 * Vue's reactivity: they hold large typed arrays), its file, and its dirty state. Views read the active
 * document through the getters (`doc`, `tracks`, `path`, `dirty`, …) and watch `version`, which every change
 * of any document and every switch bumps.
 *
 * The history is a command stack of (document id, diff) steps, one per gesture: entries hold only the
 * touched records' old and new bytes (shared/key-edits/diff.ts), so hundreds of steps on a 36 MB motion stay
 * small. Undo and redo apply a step to its own document here (making it active first). Each document
 * remembers how many of its steps the undo stack held when it matched its file (`savedDepth`), so its dirty
 * mark follows undo and redo back to the saved state.
 *
 * Beside them, in the same stack, are scene steps: a change of the scene's own content (an actor's stage, the
 * music's offset or its removal), made by the scene or music store, which this store does not import, so the
 * step carries how to put either side of it in place (`SceneStep.put`). The scene's unsaved mark is the scene store's (its content against the file's),
 * so it follows their undo and redo by itself.
 *
 * The lifecycle actions say what they do to the history:
 * - `open(contents)` replaces every document: the history starts empty, the selection is cleared;
 * - `add(content)` (a new or another opened document) leaves the history as it is; `addStep(content, …)` adds
 *   one as an undo step of its own (+ Actor, an import, + New camera): undo takes it out again, redo puts the
 *   same document back;
 * - `close(id)` takes a document out: its steps leave the history, the others' stay in order (redo steps too);
 * - a new step drops the redo steps of its own document or scene part only: another document's undone steps
 *   still apply to it as they are (its content did not change), so an edit of the camera does not throw
 *   away an actor's redo;
 * - `save`/`saveAs` write a document: its present depth becomes its clean state (no step is added);
 *   Save of an unedited document that has its file writes nothing.
 *
 * How documents are arranged (actors, camera, models, the scene file) is the scene store's (stores/scene.ts),
 * which builds on this one; this store imports no store that imports it.
 */
import { defineStore } from 'pinia';
import { computed, markRaw, ref, shallowRef } from 'vue';
import {
  buildTracks,
  frameOf,
  inspectVmd,
  readVmd,
  readVpd,
  saveVpd,
  mirroredInfo,
  retimedInfo,
  success,
  vmdToVpd,
  stageMotionRefusal,
  vpdToVmd,
  writeVmd,
  writeVpd,
  type CodecError,
  type Diagnostic,
  type Failure,
  type MotionTracks,
  type Outcome,
  type Success,
  type VmdDocument,
  type VmdInfo,
} from '../../../shared/vmd';
import { vpdPart, type VpdParts, type VpdSelection } from '../../../shared/vmd/vpd-parts';
import type { FileStamp, IpcResult, SavedFile, SaveOptions } from '../../../shared/ipc/contract';
import {
  applyDiff, applyDiffSteps, diffBytes, drain, EDIT_KINDS, isEmptyDiff, isFieldsOnly, isMirrorOnly, isShiftOnly, mirroredCount, packedCount, RecordSet, revertDiff, shiftTracks, tracksAfterSteps, updateTrackCurves,
  type EditDiff, type EditKind, type EditRefusal, type KeyEdit, type RecordsByKind, type Steps,
} from '../../../shared/key-edits';
import { notAMotionError, refuseEmpty } from '../../../shared/ipc/file-kind';
import { useApi } from '../api';
import { useNotifyStore, type NoticeError, type NoticeKind, type NoticeText } from './notify';
import { useSelectionStore } from './selection';
import { useSettingsStore } from './settings';
import { useTimeStore } from './time';
import { fileNameOf, samePath } from '../paths';
import { askAboutRefusedSave, askPoseLoss, missingFolder, pickElsewhere, type PoseLossCounts } from './save-refusal';

export type DocumentFormat = 'vmd' | 'vpd';

/** What a document is, without its place in the workspace: decoded from a file or made new. */
export interface DocumentContent {
  /** Absolute path, or null for a document that has never been saved. */
  path: string | null;
  fileName: string;
  format: DocumentFormat;
  doc: VmdDocument;
  tracks: MotionTracks;
  info: VmdInfo;
  diagnostics: Diagnostic[];
  /**
   * The VPD file's bytes the document was read from or last saved as: a Save as a VPD rewrites in them only
   * the bones and morphs that changed (saveVpd), so the lines the user did not touch stay byte for byte.
   */
  poseText?: Uint8Array;
  /**
   * The version of its file it was read from (main's OpenedFile.stamp), or after a save the version written: a
   * Save over that file sends it, so a file another program changed meanwhile is asked about, not overwritten.
   * Absent or null: not read from a file by path (a dropped file, a new motion), nothing to compare.
   */
  stamp?: FileStamp | null;
  /**
   * Its file with every link resolved (main's OpenedFile.realPath / SavedFile.realPath): the same file opened by
   * another path (a symbolic link, a linked folder) has the same one, and so the same owner (ownerOf). Absent or
   * null: `path` is compared as it is.
   */
  realPath?: string | null;
  /**
   * The motion as it was read from its file or last saved there (the preview's "Ghost (as saved)" draws it over
   * the edited one: scene-actors.ts); absent for a document never read from a file or saved (a new motion, an
   * import). Documents are values (an edit installs new blocks, never writes into these), so this shares the
   * bytes until the first edit of each block copies it; from then on it keeps the file's version alive: up to the
   * file's size once per document, whatever the number of edits (the history holds diffs, not versions).
   */
  saved?: VmdDocument | null;
}

/** One open document. Held raw (never proxied); the store's `version` says when any of it changed. */
export interface OpenDocument extends DocumentContent {
  readonly id: number;
  dirty: boolean;
  /** Its steps in the undo stack when it matched its file (−1: that state was dropped or made unreachable). */
  savedDepth: number;
  /**
   * The file this document has saved over since it was opened (null: none yet): the first save over a file after
   * each open keeps the file it replaces as a .bak; later saves over the same file do not (the .bak stays the file
   * as it was before this opening).
   */
  savedTo: string | null;
}

/** One undo or redo step: a document's (DocumentStep) or the scene's own (SceneStep). */
export type HistoryStep = DocumentStep | SceneStep;

/** A step of a document: the document it edited and the diff. */
export interface DocumentStep {
  kind: 'doc';
  doc: number;
  diff: EditDiff;
  /**
   * A whole-block step (Delete all, a Whole Motion edit) keeps the tracks and summary of its other side:
   * of the document before it while it can be undone, after it while it can be redone, so its undo (600,000
   * keys back after Delete all) puts them back instead of rebuilding them. Counted in the history's bytes.
   */
  kept?: Prepared;
  /**
   * A step whose result should not go over the document's file (a retarget's Apply: the motion for another
   * model, as vmd_sizing writes …_<model>.vmd beside the original): the file name the first Save after it
   * proposes instead (Save As), and the file it must not replace (the document's when it was made). Undone
   * before a save, Save goes to that file as before; once saved elsewhere, later Saves go there.
   */
  newFile?: { name: string; over: string | null };
  /**
   * Undone together with the step before it, and redone with it (one key press, one Ctrl+Z): K with no camera
   * in the scene adds the camera document (a step of its own, undone alone elsewhere) and keys it, and the
   * undo pass found two Ctrl+Z needed, the empty camera between them looking saved.
   */
  joined?: boolean;
}

/**
 * A step of the scene's own content (an actor's stage, stores/scene.ts setStage): one per gesture, like a
 * document's. It is the scene store's to make; the workspace records it, and undo and redo call `put`.
 */
export interface SceneStep {
  kind: 'scene';
  /** What the step did, in English (the menus translate it: editor/edit-labels.ts). */
  label: string;
  /**
   * The scene part it changed (an actor's id, the workspace's; MUSIC_PART for the music's offset and removal):
   * its steps go when it leaves the scene.
   */
  part: number;
  /** Puts the scene as it was before the step ('undo') or after it ('redo'). */
  put(way: 'undo' | 'redo'): void;
  /**
   * The document the step added (addStep; `part` is its id): undo takes it out of the workspace after `put`,
   * kept here with its own later steps in the redo stack, and redo puts it back before `put`.
   */
  added?: OpenDocument;
  /**
   * The document the step took out (removeStep, × on a scene tab; `part` is its id): redo takes it out of the
   * workspace after `put`, undo puts the same document back (its keys, its unsaved mark, its own steps below) before
   * `put`.
   */
  removed?: OpenDocument;
  /** Bytes the step keeps alive beyond its few numbers (a removed song's decoded samples), counted in the history's bytes. */
  bytes?: number;
}

/**
 * The `part` of the music's steps (stores/music.ts: an offset change, a removal). Not a document (their ids
 * start at 1): the music is the scene's whatever documents are open, so its steps need none, and they leave
 * the history when another song is loaded (`forgetSteps(MUSIC_PART)`).
 */
export const MUSIC_PART = 0;

/** The document or scene part a step belongs to. */
export function stepOwner(s: HistoryStep): number {
  return s.kind === 'doc' ? s.doc : s.part;
}

/** What a step did, in English (a diff's label or a scene step's). */
export function stepLabel(s: HistoryStep): string {
  return s.kind === 'doc' ? s.diff.label : s.label;
}

/** Bytes counted for a scene step (a few numbers and a closure). */
const SCENE_STEP_BYTES = 256;

/** Tracks (and summary) already made for a document that is about to be put in place. */
interface Prepared {
  tracks: MotionTracks;
  info?: VmdInfo;
}

/** Bytes a tracks object holds (its typed arrays). */
function tracksBytes(t: MotionTracks): number {
  let n = 0;
  for (const part of [t.bones, t.morphs, t.camera, t.light, t.shadow, t.ik] as unknown as Record<string, unknown>[]) {
    for (const v of Object.values(part)) if (ArrayBuffer.isView(v)) n += v.byteLength;
  }
  return n;
}

/** Bytes a document's records take (a removed document kept by its removal step). */
function documentBytes(d: DocumentContent): number {
  const v = d.doc;
  return v.bone.bytes.byteLength + v.morph.bytes.byteLength + v.camera.bytes.byteLength + v.light.bytes.byteLength + v.shadow.bytes.byteLength + v.ik.bytes.byteLength;
}

/** Bytes a history step keeps alive. */
function stepBytes(s: HistoryStep): number {
  if (s.kind === 'scene') return SCENE_STEP_BYTES + (s.bytes ?? 0);
  return diffBytes(s.diff) + (s.kept ? tracksBytes(s.kept.tracks) : 0);
}

/** True when a diff replaces a block whole (its undo would rebuild the tracks). */
function replacesBlocks(d: EditDiff): boolean {
  return d.blocks.some((b) => !!b.replaced);
}

/**
 * A file read into a document, or why not: an `Outcome` whose failure also says whether the file could not
 * be read (`read`) or did not decode (`decode`); nothing is reported yet (the caller says it, once).
 */
/** A file read: its content, or why not (read: main could not read it; decode: its bytes, kept for stores/salvage.ts, did not decode). */
export type ReadOutcome = Success<DocumentContent> | (Failure & { stage: 'read' }) | (Failure & { stage: 'decode'; bytes: Uint8Array });

/** Steps kept (at least 200 must be); the oldest are dropped beyond this. */
export const HISTORY_LIMIT = 500;
/** Memory cap for the stored diffs; the oldest steps are dropped first beyond it. */
export const HISTORY_BYTES = 256 * 1024 * 1024;

function formatOf(name: string, bytes?: Uint8Array): DocumentFormat {
  if (/\.vpd$/i.test(name)) return 'vpd';
  if (/\.vmd$/i.test(name)) return 'vmd';
  // No telling extension (a dropped file, a pasted blob): the VPD magic is plain ASCII.
  const head = bytes ? String.fromCharCode(...bytes.subarray(0, 23)) : '';
  return head === 'Vocaloid Pose Data file' ? 'vpd' : 'vmd';
}

/**
 * A document's bytes in the format of `target` (VMD unless the name ends in .vpd: the pose at `frame`, 0 by
 * default, written over `poseText`, the VPD it came from, where it has one: only what changed is rewritten).
 */
export function encodeDocument(doc: VmdDocument, tracks: MotionTracks, target: string, poseText?: Uint8Array, frame = 0): Uint8Array {
  if (formatOf(target) === 'vpd') return poseText ? saveVpd(poseText, vmdToVpd(doc, tracks, frame)) : writeVpd(vmdToVpd(doc, tracks, frame));
  return writeVmd(doc);
}

/**
 * What a pose (.vpd) written from `doc` at `frame` leaves out: its bone and morph keys at other frames, and every
 * key of the blocks a pose has no place for (camera, light, self-shadow, IK/display). Null when it holds all
 * of it: a one-frame pose (its bone and morph keys all at one frame, nothing else), whatever frame it is at.
 */
export type PoseLoss = PoseLossCounts;
export function poseLoss(doc: VmdDocument, frame: number): PoseLoss | null {
  let keys = 0;
  const frames = new Set<number>();
  for (const b of [doc.bone, doc.morph]) {
    for (let i = 0; i < b.count; i++) {
      const f = frameOf(b, i);
      frames.add(f);
      if (f !== frame) keys++;
    }
  }
  const rest = { camera: doc.camera.count, light: doc.light.count, shadow: doc.shadow.count, ik: doc.ik.count };
  if (frames.size <= 1 && !rest.camera && !rest.light && !rest.shadow && !rest.ik) return null;
  return { frame, keys, ...rest };
}

/** A document's content from a VmdDocument (a new motion, a decoded file): its tracks and summary built once. */
export function documentContent(doc: VmdDocument, file: { name?: string; path?: string | null; format?: DocumentFormat; diagnostics?: Diagnostic[] } = {}): DocumentContent {
  const tracks = buildTracks(doc);
  const diagnostics = file.diagnostics ?? [];
  const path = file.path ?? null;
  return {
    path,
    fileName: path ? fileNameOf(path) : (file.name ?? ''),
    format: file.format ?? 'vmd',
    doc,
    tracks,
    info: inspectVmd(doc, tracks, diagnostics),
    diagnostics,
  };
}

/**
 * Decodes a file's bytes (VMD, or VPD as a one-frame VMD with keys at frame 0). The error names the file;
 * nothing is reported here (the caller says it, once).
 */
export function decodeDocument(name: string, bytes: Uint8Array, filePath: string | null = null): Outcome<DocumentContent> {
  const file = filePath ?? name;
  // A 0-byte file is said as main says it of one read by path (Open…), not as the reader's "not a VMD file".
  const empty = refuseEmpty(bytes, file);
  if (empty) return { ok: false, error: empty };
  // A song, a texture, a model, a video or notes opened as a motion: what it is and what to do with it (as the
  // command line says it), not the reader's "not a VMD file".
  const wrong = notAMotionError(name, bytes, file);
  if (wrong) return { ok: false, error: wrong };
  const fmt = formatOf(name, bytes);
  if (fmt === 'vpd') {
    const pose = readVpd(bytes);
    if (!pose.ok) return { ok: false, error: { ...pose.error, file } as CodecError };
    const converted = vpdToVmd(pose.value, { frame: 0, skipLongNames: true });
    if (!converted.ok) return { ok: false, error: { ...converted.error, file } as CodecError };
    const content = documentContent(converted.value, { name, path: filePath, format: 'vpd', diagnostics: [...pose.diagnostics, ...converted.diagnostics] });
    return { ok: true, value: { ...content, poseText: bytes, saved: content.doc } };
  }
  const r = readVmd(bytes);
  if (!r.ok) return { ok: false, error: { ...r.error, file } as CodecError };
  // As read: the version the preview's ghost shows until a save (DocumentContent.saved).
  return { ok: true, value: { ...documentContent(r.value, { name, path: filePath, format: 'vmd', diagnostics: r.diagnostics }), saved: r.value } };
}

/** Keys a diff touched, as records of the document after it (for re-selecting on undo/redo, and after an apply of a pose). */
export function touchedAfterApply(doc: VmdDocument, d: EditDiff): RecordsByKind {
  const out: RecordsByKind = {};
  for (const b of d.blocks) {
    if (!EDIT_KINDS.includes(b.kind as EditKind)) continue;
    const kind = b.kind as EditKind;
    const set = (out[kind] ??= new RecordSet());
    // Patches and removals are both ascending: one walk counts the removals below each patch.
    let below = 0;
    for (const p of b.patches) {
      while (below < b.removed.length && b.removed[below].index < p.index) below++;
      set.add(p.index - below);
    }
    if (b.fields) {
      const rs = b.fields.records;
      below = 0;
      for (let i = 0; i < rs.length; i++) {
        while (below < b.removed.length && b.removed[below].index < rs[i]) below++;
        set.add(rs[i] - below);
      }
    }
    if (b.shifted) {
      const rs = b.shifted.records;
      below = 0;
      for (let i = 0; i < rs.length; i++) {
        while (below < b.removed.length && b.removed[below].index < rs[i]) below++;
        set.add(rs[i] - below);
      }
    }
    const n = doc[kind].count;
    for (let i = 0; i < b.appended.length; i++) set.add(n - b.appended.length + i);
  }
  return out;
}

function touchedAfterRevert(d: EditDiff): RecordsByKind {
  const out: RecordsByKind = {};
  for (const b of d.blocks) {
    if (!EDIT_KINDS.includes(b.kind as EditKind)) continue;
    const kind = b.kind as EditKind;
    const set = (out[kind] ??= new RecordSet());
    for (const p of b.patches) set.add(p.index);
    for (const r of b.removed) set.add(r.index);
    for (const packed of [b.shifted, b.fields]) {
      if (!packed) continue;
      const rs = packed.records;
      for (let i = 0; i < rs.length; i++) set.add(rs[i]);
    }
  }
  return out;
}

/** Yields `steps`' progress mapped into [from, to] (one phase of a longer job). */
function* phase<T>(steps: Steps<T>, from: number, to: number): Steps<T> {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    yield from + (to - from) * r.value;
  }
}

/** A page option in ms (`?editSliceMs=`, `?editSliceGapMs=`), or null. */
function sliceOption(name: string): number | null {
  const v = new URLSearchParams(globalThis.location?.search ?? '').get(name);
  return v !== null && v.trim() !== '' && Number.isFinite(Number(v)) && Number(v) >= 0 ? Number(v) : null;
}

export const useWorkspaceStore = defineStore('workspace', () => {
  const docs = markRaw(new Map<number, OpenDocument>());
  /** The open documents' ids, in the order they were opened (reactive: the Map is not). */
  const ids = ref<number[]>([]);
  const activeId = ref<number | null>(null);
  /** Bumped on every change of any document (content, file, dirty mark) and every switch; watch this. */
  const version = ref(0);
  /** Bumped by `open` (everything replaced): views start afresh (view, scroll) for the new documents. */
  const opened = ref(0);
  const busy = ref(false);
  let nextId = 1;

  const undoStack = markRaw<HistoryStep[]>([]);
  const redoStack = markRaw<HistoryStep[]>([]);
  /** Bumped on every change of the history's stacks. */
  const historyVersion = ref(0);
  /** Bytes the stored diffs hold. */
  const historyBytes = ref(0);

  const active = shallowRef<OpenDocument | null>(null);
  /**
   * A getter over the active document. Each reads `version` itself: the document object stays the same
   * across edits, so a getter built on another getter would not see them.
   */
  function field<T>(read: (d: OpenDocument) => T, none: T) {
    return computed(() => {
      void version.value;
      const d = active.value;
      return d ? read(d) : none;
    });
  }
  const activeDoc = field((d) => d, null);
  const doc = field((d) => d.doc, null);
  const tracks = field((d) => d.tracks, null);
  const info = field((d) => d.info, null);
  const diagnostics = field((d) => d.diagnostics, []);
  const path = field((d) => d.path, null);
  const fileName = field((d) => d.fileName, '');
  const format = field<DocumentFormat>((d) => d.format, 'vmd');
  const dirty = field((d) => d.dirty, false);
  const isOpen = computed(() => active.value !== null);

  function changed() {
    version.value++;
  }

  /** A document by id (null when it is not open). Read `version` to follow its changes. */
  function get(id: number | null): OpenDocument | null {
    void version.value;
    return id === null ? null : (docs.get(id) ?? null);
  }

  /** The last frame over every open document (they share one time line). */
  function lastFrame(): number {
    let last = 0;
    for (const d of docs.values()) last = Math.max(last, d.tracks.lastFrame);
    return last;
  }

  function syncRange() {
    useTimeStore().setRange(lastFrame());
  }

  function install(content: DocumentContent): OpenDocument {
    const d: OpenDocument = markRaw({ ...content, id: nextId++, dirty: false, savedDepth: 0, savedTo: null });
    docs.set(d.id, d);
    ids.value = [...ids.value, d.id];
    return d;
  }

  function clearSelection() {
    const sel = useSelectionStore();
    sel.clear();
    sel.setActiveTrack(null);
  }

  // ---- the history ----

  function notifyHistory() {
    historyVersion.value++;
  }

  /** How many steps of document `id` the undo stack holds. */
  function depthOf(id: number): number {
    let n = 0;
    for (const s of undoStack) if (s.kind === 'doc' && s.doc === id) n++;
    return n;
  }

  function clearHistory() {
    undoStack.length = 0;
    redoStack.length = 0;
    historyBytes.value = 0;
    notifyHistory();
  }

  /** Takes document or scene part `id`'s steps out of the history (it left the scene). */
  function forgetSteps(id: number) {
    for (const stack of [undoStack, redoStack]) {
      for (let i = stack.length - 1; i >= 0; i--) {
        if (stepOwner(stack[i]) !== id) continue;
        historyBytes.value -= stepBytes(stack[i]);
        stack.splice(i, 1);
      }
    }
    notifyHistory();
  }

  /**
   * Puts an edited document in place: curve-only diffs patch the tracks' curve bytes, moves of whole
   * tracks get new frame arrays (shiftTracks), anything else rebuilds them. `ready`: tracks already
   * built for `next` (by a sliced job).
   */
  function replace(d: OpenDocument, next: VmdDocument, diff: EditDiff | undefined, ready?: Prepared | null) {
    if (ready) {
      d.tracks = ready.tracks;
      d.info = ready.info ?? (diff && isMirrorOnly(diff) ? mirroredInfo(d.info, ready.tracks) : retimedInfo(d.info, ready.tracks));
    } else if (!(diff && updateTrackCurves(d.tracks, next, diff))) {
      const shifted = diff ? shiftTracks(d.tracks, next, diff) : null;
      d.tracks = shifted ?? buildTracks(next);
      d.info = shifted ? retimedInfo(d.info, shifted) : inspectVmd(next, d.tracks, d.diagnostics);
    }
    d.doc = next;
  }

  // ---- whole-motion steps in slices ----

  /** A move, curve or Mirror of at least this many keys (or its undo/redo) is applied in slices between frames. */
  const SLICED_KEYS = 50_000;
  /**
   * Main-thread time one slice may take (at least one step runs per slice). `?editSliceMs=0` makes every
   * step its own slice: a measurement switch, and what the e2e suite uses to see the progress and cancel it.
   */
  const SLICE_MS = sliceOption('editSliceMs') ?? 8;
  /** Wait between slices (ms): 0, or `?editSliceGapMs=` to watch (and test) a step's progress and Cancel. */
  const SLICE_GAP_MS = sliceOption('editSliceGapMs') ?? 0;
  /** A sliced step shows its progress once it has run this long. */
  const SHOW_AFTER_MS = 100;

  /** The sliced step in progress (label, progress 0..1, shown once it ran SHOW_AFTER_MS), or null. */
  const job = ref<{ label: string; progress: number; shown: boolean } | null>(null);
  let cancelJob: (() => void) | null = null;

  /** Whether a step on `doc` runs in slices: a big move, curve or Mirror (or its undo/redo). */
  function isSliced(diff: EditDiff, doc: VmdDocument): boolean {
    if (isMirrorOnly(diff)) return mirroredCount(doc, diff) >= SLICED_KEYS;
    return (isShiftOnly(diff) || isFieldsOnly(diff)) && packedCount(diff) >= SLICED_KEYS;
  }

  /**
   * Runs steps in slices of SLICE_MS, yielding to the browser between them. Resolves to the result, or
   * null when cancelled (`cancel()`, Escape in the progress box) or when another job started.
   */
  async function runSliced<T>(label: string, steps: Steps<T>): Promise<T | null> {
    cancelJob?.();
    let cancelled = false;
    job.value = { label, progress: 0, shown: false };
    cancelJob = () => (cancelled = true);
    const start = performance.now();
    let progress = 0;
    for (;;) {
      const t0 = performance.now();
      do {
        const r = steps.next();
        if (r.done) {
          job.value = null;
          cancelJob = null;
          return r.value;
        }
        progress = r.value;
      } while (performance.now() - t0 < SLICE_MS);
      job.value = { label, progress, shown: performance.now() - start >= SHOW_AFTER_MS };
      await new Promise<void>((resolve) => setTimeout(resolve, SLICE_GAP_MS));
      if (cancelled) return null;
    }
  }

  /** Cancels the sliced step in progress (nothing of it is applied). */
  function cancel(): boolean {
    if (!cancelJob) return false;
    cancelJob();
    cancelJob = null;
    job.value = null;
    return true;
  }

  /**
   * Applies a diff made for the active document and records it, like `commit`: a big move in slices
   * (progress after 100 ms, cancellable; nothing is committed unless it completes and the document is
   * still the one it was made for), anything else at once. Resolves to whether it was committed.
   */
  async function commitDiff(diff: EditDiff): Promise<boolean> {
    const d = active.value;
    if (!d || isEmptyDiff(diff)) return false;
    if (!isSliced(diff, d.doc)) return commit({ doc: applyDiff(d.doc, diff), diff });
    const out = await commitSteps(diff.label, (function* () {
      return success(diff);
    })(), true);
    return out === true;
  }

  /**
   * Makes a diff for the active document in steps (`make`, e.g. a curve on 600,000 keys), applies it and
   * records it. `big`: the whole run goes in slices (progress after 100 ms, cancellable, committed only if
   * it completes and the document is still the one it was made for); else it runs at once. Resolves to
   * the edit's refusal, or whether it was committed.
   */
  async function commitSteps(label: string, make: Steps<Outcome<EditDiff, EditRefusal>>, big: boolean): Promise<EditRefusal | boolean> {
    const d = active.value;
    if (!d) return false;
    if (!big) {
      const made = drain(make);
      if (!made.ok) return made.error;
      const diff = made.value;
      return !isEmptyDiff(diff) && commit({ doc: applyDiff(d.doc, diff), diff });
    }
    const before = d.doc, tracks = d.tracks;
    const out = await runSliced(label, (function* () {
      const made = yield* phase(make, 0, 0.4);
      if (!made.ok) return made;
      const diff = made.value;
      const next = yield* phase(applyDiffSteps(before, diff, 'apply'), 0.4, 0.8);
      return success({ diff, next, tracks: yield* phase(tracksAfterSteps(tracks, next, diff), 0.8, 1) });
    })());
    if (!out) return false;
    if (!out.ok) return out.error;
    const done = out.value;
    if (active.value !== d || d.doc !== before || isEmptyDiff(done.diff)) return false;
    return commit({ doc: done.next, diff: done.diff }, done.tracks ? { tracks: done.tracks } : null);
  }

  /** undo/redo, a big move's in slices (as commitDiff); resolves to whether a step was taken. */
  async function stepSliced(way: 'undo' | 'redo'): Promise<boolean> {
    const from = way === 'undo' ? undoStack : redoStack;
    const s = from[from.length - 1];
    if (s?.kind !== 'doc') return step(way);
    const d = docs.get(s.doc);
    if (!d) return false;
    if (!isSliced(s.diff, d.doc)) return step(way);
    if (activeId.value !== d.id) activate(d.id);
    const before = d.doc, tracks = d.tracks;
    const out = await runSliced(s.diff.label, (function* () {
      const next = yield* phase(applyDiffSteps(before, s.diff, way === 'undo' ? 'revert' : 'apply'), 0, 0.7);
      return { next, tracks: yield* phase(tracksAfterSteps(tracks, next, s.diff), 0.7, 1) };
    })());
    if (!out || from[from.length - 1] !== s || d.doc !== before || !docs.has(d.id)) return false;
    return step(way, { next: out.next, ready: out.tracks ? { tracks: out.tracks } : null });
  }

  /**
   * Applies an edit result to the active document and records it as one undo step; empty edits are not
   * recorded. The redo steps go (a saved state among them becomes unreachable).
   */
  function commit(r: KeyEdit, ready?: Prepared | null, opts: { newFile?: string; joined?: boolean } = {}): boolean {
    const d = active.value;
    if (!d || isEmptyDiff(r.diff)) return false;
    dropRedo(d.id);
    const before: Prepared = { tracks: d.tracks, info: d.info };
    replace(d, r.doc, r.diff, ready);
    d.dirty = true;
    record(markRaw({ kind: 'doc', doc: d.id, diff: r.diff, kept: replacesBlocks(r.diff) ? before : undefined, ...(opts.newFile ? { newFile: { name: opts.newFile, over: d.path } } : {}), ...(opts.joined && undoStack.length ? { joined: true } : {}) }));
    syncRange();
    changed();
    notifyHistory();
    return true;
  }

  /**
   * A scene step (stores/scene.ts, stores/music.ts): puts its new side in place and records it as one undo step,
   * as `commit` does a document's edit (the redo steps go). False when its part is not open (MUSIC_PART always is).
   */
  function commitScene(s: Omit<SceneStep, 'kind'>): boolean {
    if (s.part !== MUSIC_PART && !docs.has(s.part)) return false;
    dropRedo(s.part);
    const made: SceneStep = markRaw({ kind: 'scene', ...s });
    made.put('redo');
    record(made);
    notifyHistory();
    return true;
  }

  /**
   * Adds a document as one undo step, `label` (the scene store's + Actor, import, + New camera): `put` is the
   * scene's side of it (its entry: 'redo' puts it in and makes it active, 'undo' takes it out and shows
   * another), run now as for a redo. Undo takes the document out of the workspace, kept in the step with
   * its own later steps waiting in the redo stack; redo puts the same document back, then those can be
   * redone. `unsaved`: it exists nowhere on disk (an import; see markUnsaved). Returns its id.
   */
  function addStep(content: DocumentContent, label: string, put: (id: number, way: 'undo' | 'redo') => void, opts: { unsaved?: boolean } = {}): number {
    const d = install(content);
    if (opts.unsaved) {
      d.dirty = true;
      d.savedDepth = -1;
    }
    const made: SceneStep = markRaw({ kind: 'scene', label, part: d.id, put: (way: 'undo' | 'redo') => put(d.id, way), added: d });
    made.put('redo');
    record(made);
    syncRange();
    changed();
    notifyHistory();
    return d.id;
  }

  /**
   * Document `id`, which has no file of its own (the one a scene named was missing, or it was never saved),
   * becomes the file `content` was read from, as one undo step `label`: its keys, its path, name and version
   * are the file's, and it is unedited (Save has nothing to write until it is edited), as if opened. `put` is the
   * scene's side ('redo': in place, 'undo': as it was). Undo puts back the document exactly as it was (its keys,
   * no file, its unsaved mark), and redo the file again; the document is made active both ways. False when
   * `id` is not open or `content` has no file.
   */
  function relinkStep(id: number, content: DocumentContent, label: string, put: (way: 'undo' | 'redo') => void): boolean {
    const d = docs.get(id);
    if (!d || !content.path) return false;
    dropRedo(id);
    type Side = Pick<OpenDocument, 'path' | 'realPath' | 'fileName' | 'format' | 'doc' | 'tracks' | 'info' | 'diagnostics' | 'poseText' | 'stamp' | 'savedTo' | 'dirty' | 'savedDepth' | 'saved'>;
    const sideOf = (x: Side): Side => ({
      path: x.path, realPath: x.realPath ?? null, fileName: x.fileName, format: x.format, doc: x.doc, tracks: x.tracks, info: x.info, diagnostics: x.diagnostics,
      poseText: x.poseText, stamp: x.stamp, savedTo: x.savedTo, dirty: x.dirty, savedDepth: x.savedDepth, saved: x.saved ?? null,
    });
    const before = sideOf(d);
    const after = sideOf({ ...content, savedTo: null, dirty: false, savedDepth: depthOf(id) });
    const made: SceneStep = markRaw({
      kind: 'scene',
      label,
      part: id,
      put: (way: 'undo' | 'redo') => {
        Object.assign(d, way === 'undo' ? before : after);
        if (activeId.value === id) clearSelection();
        else activate(id);
        put(way);
        syncRange();
        changed();
      },
      // The other side's keys are kept alive by the step.
      bytes: tracksBytes(d.tracks),
    });
    made.put('redo');
    record(made);
    notifyHistory();
    return true;
  }

  /** Undo of an addStep: the document leaves the workspace (its steps stay in the history, kept by the step). */
  function detach(d: OpenDocument) {
    if (!docs.delete(d.id)) return;
    ids.value = ids.value.filter((x) => x !== d.id);
    if (activeId.value === d.id) {
      activeId.value = null;
      active.value = null;
    }
    syncRange();
    changed();
  }

  /**
   * Takes document `id` out of the workspace as one undo step, `label` (× on a scene tab): `put` is the scene's
   * side ('redo': its entry out, another shown; 'undo': back in its place), run now as for a redo. Undo puts the
   * same document back with its keys, its unsaved mark and its own steps below the removal; its redo steps go now
   * (they could not be redone while it is out). The step keeps the document alive (counted in the history's bytes).
   * False when `id` is not open.
   */
  function removeStep(id: number, label: string, put: (way: 'undo' | 'redo') => void): boolean {
    const d = docs.get(id);
    if (!d) return false;
    dropRedo(id);
    const made: SceneStep = markRaw({ kind: 'scene', label, part: id, put, removed: d, bytes: tracksBytes(d.tracks) + documentBytes(d) });
    made.put('redo');
    detach(d);
    dropNoticesOf([d]);
    record(made);
    notifyHistory();
    return true;
  }

  /**
   * A removed document about to come back whose file another open document now owns (it was opened again
   * meanwhile): it comes back as an unsaved copy with no file (Save asks its name), as a scene's second actor on
   * one file does, so the two never write over each other's edits.
   */
  function reclaim(d: OpenDocument) {
    if (!d.path || !ownerOf(d.path, d.id)) return;
    d.path = null;
    d.dirty = true;
    d.savedDepth = -1;
  }

  /** Redo of an addStep: the same document comes back, with its id. */
  function attach(d: OpenDocument) {
    if (docs.has(d.id)) return;
    docs.set(d.id, d);
    ids.value = [...ids.value, d.id];
    syncRange();
    changed();
  }

  /** Every step of a document whose adding was undone leaves the history: it does not come back (its redo is gone). */
  function forget(id: number) {
    if (!docs.has(id)) forgetSteps(id);
  }

  /**
   * The document `id` stays for good: the step that added it leaves the history (the last document of the
   * window is not taken out by an undo; its other steps stay).
   */
  function keep(id: number) {
    const i = undoStack.findIndex((s) => s.kind === 'scene' && s.added?.id === id);
    if (i < 0) return;
    historyBytes.value -= stepBytes(undoStack[i]);
    undoStack.splice(i, 1);
    notifyHistory();
  }

  /**
   * A new step of document or scene part `owner` drops its redo steps (its saved state among them becomes
   * unreachable). The other documents' stay, in order: their content is as their steps expect it.
   */
  function dropRedo(owner: number) {
    for (let i = redoStack.length - 1; i >= 0; i--) {
      const s = redoStack[i];
      if (stepOwner(s) !== owner) continue;
      historyBytes.value -= stepBytes(s);
      redoStack.splice(i, 1);
    }
    const o = docs.get(owner);
    if (o && o.savedDepth > depthOf(o.id)) o.savedDepth = -1;
  }

  /** Document steps dropped off the undo stack's end so far (a save in flight checks whether its version still can be reached). */
  let droppedSteps = 0;

  /** Pushes a new step; the oldest go beyond HISTORY_LIMIT steps or HISTORY_BYTES. */
  function record(made: HistoryStep) {
    undoStack.push(made);
    historyBytes.value += stepBytes(made);
    while (undoStack.length > HISTORY_LIMIT || (historyBytes.value > HISTORY_BYTES && undoStack.length > 1)) {
      const gone = undoStack.shift()!;
      historyBytes.value -= stepBytes(gone);
      if (gone.kind !== 'doc') continue;
      droppedSteps++;
      const o = docs.get(gone.doc);
      if (o) o.savedDepth = o.savedDepth > 0 ? o.savedDepth - 1 : -1;
    }
  }

  /**
   * One step back (undo) or forward (redo): the step's document is made active, its diff reverted or
   * applied, its keys selected, and the step moves to the other stack; a scene step puts its side in place
   * (the active document and the selection stay). False when there is none.
   */
  function step(way: 'undo' | 'redo', done?: { next: VmdDocument; ready: Prepared | null }): boolean {
    const back = way === 'undo';
    const [from, to] = back ? [undoStack, redoStack] : [redoStack, undoStack];
    const s = from[from.length - 1];
    if (s?.kind === 'scene') {
      from.pop();
      to.push(s);
      if (back) dropStepNotices(s);
      if (s.removed) {
        if (back) {
          reclaim(s.removed);
          attach(s.removed);
          s.put(way);
        } else {
          s.put(way);
          detach(s.removed);
        }
      } else if (s.added && back) {
        s.put(way);
        detach(s.added);
      } else {
        if (s.added) attach(s.added);
        s.put(way);
      }
      notifyHistory();
      // The step joined to this one comes back with it (DocumentStep.joined).
      const next = redoStack[redoStack.length - 1];
      if (!back && next?.kind === 'doc' && next.joined && next.doc === s.added?.id) step('redo');
      return true;
    }
    const d = s ? docs.get(s.doc) : undefined;
    if (!s || !d) return false;
    if (activeId.value !== d.id) activate(d.id);
    const next = done?.next ?? (back ? revertDiff(d.doc, s.diff) : applyDiff(d.doc, s.diff));
    from.pop();
    to.push(s);
    if (back) dropStepNotices(s);
    // A whole-block step swaps its kept tracks with the document's (see DocumentStep.kept).
    const other: Prepared = { tracks: d.tracks, info: d.info };
    const ready = done?.ready ?? s.kept ?? null;
    replace(d, next, s.diff, ready);
    if (s.kept) {
      historyBytes.value += tracksBytes(other.tracks) - tracksBytes(s.kept.tracks);
      s.kept = other;
    }
    d.dirty = depthOf(d.id) !== d.savedDepth;
    reselect(next, back ? touchedAfterRevert(s.diff) : touchedAfterApply(next, s.diff));
    syncRange();
    changed();
    notifyHistory();
    // Joined to the step before it, the adding of this document: that one goes too (DocumentStep.joined). Only
    // that step: were it gone (the last document kept for good drops its adding), no other is undone with this.
    const before = undoStack[undoStack.length - 1];
    if (back && s.joined && before?.kind === 'scene' && before.added?.id === s.doc) step('undo');
    return true;
  }

  /** The notices that reported step `s` go with it (Notice.step): an undone edit is not still announced. */
  function dropStepNotices(s: HistoryStep) {
    useNotifyStore().dropStep(s);
  }

  /**
   * A notice that reports the edit just recorded (the undo stack's last step: a key registered, a pose applied, an
   * import added): undoing that step takes the notice away (Notice.step). Call it right after the edit's commit.
   */
  function editNotice(kind: NoticeKind, text: NoticeText, detail?: NoticeText, timeoutMs?: number): number {
    return useNotifyStore().add({ kind, text, detail, step: undoStack[undoStack.length - 1] }, timeoutMs);
  }

  function reselect(doc: VmdDocument, sets: RecordsByKind) {
    for (const kind of EDIT_KINDS) sets[kind]?.truncate(doc[kind].count);
    useSelectionStore().selectSets(sets);
  }

  // ---- the lifecycle ----

  /**
   * Open: `contents` replace every open document (none: the workspace is empty). The history starts empty,
   * the selection is cleared, playback stops at frame 0. Returns the new ids, in order; the one at
   * `activeIndex` is active.
   */
  function open(contents: DocumentContent[], activeIndex = 0): number[] {
    const leaving = [...docs.values()];
    docs.clear();
    ids.value = [];
    const made = contents.map((c) => install(c).id);
    const first = made[Math.min(Math.max(activeIndex, 0), made.length - 1)] ?? null;
    activeId.value = first;
    active.value = first === null ? null : docs.get(first)!;
    clearHistory();
    clearSelection();
    const time = useTimeStore();
    time.pause();
    time.clearRange();
    time.seek(0);
    syncRange();
    opened.value++;
    changed();
    // Notices about the documents replaced go (not those about a file opened again).
    dropNoticesOf(leaving);
    return made;
  }

  /** The notices about documents that left the workspace (by path), unless a document still open has that path. */
  function dropNoticesOf(left: OpenDocument[]) {
    const still = new Set([...docs.values()].map((d) => d.path));
    useNotifyStore().dropAbout(left.flatMap((d) => (d.path && !still.has(d.path) ? [d.path] : [])));
  }

  /** New (or another file opened beside the rest): adds a document; the history stays. Returns its id. */
  function add(content: DocumentContent, opts: { activate?: boolean } = {}): number {
    const d = install(content);
    if (opts.activate) activate(d.id);
    syncRange();
    changed();
    return d.id;
  }

  /**
   * Marks a document as never saved with this content (an import: it exists nowhere on disk), so it shows
   * as unsaved and the close prompts ask for it; no undo brings it back to a clean state.
   */
  function markUnsaved(id: number): boolean {
    const d = docs.get(id);
    if (!d) return false;
    d.dirty = true;
    d.savedDepth = -1;
    changed();
    return true;
  }

  /** Makes a document the active one (its keys for every tool, new steps of the history); the selection is cleared. */
  function activate(id: number): boolean {
    const d = docs.get(id);
    if (!d) return false;
    if (activeId.value === id) return true;
    activeId.value = id;
    active.value = d;
    clearSelection();
    changed();
    return true;
  }

  /** Close: takes a document out; its steps leave the history. When it was active, none is until `activate`. */
  function close(id: number): boolean {
    const d = docs.get(id);
    if (!d || !docs.delete(id)) return false;
    dropNoticesOf([d]);
    ids.value = ids.value.filter((x) => x !== id);
    if (activeId.value === id) {
      activeId.value = null;
      active.value = null;
    }
    forgetSteps(id);
    syncRange();
    changed();
    return true;
  }

  async function write(target: string, bytes: Uint8Array, o: SaveOptions): Promise<IpcResult<SavedFile>> {
    busy.value = true;
    try {
      return await useApi().saveFile(target, bytes, o);
    } finally {
      busy.value = false;
    }
  }

  function fail(e: NoticeError): false {
    useNotifyStore().error(e);
    return false;
  }

  /** Export targets replaced by this window so far: the first export over a file keeps it as a .bak, later ones do not. */
  const exportedOver = new Set<string>();

  /**
   * How a document is named to the person (the scene store's tab names: attachNames); its file name until then.
   * Kept outside Vue's reactivity: only messages read it.
   */
  let nameOf: (id: number) => string = (id) => docs.get(id)?.fileName ?? '';
  function attachNames(fn: (id: number) => string) {
    nameOf = fn;
  }

  /**
   * The open document whose file is `p` (other than `except`), or null; `real`: `p` with its links resolved
   * (main's realPath), so the same file by another path has the same owner. Each file has one owner: a second
   * document over the same file would save over the first one's edits (stores/scene.ts ownership rules).
   */
  function ownerOf(p: string, except: number | null = null, real: string | null = null): OpenDocument | null {
    for (const d of docs.values()) {
      if (d.id === except || !d.path) continue;
      // By the path, or, where main said both, by the file the path reaches (a link and its target are one file).
      if (samePath(d.path, p) || (real && samePath(d.realPath ?? d.path, real))) return d;
    }
    return null;
  }

  /**
   * Save As: writes document `id` (the active one by default) to `target` and makes that its file. Refused
   * (nothing written, a notice naming the other) when another open document has `target` as its file: the
   * two would write over each other's edits.
   * `overwrite` must be true to replace an existing file (the dialogs ask first); the first save over a file after
   * each open keeps the file it replaces as a .bak. Over its own file, the version it was read from or last saved
   * as is sent along: a file another program changed meanwhile (E_IO_CHANGED), a read-only file or a folder that
   * cannot be written is asked about (stores/save-refusal.ts): Overwrite (the other version becomes the .bak),
   * Save As…, or Cancel; so is a folder deleted since (Make the folder and save, Save As…, Cancel). The depth in
   * the history of the version written becomes its clean state: an edit made while the write was on its way
   * leaves it unsaved (undo back to the version written makes it clean).
   * A .vpd `target` of a motion a pose cannot hold (poseLoss: keys at other frames, camera, light, self-shadow or
   * IK keys) is an export of the pose at the current frame, as Export VPD at Frame… (Ctrl+E) writes it: asked
   * first (Save the pose / Cancel, naming what stays out); once written, the document keeps its file and stays
   * unsaved, and the answer is false (its motion is still in no file: a close that asked Save does not go on).
   * A camera or light motion has no pose: refused, as Export VPD refuses it.
   */
  async function saveAs(target: string, opts: { overwrite?: boolean } = {}, id: number | null = activeId.value): Promise<boolean> {
    const d = id === null ? null : docs.get(id);
    if (!d) return fail({ code: 'E_ARGUMENT', message: { key: 'notify.nothingToSave' } });
    const other = ownerOf(target, d.id);
    if (other) {
      useNotifyStore().warning({ key: 'scene.fileOpenTwice', params: { file: fileNameOf(target), name: nameOf(d.id), other: nameOf(other.id) } });
      return false;
    }
    // A motion saved as a pose (.vpd, one frame) is an export, as MMD's pose save is: asked first, naming what
    // stays out; the document keeps its file and its unsaved mark (its other keys are in no file).
    let loss: PoseLoss | null = null;
    if (formatOf(target) === 'vpd') {
      const stage = stageMotionRefusal(d.doc, 'export VPD');
      if (stage) return fail(stage);
      loss = poseLoss(d.doc, Math.round(useTimeStore().frame));
      if (loss && !(await askPoseLoss(loss, target))) return false;
    }
    const bytes = encodeDocument(d.doc, d.tracks, target, d.poseText, loss?.frame ?? 0);
    // The version written: edits made while the write is on its way (a big file takes a second or two) are not
    // in the file, so the document stays unsaved after it (savedAfterWrite).
    const wrote = d.doc, mark = topStepOf(d.id), droppedBefore = droppedSteps;
    const o: SaveOptions = { overwrite: opts.overwrite ?? false, backup: loss && target !== d.path ? !exportedOver.has(target) : d.savedTo !== target };
    if (d.stamp && d.path === target) o.expect = d.stamp;
    let r = await write(target, bytes, o);
    if (!r.ok) {
      const answer = await askAboutRefusedSave(r.error, target);
      if (answer === null) return fail(r.error);
      if (answer === 'cancel') return false;
      if (answer === 'saveAs') {
        const picked = await pickElsewhere(target, 'motion');
        return picked ? saveAs(picked.path, { overwrite: picked.overwrite }, d.id) : false;
      }
      if (answer === 'makeFolder') {
        const made = await useApi().createFolder(missingFolder(r.error, target));
        if (!made.ok) return fail(made.error);
        r = await write(target, bytes, o);
      } else r = await write(target, bytes, { ...o, replaceChanged: true });
      if (!r.ok) return fail(r.error);
    }
    if (loss) {
      // Written over its own .vpd (a pose given keys at other frames): the file is this version now (its stamp,
      // its text), but the document is still unsaved.
      if (d.path && samePath(d.path, target)) {
        d.poseText = bytes;
        d.stamp = r.value.stamp ?? null;
        d.savedTo = target;
      } else exportedOver.add(target);
      changed();
      void useSettingsStore().refreshRecent();
      useNotifyStore().success({ key: 'notify.savedPose', params: { name: fileNameOf(r.value.path), frame: loss.frame } });
      return false;
    }
    if (formatOf(target) === 'vpd') d.poseText = bytes;
    d.path = r.value.path;
    d.fileName = fileNameOf(r.value.path);
    d.format = formatOf(r.value.path);
    d.stamp = r.value.stamp ?? null;
    d.realPath = r.value.realPath ?? null;
    d.savedTo = target;
    d.savedDepth = d.doc === wrote ? depthOf(d.id) : savedAfterWrite(d.id, mark, droppedBefore);
    d.dirty = d.doc !== wrote && depthOf(d.id) !== d.savedDepth;
    // The preview's ghost shows this version from now on. (A pose exported over its own .vpd above is not: the
    // motion itself is in no file then.)
    d.saved = wrote;
    changed();
    void useSettingsStore().refreshRecent();
    const backup = r.value.backupPath ? fileNameOf(r.value.backupPath) : null;
    useNotifyStore().success(
      r.value.replacedChanged && backup
        ? { key: 'notify.savedOverChanged', params: { name: d.fileName, backup } }
        : backup
          ? { key: 'notify.savedBackup', params: { name: d.fileName, backup } }
          : r.value.backupSkipped
            ? { key: 'notify.savedNoBackup', params: { name: d.fileName, reason: r.value.backupSkipped } }
            : { key: 'notify.saved', params: { name: d.fileName } },
    );
    return true;
  }

  /** Document `id`'s latest step in the undo stack (null: none), which marks the version a save encodes. */
  function topStepOf(id: number): DocumentStep | null {
    for (let i = undoStack.length - 1; i >= 0; i--) {
      const s = undoStack[i];
      if (s.kind === 'doc' && s.doc === id) return s;
    }
    return null;
  }

  /**
   * The depth of document `id` at which it matches a version written while it was edited (the write awaited):
   * where `mark`, its latest step when the version was encoded, is now: in the undo stack (later edits on
   * top, or undone down to it), or in the redo stack (undone past it: redo brings it back). −1 when it is
   * gone (undone and replaced by a new edit, or dropped off the history's end): that version can no longer be
   * reached by undo or redo. With no step then, it is depth 0 unless steps left the history's end since
   * (`droppedBefore`: droppedSteps when it was encoded), which may have been its own.
   */
  function savedAfterWrite(id: number, mark: DocumentStep | null, droppedBefore: number): number {
    if (!mark) return droppedSteps === droppedBefore ? 0 : -1;
    let n = 0;
    for (const s of undoStack) {
      if (s.kind !== 'doc' || s.doc !== id) continue;
      n++;
      if (s === mark) return n;
    }
    for (let i = redoStack.length - 1; i >= 0; i--) {
      const s = redoStack[i];
      if (s.kind !== 'doc' || s.doc !== id) continue;
      n++;
      if (s === mark) return n;
    }
    return -1;
  }

  /**
   * The file name a Save of document `id` should propose instead of writing over its file: that of the
   * latest step since it matched its file that asks for a new one (DocumentStep.newFile) while the document's
   * file is still the one that step must not replace, or null. Steps undone are in the redo stack, not
   * counted; once saved elsewhere (the new file), later Saves go there, a redo of the step included.
   */
  function newFileFor(id: number | null = activeId.value): string | null {
    const d = id === null ? null : docs.get(id);
    if (!d) return null;
    let n = 0, name: string | null = null;
    for (const s of undoStack) {
      if (s.kind !== 'doc' || s.doc !== d.id) continue;
      n++;
      if (s.newFile && s.newFile.over === d.path && (d.savedDepth < 0 || n > d.savedDepth)) name = s.newFile.name;
    }
    return name;
  }

  /**
   * Save: writes document `id` (the active one by default) over its own file. False when it has none (the
   * caller asks for one: Save As). An unedited document is not written (no rewrite, no .bak): true, with a
   * notice that there was nothing to save.
   */
  async function save(id: number | null = activeId.value): Promise<boolean> {
    const d = id === null ? null : docs.get(id);
    if (!d?.path) return false;
    if (!d.dirty) {
      useNotifyStore().info({ key: 'notify.noChanges' });
      return true;
    }
    return saveAs(d.path, { overwrite: true }, d.id);
  }

  /**
   * Writes the active document's pose at `frame` (interpolated like playback) as a VPD file: the whole pose, or
   * `opts.parts` of it (shared/vmd/vpd-parts.ts: the `selected` bones and morphs, the bones, the morphs). `model`: the
   * file of the model it is posed on (the actor's), whose name the header gives as MMD writes it (Gene_light.osm).
   */
  async function exportVpd(target: string, frame: number, opts: { overwrite?: boolean; model?: string | null; parts?: VpdParts; selected?: VpdSelection } = {}): Promise<boolean> {
    const d = active.value;
    if (!d) return fail({ code: 'E_ARGUMENT', message: { key: 'notify.nothingToSave' } });
    // A camera or light motion has no pose: refused, as convert to VPD refuses it (not an empty VPD).
    const stage = stageMotionRefusal(d.doc, 'export VPD');
    if (stage) return fail(stage);
    const pose = vpdPart(vmdToVpd(d.doc, d.tracks, frame, opts.model), opts.parts ?? 'all', opts.selected);
    const r = await write(target, writeVpd(pose), { overwrite: opts.overwrite ?? false, backup: !exportedOver.has(target) });
    if (!r.ok) return fail(r.error);
    exportedOver.add(target);
    useNotifyStore().success({ key: 'vpd.exported', params: { name: fileNameOf(r.value.path), bones: pose.bones.length, morphs: pose.morphs.length } });
    return true;
  }

  /**
   * Reads a file through main and decodes it (nothing is added, nothing reported): a failure says whether
   * the file could not be read or did not decode, and its error names the file. `recent: false`: read for a
   * scene (its actors' motions, its camera), so main keeps it off the recent list (the scene heads it).
   */
  async function read(p: string, opts?: { recent?: boolean }): Promise<ReadOutcome> {
    const r = await useApi().openFile(p, ...(opts ? [opts] : []));
    if (!r.ok) return { ok: false, stage: 'read', error: r.error };
    const d = decodeDocument(r.value.name, r.value.bytes, r.value.path);
    return d.ok ? { ok: true, value: { ...d.value, stamp: r.value.stamp ?? null, realPath: r.value.realPath ?? null } } : { ok: false, stage: 'decode', error: d.error, bytes: r.value.bytes };
  }

  return {
    editNotice,
    ids,
    activeId,
    version,
    opened,
    busy,
    active: activeDoc,
    doc,
    tracks,
    info,
    diagnostics,
    path,
    fileName,
    format,
    dirty,
    isOpen,
    historyVersion,
    historyBytes,
    undoStack,
    redoStack,
    get,
    lastFrame,
    depthOf,
    commit,
    newFileFor,
    commitScene,
    forgetSteps,
    commitDiff,
    commitSteps,
    undo: () => step('undo'),
    redo: () => step('redo'),
    undoSliced: () => stepSliced('undo'),
    redoSliced: () => stepSliced('redo'),
    job,
    cancel,
    open,
    add,
    markUnsaved,
    addStep,
    removeStep,
    relinkStep,
    keep,
    forget,
    activate,
    close,
    save,
    saveAs,
    ownerOf,
    attachNames,
    exportVpd,
    read,
  };
});
