/**
 * Undo/redo: a command stack of record diffs (shared/key-edits/diff.ts), one entry per gesture. Entries
 * hold only the touched records' old and new bytes, so hundreds of steps on a 36 MB motion stay
 * small. Every edit of the editor goes through `run` (or `commit`), which applies the new document
 * to the document store and records the diff.
 *
 * One history across the scene (stores/scene.ts): each step remembers the document it edited (`undoDocs`,
 * `redoDocs`, parallel to the stacks) and shows that document's name beside its label. Undoing a step of
 * a document the editor is not showing first makes that document active, then reverts it there. Each
 * document has its own saved depth (the number of its steps in the undo stack when it was saved), so its
 * dirty mark follows undo and redo back to the saved state.
 */
import { defineStore } from 'pinia';
import { markRaw } from 'vue';
import type { MotionTracks } from '../../../shared/vmd/tracks';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import {
  applyDiff, diffBytes, EDIT_KINDS, isEmptyDiff, isRefusal, revertDiff,
  type EditDiff, type EditKind, type EditOutcome, type KeyEdit, type KeyRef,
} from '../../../shared/key-edits';
import { useDocumentStore } from './document';
import { useSceneStore } from './scene';
import { useSelectionStore } from './selection';
import { useNotifyStore } from './notify';
import { useSettingsStore } from './settings';

/** i18n keys of the refusals people see (the edit's own detail, in the UI's words, goes in the detail line). */
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
    /** The scene document (stores/scene.ts entry id; 0 before any) each undo/redo step edited. */
    undoDocs: markRaw([]) as number[],
    redoDocs: markRaw([]) as number[],
    /** Name of the document the next undo/redo step belongs to. */
    undoDoc: '',
    redoDoc: '',
    /** Bumped on every change of the stacks. */
    version: 0,
    undoLabel: '',
    redoLabel: '',
    bytes: 0,
    /** Last refusal (collision, …) for the editor's status line, in the UI language. */
    message: '',
    /** Milliseconds the last commit/undo/redo took to install its document (tracks included). */
    lastCommitMs: 0,
    /**
     * Per document: how many of its steps the undo stack holds when it matches its file on disk (−1: that
     * state was dropped or made unreachable). A document not listed is clean at 0.
     */
    savedDepths: markRaw(new Map<number, number>()),
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
    /** The scene document the editor shows (its id names new steps). */
    activeDoc(): number {
      return useSceneStore().activeId ?? 0;
    },
    /** How many steps of document `id` the undo stack holds. */
    depthOf(id: number): number {
      let n = 0;
      for (const d of this.undoDocs) if (d === id) n++;
      return n;
    },
    savedDepthOf(id: number): number {
      return this.savedDepths.get(id) ?? 0;
    },
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
        useNotifyStore().push('warning', { key: REFUSAL_TEXT[out.code] }, out.detail);
        return null;
      }
      this.commit(out);
      return out;
    },
    /** Applies an edit result and records it; empty edits are not recorded. */
    commit(r: KeyEdit) {
      if (isEmptyDiff(r.diff)) return;
      this.message = '';
      const id = this.activeDoc();
      this.install(r.doc, true, r.diff);
      // A saved state that was undone (its steps are on the redo stack, about to go) is now unreachable.
      for (const [doc, depth] of this.savedDepths) if (depth > this.depthOf(doc)) this.savedDepths.set(doc, -1);
      this.undoStack.push(markRaw(r.diff));
      this.undoDocs.push(id);
      this.bytes += diffBytes(r.diff);
      for (const d of this.redoStack) this.bytes -= diffBytes(d);
      this.redoStack.length = 0;
      this.redoDocs.length = 0;
      while (this.undoStack.length > HISTORY_LIMIT || (this.bytes > HISTORY_BYTES && this.undoStack.length > 1)) {
        this.bytes -= diffBytes(this.undoStack.shift()!);
        const doc = this.undoDocs.shift()!;
        const depth = this.savedDepthOf(doc);
        this.savedDepths.set(doc, depth > 0 ? depth - 1 : -1);
      }
      this.sync();
    },
    /** Shows the document step `id` belongs to (undo/redo of another document of the scene). */
    showDoc(id: number): boolean {
      if (id === this.activeDoc()) return true;
      return useSceneStore().activate(id) && id === this.activeDoc();
    },
    undo(): boolean {
      return this.step('undo');
    },
    redo(): boolean {
      return this.step('redo');
    },
    /**
     * One step back (undo) or forward (redo): the step's document is shown, its diff reverted or applied,
     * and the step moves to the other stack; the dirty mark compares that document's depth with its saved one.
     */
    step(way: 'undo' | 'redo'): boolean {
      const back = way === 'undo';
      const [from, fromDocs, to, toDocs] = back
        ? [this.undoStack, this.undoDocs, this.redoStack, this.redoDocs]
        : [this.redoStack, this.redoDocs, this.undoStack, this.undoDocs];
      const d = from[from.length - 1];
      const id = fromDocs[fromDocs.length - 1] ?? 0;
      if (!d || !this.showDoc(id)) return false;
      const cur = this.current();
      if (!cur) return false;
      const doc = back ? revertDiff(cur.doc, d) : applyDiff(cur.doc, d);
      from.pop();
      fromDocs.pop();
      to.push(d);
      toDocs.push(id);
      this.install(doc, this.depthOf(id) !== this.savedDepthOf(id), d);
      this.reselect(doc, back ? touchedAfterRevert(d) : touchedAfterApply(doc, d));
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
    /** A document of the scene shown again (not newly opened): the editor keeps the history for it. */
    adopt(doc: VmdDocument) {
      this.produced.add(doc);
    },
    /** The active document was saved: its present depth is its clean state. */
    markSaved() {
      this.markSavedFor(this.activeDoc());
    },
    /** Document `id` was saved (Save All writes documents the editor is not showing). */
    markSavedFor(id: number) {
      this.savedDepths.set(id, this.depthOf(id));
    },
    /** Forgets the steps of one document (taken out of the scene); the other documents' steps stay, in order. */
    forget(id: number) {
      const keep = (stack: EditDiff[], docs: number[]) => {
        for (let i = docs.length - 1; i >= 0; i--) {
          if (docs[i] !== id) continue;
          this.bytes -= diffBytes(stack[i]);
          stack.splice(i, 1);
          docs.splice(i, 1);
        }
      };
      keep(this.undoStack, this.undoDocs);
      keep(this.redoStack, this.redoDocs);
      this.savedDepths.delete(id);
      this.sync();
    },
    /** Forgets every step (a new document or scene was opened). */
    clear() {
      this.undoStack.length = 0;
      this.redoStack.length = 0;
      this.undoDocs.length = 0;
      this.redoDocs.length = 0;
      this.savedDepths.clear();
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
      const scene = useSceneStore();
      const named = (ids: number[]) => (ids.length ? scene.docName(ids[ids.length - 1]) : '');
      this.undoDoc = named(this.undoDocs);
      this.redoDoc = named(this.redoDocs);
      this.version++;
    },
  },
});
