/**
 * Read-only test hook of the motion editor: `window.__vmdEditor`, installed at start by the e2e build's
 * entry (main.ts here). End-to-end tests use it to compare the open document's
 * bytes with the codec's answer after each gesture without going through Save As every time. Nothing
 * here changes state.
 *
 *   bytes()      the document as it would be saved (writeVmd), base64; null when nothing is open
 *   selection()  selected keys as {kind, record}, and the active key
 *   history()    undo/redo depth and the last refusal message
 *   frame()      current frame and whether playback runs
 *   lastCommitMs()  ms the workspace's last commit, undo or redo took (the step stored, its document and
 *                   tracks put in place), timed around the store's action ($onAction)
 *   version()    the workspace's version (bumped by every open and edit)
 *   digest()     SHA-256 (hex) of what bytes() would return, without the base64 of a 66 MB motion
 *   selectedCount()  how many keys are selected (without listing them)
 */
import type { Pinia } from 'pinia';
import { writeVmd } from '../../../shared/vmd/vmd-writer';
import type { KeyRef } from '../../../shared/key-edits';
import { useWorkspaceStore } from '../stores/workspace';
import { useHistoryStore } from '../stores/history';
import { useSelectionStore } from '../stores/selection';
import { useTimeStore } from '../stores/time';

export interface EditorTestHook {
  bytes(): string | null;
  selection(): { refs: KeyRef[]; active: KeyRef | null };
  history(): { undo: number; redo: number; message: string };
  frame(): { frame: number; playing: boolean };
  lastCommitMs(): number;
  version(): number;
  digest(): Promise<string | null>;
  selectedCount(): number;
}

declare global {
  interface Window {
    __vmdEditor?: EditorTestHook;
  }
}

function toBase64(u: Uint8Array): string {
  let s = '';
  // Chunks: String.fromCharCode(...big array) overflows the call stack.
  for (let i = 0; i < u.length; i += 0x8000) s += String.fromCharCode(...u.subarray(i, i + 0x8000));
  return btoa(s);
}

/** Installs the hook. */
export function installEditorTestHook(pinia: Pinia): void {
  const doc = useWorkspaceStore(pinia);
  const hist = useHistoryStore(pinia);
  const sel = useSelectionStore(pinia);
  const time = useTimeStore(pinia);
  let lastCommitMs = 0;
  doc.$onAction(({ name, after }) => {
    if (name !== 'commit' && name !== 'undo' && name !== 'redo') return;
    const t0 = performance.now();
    after(() => {
      lastCommitMs = performance.now() - t0;
    });
  });
  const hook: EditorTestHook = {
    bytes: () => (doc.doc ? toBase64(writeVmd(doc.doc)) : null),
    selection: () => ({ refs: sel.refs.map((r) => ({ kind: r.kind, record: r.record })), active: sel.active ? { ...sel.active } : null }),
    history: () => ({ undo: doc.undoStack.length, redo: doc.redoStack.length, message: hist.message }),
    frame: () => ({ frame: time.frame, playing: time.playing }),
    lastCommitMs: () => lastCommitMs,
    version: () => doc.version,
    digest: async () => {
      if (!doc.doc) return null;
      const h = new Uint8Array(await crypto.subtle.digest('SHA-256', writeVmd(doc.doc) as Uint8Array<ArrayBuffer>));
      return Array.from(h, (b) => b.toString(16).padStart(2, '0')).join('');
    },
    selectedCount: () => sel.count,
  };
  window.__vmdEditor = hook;
}
