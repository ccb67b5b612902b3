/**
 * Whole Motion → Merge with… (components/MergeDialog.vue): other motion files merged into the open motion, one
 * after another after its last frame (a gap of N frames) or on the same timeline (a facial motion, a camera or light), as
 * ONE undo step. The edit is the command line's (`vmd-studio merge OPEN.vmd B.vmd … [--gap N|--overlay]`,
 * shared/motion-ops/merge.ts) with the open motion first: the same bytes, the same (name, frame) rule (the first
 * file wins), the same warning when a camera motion goes into a model's motion.
 */
import { defineStore } from 'pinia';
import { merge } from '../../../shared/motion-ops';
import { diffDocuments, isEmptyDiff } from '../../../shared/key-edits';
import { BLOCK_KINDS, type VmdDocument } from '../../../shared/vmd';
import { useApi } from '../api';
import { fileNameOf } from '../paths';
import { useHistoryStore } from './history';
import { useNotifyStore, type NoticeText } from './notify';
import { useSelectionStore } from './selection';
import { useSettingsStore } from './settings';
import { decodeDocument, useWorkspaceStore } from './workspace';

export type MergeMode = 'append' | 'overlay';

/**
 * A motion file to merge: by its path (picked with Add motion…, or dropped under Electron: main reads it), or
 * by its name and bytes (dropped in a browser, which gives no path: App.vue's drop, shell/app-actions.ts openDropped).
 */
export type MergeFile = { path: string } | { name: string; bytes: Uint8Array };

/** The path (or, for bytes, the name) a merge file is shown and told by. */
export const mergeFileLabel = (f: MergeFile): string => ('path' in f ? f.path : f.name);

/** The gap as typed: a whole number ≥ 0, or null. */
export function parseGap(text: string): number | null {
  const s = text.trim();
  return /^\d+$/.test(s) ? Number(s) : null;
}

const keyCount = (d: VmdDocument) => BLOCK_KINDS.reduce((n, k) => n + d[k].count, 0);
/** A model's motion (bone or morph keys), as the CLI tells it from a camera motion. */
const isModelMotion = (d: VmdDocument) => d.bone.count > 0 || d.morph.count > 0;

export const useMergeStore = defineStore('merge', {
  state: () => ({
    open: false,
    /** The motion files chosen, in the order they are merged (after the open motion). */
    files: [] as MergeFile[],
    mode: 'append' as MergeMode,
    gap: '1',
    applying: false,
  }),
  getters: {
    gapValue: (s): number | null => parseGap(s.gap),
    canApply(s): boolean {
      return s.files.length > 0 && !s.applying && (s.mode === 'overlay' || this.gapValue !== null) && useWorkspaceStore().isOpen;
    },
  },
  actions: {
    /**
     * Opens the dialog with no file chosen. On a camera document (no bone or morph keys: camera, light, self-shadow)
     * it starts on Overlay: what goes into one (a light or a camera file) belongs on the same timeline, and appended
     * after its end its keys would play only after the scene. On a model's motion it starts on Append.
     */
    show() {
      this.files = [];
      const doc = useWorkspaceStore().doc;
      this.mode = doc && !isModelMotion(doc) ? 'overlay' : 'append';
      this.open = true;
    },
    /**
     * The dialog opened with these files already chosen, in `mode` (a drop of several motions: the ones after
     * the first, to overlay on it, as a facial motion dropped with a body motion is meant). Apply still asks.
     */
    offer(files: readonly MergeFile[], mode: MergeMode) {
      this.files = [...files];
      this.mode = mode;
      this.open = true;
    },
    hide() {
      this.open = false;
    },
    addFile(path: string) {
      this.files.push({ path });
    },
    removeFile(i: number) {
      this.files.splice(i, 1);
    },
    /**
     * Reads the chosen files (through main, as Open… reads a motion: the path was granted by the picker), merges
     * them into the active document and commits the result as one undo step; the notice says the keys added,
     * the (name, frame) collisions dropped and the camera-into-model warning. Returns whether the document changed.
     */
    async apply(): Promise<boolean> {
      if (this.applying) return false;
      const notify = useNotifyStore();
      const hist = useHistoryStore();
      const ws = useWorkspaceStore();
      const cur = hist.current();
      if (!cur) {
        notify.error({ code: 'E_ARGUMENT', message: { key: 'batch.err.noDocument' } });
        return false;
      }
      const gap = this.mode === 'overlay' ? 1 : this.gapValue;
      if (gap === null) {
        notify.error({ code: 'E_ARGUMENT', message: { key: 'merge.badGap' } });
        return false;
      }
      this.applying = true;
      try {
        const docs: VmdDocument[] = [];
        const names: string[] = [];
        for (const f of this.files) {
          let read: { bytes: Uint8Array; path: string | null };
          if ('path' in f) {
            const r = await useApi().openFile(f.path);
            if (!r.ok) {
              notify.error(r.error);
              return false;
            }
            read = r.value;
          } else read = { bytes: f.bytes, path: null };
          const name = (read.path && fileNameOf(read.path)) || fileNameOf(mergeFileLabel(f));
          const d = decodeDocument(name, read.bytes, read.path);
          if (!d.ok) {
            notify.error(d.error);
            return false;
          }
          if (d.value.format !== 'vmd') {
            notify.error({ code: 'E_ARGUMENT', message: { key: 'merge.notVmd', params: { name } }, file: read.path ?? name });
            return false;
          }
          docs.push(d.value.doc);
          names.push(name);
        }
        void useSettingsStore().refreshRecent();
        // The document may have changed while the files were read: merge into what is open now.
        const now = hist.current();
        if (!now || now.doc !== cur.doc) {
          notify.warning({ key: 'merge.changedWhileReading' });
          return false;
        }
        const all = [cur.doc, ...docs];
        const out = merge(all, this.mode === 'overlay' ? { gap: 1, overlay: true } : { gap, overlay: false });
        if (!out.ok) {
          notify.error({ ...out.error, file: ws.path ?? ws.fileName });
          return false;
        }
        const step = diffDocuments(cur.doc, out.value.doc, 'merge.op');
        if (isEmptyDiff(step.diff)) {
          notify.info({ key: 'merge.unchanged', params: { name: ws.fileName } });
          return false;
        }
        hist.commit(step);
        useSelectionStore().clear();
        const added = keyCount(out.value.doc) - keyCount(cur.doc);
        const dropped = Number(out.value.report.extra.duplicatesDropped ?? 0);
        const detail: NoticeText[] = [{ key: 'merge.added', params: { n: added } }];
        if (dropped) detail.push({ key: 'merge.collisions', params: { n: dropped } });
        // As the CLI warns: a camera motion merged into a model's motion plays only loaded onto the camera.
        if (all.some(isModelMotion)) {
          all.forEach((d, i) => {
            if (!isModelMotion(d) && d.camera.count > 0) detail.push({ key: 'merge.cameraIntoModel', params: { file: i === 0 ? ws.fileName : names[i - 1], n: d.camera.count } });
          });
        }
        useWorkspaceStore().editNotice(detail.length > 1 ? 'warning' : 'success', { key: 'merge.applied', params: { files: names.join(', '), name: ws.fileName } }, detail);
        this.hide();
        return true;
      } finally {
        this.applying = false;
      }
    },
  },
});
