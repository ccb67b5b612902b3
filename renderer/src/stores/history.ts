/**
 * Undo/redo as the editor sees it: the labels and the document of the next step, the last refusal, and
 * `run` — every edit of the editor goes through it (or `commit`). The steps themselves, (document id,
 * diff), are the workspace's (stores/workspace.ts): it applies them to their own documents and keeps each
 * document's saved depth, and its Open / Close / Save say what they do to the steps. Scene steps (an
 * actor's stage, an actor or the camera added, the music's offset or removal) share the stack; the scene and
 * music stores make them (stores/scene.ts setStage, addAsStep; stores/music.ts changeOffset, remove).
 */
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { MotionTracks } from '../../../shared/vmd/tracks';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import type { EditDiff, EditOutcome, EditRefusal, KeyEdit, Steps } from '../../../shared/key-edits';
import type { Outcome } from '../../../shared/vmd/errors';
import { MUSIC_PART, stepLabel, stepOwner, useWorkspaceStore, type HistoryStep } from './workspace';
import { editLabelText } from '../../../shared/i18n/edit-labels';
import { useMusicStore } from './music';
import { useSceneStore } from './scene';
import { useNotifyStore } from './notify';
import { useSettingsStore } from './settings';

export { HISTORY_BYTES, HISTORY_LIMIT } from './workspace';

/** i18n keys of the refusals people see (the edit's own detail, in the UI's words, goes in the detail line). */
const REFUSAL_TEXT = {
  E_COLLISION: 'editor.refused.collision',
  E_EXISTS: 'editor.refused.exists',
  E_RANGE: 'editor.refused.range',
  E_EMPTY: 'editor.refused.empty',
  E_ARGUMENT: 'editor.refused.value',
} as const;

export const useHistoryStore = defineStore('history', () => {
  const ws = useWorkspaceStore();
  /** Last refusal (collision, …) for the editor's status line, in the UI language. */
  const message = ref('');

  const version = computed(() => ws.historyVersion);
  const canUndo = computed(() => (void ws.historyVersion, ws.undoStack.length > 0));
  const canRedo = computed(() => (void ws.historyVersion, ws.redoStack.length > 0));
  const depth = computed(() => (void ws.historyVersion, ws.undoStack.length));
  const bytes = computed(() => ws.historyBytes);
  /** The steps, oldest first (the workspace's; read-only here). */
  const undoStack = computed(() => (void ws.historyVersion, ws.undoStack));
  const redoStack = computed(() => (void ws.historyVersion, ws.redoStack));
  const undoLabel = computed(() => (void ws.historyVersion, labelOf(ws.undoStack[ws.undoStack.length - 1])));
  const redoLabel = computed(() => (void ws.historyVersion, labelOf(ws.redoStack[ws.redoStack.length - 1])));
  /**
   * Name of what the next undo/redo step belongs to: a document ("camera.vmd", "Miku: dance.vmd"), or for a
   * scene step the actor ("Miku"), or the song for the music's (none while it is removed).
   */
  const undoDoc = computed(() => (void ws.historyVersion, nameOf(ws.undoStack[ws.undoStack.length - 1])));
  const redoDoc = computed(() => (void ws.historyVersion, nameOf(ws.redoStack[ws.redoStack.length - 1])));

  function labelOf(s: HistoryStep | undefined): string {
    return s ? stepLabel(s) : '';
  }

  function nameOf(s: HistoryStep | undefined): string {
    if (!s) return '';
    const scene = useSceneStore();
    if (s.kind === 'scene' && s.part === MUSIC_PART) return useMusicStore().name ?? '';
    return s.kind === 'doc' ? scene.docName(s.doc) : scene.partName(s.part);
  }

  /**
   * Runs an undo or redo (`go`); when its step belongs to another document than the one shown and the editor
   * switched to it (one history across the scene), a notice says what it did where ("Undid register key in miku:
   * wavefile_v2.vmd"): the jump to another tab is not left to be guessed from the undo button's tooltip.
   */
  function said<T extends boolean | Promise<boolean>>(way: 'undo' | 'redo', go: () => T): T {
    const s = (way === 'undo' ? ws.undoStack : ws.redoStack).at(-1);
    const shown = ws.activeId;
    const owner = s ? stepOwner(s) : null;
    // Named before the step: an undone adding takes its document's name out of the scene. A redone adding has no
    // name before the step (its document is not in the scene yet), so it is named after it.
    const before = s ? nameOf(s) : '';
    const after = (done: boolean) => {
      if (!done || !s || owner === MUSIC_PART || owner === shown || ws.activeId === shown || ws.activeId !== owner) return;
      // A new camera with no file yet has no name at all: the notice then names the step alone.
      const doc = before || nameOf(s);
      const what = editLabelText(stepLabel(s));
      if (!doc) useNotifyStore().info({ key: way === 'undo' ? 'history.undid' : 'history.redid', params: { what } });
      else useNotifyStore().info({ key: way === 'undo' ? 'history.undidIn' : 'history.redidIn', params: { what, doc } });
    };
    const r = go();
    if (typeof r === 'boolean') after(r);
    else void r.then(after);
    return r;
  }

  /** The active document and its tracks, or null. */
  function current(): { doc: VmdDocument; tracks: MotionTracks } | null {
    const doc = ws.doc as VmdDocument | null;
    const tracks = ws.tracks as MotionTracks | null;
    return doc && tracks ? { doc, tracks } : null;
  }

  /**
   * Runs an edit on the active document: refusals become a notice (document unchanged), results are
   * applied and recorded as one undo step (`joined`: undone and redone with the step before it, see
   * DocumentStep.joined). Returns the result, or null when refused / nothing open.
   */
  function run(edit: (doc: VmdDocument, tracks: MotionTracks) => EditOutcome, opts: { joined?: boolean } = {}): KeyEdit | null {
    const cur = current();
    if (!cur) return null;
    const out = edit(cur.doc, cur.tracks);
    if (!out.ok) {
      refused(out.error);
      return null;
    }
    commit(out.value, opts);
    return out.value;
  }

  /**
   * Like `run` for an edit that gives its diff without applying it (a move): the workspace applies a big
   * one in slices (progress, cancellable) and commits it only once it is complete. Resolves to whether
   * it was committed.
   */
  async function runDiff(make: (doc: VmdDocument, tracks: MotionTracks) => Outcome<EditDiff, EditRefusal>): Promise<boolean> {
    const cur = current();
    if (!cur) return false;
    const out = make(cur.doc, cur.tracks);
    if (!out.ok) {
      refused(out.error);
      return false;
    }
    const ok = await ws.commitDiff(out.value);
    if (ok) message.value = '';
    return ok;
  }

  /**
   * Like `runDiff` for an edit whose diff is made in steps (a curve on many keys): `big` runs the whole
   * of it in slices (progress, cancellable), else at once. Resolves to whether it was committed.
   */
  async function runSteps(label: string, make: (doc: VmdDocument, tracks: MotionTracks) => Steps<Outcome<EditDiff, EditRefusal>>, big: boolean): Promise<boolean> {
    const cur = current();
    if (!cur) return false;
    const out = await ws.commitSteps(label, make(cur.doc, cur.tracks), big);
    if (typeof out !== 'boolean') {
      refused(out);
      return false;
    }
    if (out) message.value = '';
    return out;
  }

  function refused(out: EditRefusal) {
    message.value = useSettingsStore().t(REFUSAL_TEXT[out.code]);
    useNotifyStore().push('warning', { key: REFUSAL_TEXT[out.code] }, out.detail);
  }

  /** Applies an edit result to the active document and records it; empty edits are not recorded. */
  /** Records an edit made elsewhere as one step; `newFile`: the step's result should be saved as that file (DocumentStep.newFile). */
  function commit(r: KeyEdit, opts: { newFile?: string; joined?: boolean } = {}) {
    if (ws.commit(r, null, opts)) message.value = '';
  }

  return {
    message,
    version,
    canUndo,
    canRedo,
    depth,
    bytes,
    undoStack,
    redoStack,
    undoLabel,
    redoLabel,
    undoDoc,
    redoDoc,
    current,
    run,
    runDiff,
    runSteps,
    commit,
    undo: () => said('undo', () => ws.undo()),
    redo: () => said('redo', () => ws.redo()),
    /** Undo / redo from the keyboard and the menus: a big move's step runs in slices (workspace.stepSliced). */
    undoSliced: () => said('undo', () => ws.undoSliced()),
    redoSliced: () => said('redo', () => ws.redoSliced()),
  };
});
