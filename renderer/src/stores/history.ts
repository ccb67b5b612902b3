/**
 * Undo/redo: a command stack of record diffs (shared/editor/diff.ts), one entry per gesture. Entries
 * hold only the touched records' old and new bytes, so hundreds of steps on a 36 MB motion stay
 * small. Every edit of the editor goes through `run` (or `commit`), which applies the new document
 * to the document store and records the diff.
 */
import { defineStore } from 'pinia';
import { markRaw } from 'vue';
import type { MotionTracks } from '../../../shared/vmd/tracks';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import {
  applyDiff, diffBytes, EDIT_KINDS, isEmptyDiff, isRefusal, revertDiff,
  type EditDiff, type EditKind, type EditOutcome, type KeyEdit, type KeyRef,
} from '../../../shared/editor';
import { useDocumentStore } from './document';
import { useSelectionStore } from './selection';
import { useNotifyStore } from './notify';
import { useSettingsStore } from './settings';

/** i18n keys of the refusals people see (the edit's own English message goes in the detail line). */
const REFUSAL_TEXT = {
  E_COLLISION: 'editor.refused.collision',
  E_EXISTS: 'editor.refused.exists',
  E_RANGE: 'editor.refused.range',
  E_EMPTY: 'editor.refused.empty',
} as const;

/** Steps kept (at least 200 must be); the oldest are dropped beyond this. */
export const HISTORY_LIMIT = 500;
/** Memory cap for the stored diffs; the oldest steps are dropped first beyond it. */
export const HISTORY_BYTES = 256 * 1024 * 1024;


/** Keys a diff touched, as records of the document after it (for re-selecting on undo/redo). */
function touchedAfterApply(doc: VmdDocument, d: EditDiff): KeyRef[] {
  const out: KeyRef[] = [];
  for (const b of d.blocks) {
    if (!EDIT_KINDS.includes(b.kind as EditKind)) continue;
    const kind = b.kind as EditKind;
    // Patches and removals are both ascending: one walk counts the removals below each patch.
    let below = 0;
    for (const p of b.patches) {
      while (below < b.removed.length && b.removed[below].index < p.index) below++;
      out.push({ kind, record: p.index - below });
    }
    const n = doc[kind].count;
    for (let i = 0; i < b.appended.length; i++) out.push({ kind, record: n - b.appended.length + i });
  }
  return out;
}

function touchedAfterRevert(d: EditDiff): KeyRef[] {
  const out: KeyRef[] = [];
  for (const b of d.blocks) {
    if (!EDIT_KINDS.includes(b.kind as EditKind)) continue;
    const kind = b.kind as EditKind;
    for (const p of b.patches) out.push({ kind, record: p.index });
    for (const r of b.removed) out.push({ kind, record: r.index });
  }
  return out;
}

export const useHistoryStore = defineStore('history', {
  state: () => ({
    undoStack: markRaw([]) as EditDiff[],
    redoStack: markRaw([]) as EditDiff[],
    /** Bumped on every change of the stacks. */
    version: 0,
    undoLabel: '',
    redoLabel: '',
    bytes: 0,
    /** Last refusal (collision, …) for the editor's status line, in the UI language. */
    message: '',
    /** Milliseconds the last commit/undo/redo took to install its document (tracks included). */
    lastCommitMs: 0,
    /** Undo depth at which the document matches the file on disk (−1: that state was dropped). */
    savedDepth: 0,
    /** Documents this store installed; any other document in the store was opened, not edited. */
    produced: markRaw(new WeakSet<object>()),
  }),
  getters: {
    canUndo(state): boolean {
      void state.version;
      return state.undoStack.length > 0;
    },
    canRedo(state): boolean {
      void state.version;
      return state.redoStack.length > 0;
    },
    depth(state): number {
      void state.version;
      return state.undoStack.length;
    },
  },
  actions: {
    /** The open document and its tracks, or null. */
    current(): { doc: VmdDocument; tracks: MotionTracks } | null {
      const d = useDocumentStore();
      const doc = d.doc as VmdDocument | null;
      const tracks = d.tracks as MotionTracks | null;
      return doc && tracks ? { doc, tracks } : null;
    },
    /**
     * Runs an edit on the open document: refusals become a notice (document unchanged), results are
     * applied and recorded as one undo step. Returns the result, or null when refused / nothing open.
     */
    run(edit: (doc: VmdDocument, tracks: MotionTracks) => EditOutcome): KeyEdit | null {
      const cur = this.current();
      if (!cur) return null;
      const out = edit(cur.doc, cur.tracks);
      if (isRefusal(out)) {
        this.message = useSettingsStore().t(REFUSAL_TEXT[out.code]);
        useNotifyStore().push('warning', { key: REFUSAL_TEXT[out.code] }, out.message);
        return null;
      }
      this.commit(out);
      return out;
    },
    /** Applies an edit result and records it; empty edits are not recorded. */
    commit(r: KeyEdit) {
      if (isEmptyDiff(r.diff)) return;
      this.message = '';
      this.install(r.doc, true, r.diff);
      if (this.savedDepth > this.undoStack.length) this.savedDepth = -1; // the saved state was undone and is now unreachable
      this.undoStack.push(markRaw(r.diff));
      this.bytes += diffBytes(r.diff);
      for (const d of this.redoStack) this.bytes -= diffBytes(d);
      this.redoStack.length = 0;
      while (this.undoStack.length > HISTORY_LIMIT || (this.bytes > HISTORY_BYTES && this.undoStack.length > 1)) {
        this.bytes -= diffBytes(this.undoStack.shift()!);
        this.savedDepth = this.savedDepth > 0 ? this.savedDepth - 1 : -1;
      }
      this.sync();
    },
    undo(): boolean {
      const cur = this.current();
      const d = this.undoStack[this.undoStack.length - 1];
      if (!cur || !d) return false;
      const doc = revertDiff(cur.doc, d);
      this.undoStack.pop();
      this.redoStack.push(d);
      this.install(doc, this.undoStack.length !== this.savedDepth, d);
      this.reselect(doc, touchedAfterRevert(d));
      this.sync();
      return true;
    },
    redo(): boolean {
      const cur = this.current();
      const d = this.redoStack[this.redoStack.length - 1];
      if (!cur || !d) return false;
      const doc = applyDiff(cur.doc, d);
      this.redoStack.pop();
      this.undoStack.push(d);
      this.install(doc, this.undoStack.length !== this.savedDepth, d);
      this.reselect(doc, touchedAfterApply(doc, d));
      this.sync();
      return true;
    },
    install(doc: VmdDocument, dirty: boolean, diff?: EditDiff) {
      this.produced.add(doc);
      const t0 = performance.now();
      useDocumentStore().replaceDocument(doc, { dirty, diff });
      this.lastCommitMs = performance.now() - t0;
    },
    /** True when `doc` came from an edit, undo or redo here (not from opening a file). */
    owns(doc: unknown): boolean {
      return typeof doc === 'object' && doc !== null && this.produced.has(doc);
    },
    /** The document was saved: this depth is the clean state. */
    markSaved() {
      this.savedDepth = this.undoStack.length;
    },
    /** Forgets every step (a new document was opened). */
    clear() {
      this.undoStack.length = 0;
      this.redoStack.length = 0;
      this.savedDepth = 0;
      this.bytes = 0;
      this.message = '';
      this.sync();
    },
    reselect(doc: VmdDocument, refs: KeyRef[]) {
      const sel = useSelectionStore();
      const valid = refs.filter((r) => r.record < doc[r.kind].count);
      const keepActive = sel.active && valid.some((r) => r.kind === sel.active!.kind && r.record === sel.active!.record) ? sel.active : null;
      sel.select(valid, 'replace');
      if (keepActive) sel.active = keepActive;
    },
    sync() {
      this.undoLabel = this.undoStack[this.undoStack.length - 1]?.label ?? '';
      this.redoLabel = this.redoStack[this.redoStack.length - 1]?.label ?? '';
      this.version++;
    },
  },
});
