/**
 * The open document. The VmdDocument and its MotionTracks stay out of Vue's reactivity (shallowRef,
 * replaced whole): they hold large typed arrays. Components watch `version`, which every change bumps.
 *
 * Edits go through `replaceDocument(doc)`: it rebuilds the tracks and the summary once per edit,
 * except for curve-only edits, which patch the tracks' curve bytes in place (see replaceDocument).
 * A VPD opens as a one-frame VMD (keys at frame 0) and saves back as a VPD of that frame.
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import {
  buildTracks,
  inspectVmd,
  readVmd,
  readVpd,
  vmdToVpd,
  vpdToVmd,
  writeVmd,
  writeVpd,
  type Diagnostic,
  type MotionTracks,
  type VmdDocument,
  type VmdInfo,
} from '../../../shared/vmd';
import type { IpcResult, SavedFile } from '../../../shared/ipc/contract';
import { updateTrackCurves, type EditDiff } from '../../../shared/key-edits';
import { useApi } from '../api';
import { useNotifyStore, type ErrorLike } from './notify';
import { isScenePath, useSceneStore } from './scene';
import { useSettingsStore } from './settings';
import { useTimeStore } from './time';
import { fileNameOf, folderOf } from '../paths';

export type DocumentFormat = 'vmd' | 'vpd';

/**
 * One document's whole state, as the scene store keeps it for the documents not shown in the editor
 * (stores/scene.ts swaps them in and out with `snapshot` and `restore`). The VMD and its tracks are
 * held as they are (markRaw by the scene store): switching documents copies nothing.
 */
export interface DocSnapshot {
  path: string | null;
  fileName: string;
  format: DocumentFormat;
  dirty: boolean;
  doc: VmdDocument;
  tracks: MotionTracks;
  info: VmdInfo;
  diagnostics: Diagnostic[];
}

function baseName(p: string): string {
  return fileNameOf(p);
}

function formatOf(name: string, bytes?: Uint8Array): DocumentFormat {
  if (/\.vpd$/i.test(name)) return 'vpd';
  if (/\.vmd$/i.test(name)) return 'vmd';
  // No telling extension (a dropped file, a pasted blob): the VPD magic is plain ASCII.
  const head = bytes ? String.fromCharCode(...bytes.subarray(0, 23)) : '';
  return head === 'Vocaloid Pose Data file' ? 'vpd' : 'vmd';
}

/** A document's bytes in the format of `target` (VMD unless the name ends in .vpd: the pose at frame 0). */
export function encodeDocument(doc: VmdDocument, tracks: MotionTracks, target: string): Uint8Array {
  if (formatOf(target) === 'vpd') return writeVpd(vmdToVpd(doc, tracks, 0));
  return writeVmd(doc);
}

export const useDocumentStore = defineStore('document', () => {
  /** Absolute path, or null for a document that has never been saved (dropped in a browser). */
  const path = ref<string | null>(null);
  const fileName = ref('');
  const format = ref<DocumentFormat>('vmd');
  const dirty = ref(false);
  /** Bumped on every open and edit; watch this, not `doc`. */
  const version = ref(0);
  const info = ref<VmdInfo | null>(null);
  const diagnostics = ref<Diagnostic[]>([]);
  const busy = ref(false);
  const doc = shallowRef<VmdDocument | null>(null);
  const tracks = shallowRef<MotionTracks | null>(null);

  const isOpen = computed(() => doc.value !== null);
  const title = computed(() => (isOpen.value ? `${fileName.value}${dirty.value ? ' *' : ''} — VMD Studio` : 'VMD Studio'));

  /** The state last sent to the main process: edits after the first leave it unchanged. */
  let reported = '';
  function reportState() {
    // The window is a scene: with more than one document (or a scene file) its name and unsaved mark
    // cover them all (stores/scene.ts windowState); a lone motion keeps its own title as before.
    const own = { path: path.value, name: isOpen.value ? fileName.value : null, dirty: dirty.value };
    const state = useSceneStore().windowState(own);
    const shown = state.name ? `${state.name}${state.dirty ? ' *' : ''} — VMD Studio` : 'VMD Studio';
    if (typeof document !== 'undefined' && document.title !== shown) document.title = shown;
    const key = JSON.stringify(state);
    // Every edit lands here; a request per edit (an HTTP round trip in the browser mode) would only
    // repeat what the main process already knows.
    if (key === reported) return;
    reported = key;
    void useApi()
      .setDocumentState(state)
      .catch(() => {
        reported = '';
      });
  }

  function install(next: VmdDocument, opts: { dirty: boolean; diagnostics?: Diagnostic[] }) {
    const t = buildTracks(next);
    doc.value = next;
    tracks.value = t;
    if (opts.diagnostics) diagnostics.value = opts.diagnostics;
    info.value = inspectVmd(next, t, diagnostics.value);
    dirty.value = opts.dirty;
    version.value++;
    // The scene shares one time line: it runs to the last frame of any of its documents.
    useTimeStore().setRange(Math.max(t.lastFrame, useSceneStore().otherLastFrame()));
    reportState();
  }

  /**
   * Decodes bytes and makes them the open document. Returns false (and notifies) when they do not parse;
   * the previous document then stays open.
   */
  function openBytes(name: string, bytes: Uint8Array, filePath: string | null = null): boolean {
    const s = decode(name, bytes, filePath);
    if (!s) return false;
    path.value = s.path;
    fileName.value = s.fileName;
    format.value = s.format;
    useTimeStore().pause();
    useTimeStore().clearRange();
    useTimeStore().seek(0);
    install(s.doc, { dirty: false, diagnostics: s.diagnostics });
    // A lone file opened is a one-actor scene (or the camera document of an empty one), unless the scene
    // store is the one opening it (a scene file, an added actor).
    useSceneStore().documentOpened();
    return true;
  }

  /**
   * Decodes bytes into a document's state without opening it (the scene store reads its other documents
   * this way). Returns null (and notifies, naming the file) when they do not parse.
   */
  function decode(name: string, bytes: Uint8Array, filePath: string | null = null): DocSnapshot | null {
    const notify = useNotifyStore();
    const fmt = formatOf(name, bytes);
    let next: VmdDocument;
    let diags: Diagnostic[];
    if (fmt === 'vpd') {
      const pose = readVpd(bytes);
      if (!pose.ok) return void notify.error({ ...pose.error, file: filePath ?? name }), null;
      const converted = vpdToVmd(pose.value, { frame: 0, skipLongNames: true });
      if (!converted.ok) return void notify.error({ ...converted.error, file: filePath ?? name }), null;
      next = converted.value;
      diags = [...pose.diagnostics, ...converted.diagnostics];
    } else {
      const r = readVmd(bytes);
      if (!r.ok) return void notify.error({ ...r.error, file: filePath ?? name }), null;
      next = r.value;
      diags = r.diagnostics;
    }
    const t = buildTracks(next);
    return {
      path: filePath,
      fileName: filePath ? baseName(filePath) : name,
      format: fmt,
      dirty: false,
      doc: next,
      tracks: t,
      info: inspectVmd(next, t, diags),
      diagnostics: diags,
    };
  }

  /** The open document's whole state (null when none is open), for the scene store to keep. */
  function snapshot(): DocSnapshot | null {
    if (!doc.value || !tracks.value || !info.value) return null;
    return { path: path.value, fileName: fileName.value, format: format.value, dirty: dirty.value, doc: doc.value, tracks: tracks.value, info: info.value, diagnostics: diagnostics.value };
  }

  /**
   * Shows a kept document (or none) in the editor: its bytes, tracks, path and dirty mark as they were.
   * The frame stays where it is (the scene shares one time line); `lastFrame` is the caller's (the
   * scene's longest document).
   */
  function restore(s: DocSnapshot | null, lastFrame?: number) {
    path.value = s?.path ?? null;
    fileName.value = s?.fileName ?? '';
    format.value = s?.format ?? 'vmd';
    dirty.value = s?.dirty ?? false;
    doc.value = s?.doc ?? null;
    tracks.value = s?.tracks ?? null;
    info.value = s?.info ?? null;
    diagnostics.value = s?.diagnostics ?? [];
    version.value++;
    useTimeStore().setRange(lastFrame ?? s?.tracks.lastFrame ?? 0);
    reportState();
  }

  /** Reads a file through main and opens it. */
  async function openPath(p: string): Promise<boolean> {
    // A scene file (double-click, Open Recent, command line) opens as a scene: its motion comes back here.
    if (isScenePath(p)) return useSceneStore().openPath(p);
    // A lone file replaces the scene: its other unsaved documents are not dropped without asking.
    if (!(await useSceneStore().confirmReplace(p))) return false;
    busy.value = true;
    try {
      const r = await useApi().openFile(p);
      const settings = useSettingsStore();
      // Main keeps the list: a file that is gone has just left it, one that opened has come to its top.
      void settings.refreshRecent();
      if (!r.ok) {
        useNotifyStore().error(r.error);
        return false;
      }
      const opened = openBytes(r.value.name, r.value.bytes, r.value.path);
      if (opened) {
        const dir = folderOf(r.value.path);
        if (dir && dir !== settings.settings.lastDirectory) void settings.update({ lastDirectory: dir });
        useNotifyStore().success({ key: 'notify.opened', params: { name: r.value.name } });
      }
      return opened;
    } finally {
      busy.value = false;
    }
  }

  /** The document's bytes in the format of `target` (VMD unless the name ends in .vpd). */
  function encode(target: string): Uint8Array | null {
    if (!doc.value || !tracks.value) return null;
    return encodeDocument(doc.value, tracks.value, target);
  }

  async function write(target: string, bytes: Uint8Array, overwrite: boolean): Promise<IpcResult<SavedFile>> {
    busy.value = true;
    try {
      return await useApi().saveFile(target, bytes, { overwrite, backup: true });
    } finally {
      busy.value = false;
    }
  }

  function fail(e: ErrorLike): false {
    useNotifyStore().error(e);
    return false;
  }

  /**
   * Writes the document to `target` and makes that its path. `overwrite` must be true to replace
   * an existing file (the dialogs ask first); the first replacement in a session keeps a .bak.
   */
  async function saveAs(target: string, opts: { overwrite?: boolean } = {}): Promise<boolean> {
    const bytes = encode(target);
    if (!bytes) return fail({ code: 'E_ARGUMENT', message: { key: 'notify.nothingToSave' } });
    const r = await write(target, bytes, opts.overwrite ?? false);
    if (!r.ok) return fail(r.error);
    path.value = r.value.path;
    fileName.value = baseName(r.value.path);
    format.value = formatOf(r.value.path);
    dirty.value = false;
    reportState();
    const s = useSettingsStore();
    void s.refreshRecent();
    useNotifyStore().success(
      r.value.backupPath
        ? { key: 'notify.savedBackup', params: { name: fileName.value, backup: baseName(r.value.backupPath) } }
        : r.value.backupSkipped
          ? { key: 'notify.savedNoBackup', params: { name: fileName.value, reason: r.value.backupSkipped } }
          : { key: 'notify.saved', params: { name: fileName.value } },
    );
    return true;
  }

  /** Saves over the current path; false when there is none (the caller asks for one: Save As). */
  async function save(): Promise<boolean> {
    if (!path.value) return false;
    return saveAs(path.value, { overwrite: true });
  }

  /** Writes the pose at `frame` (interpolated like playback) as a VPD file. */
  async function exportVpd(target: string, frame: number, opts: { overwrite?: boolean } = {}): Promise<boolean> {
    if (!doc.value || !tracks.value) return fail({ code: 'E_ARGUMENT', message: { key: 'notify.nothingToSave' } });
    const bytes = writeVpd(vmdToVpd(doc.value, tracks.value, frame));
    const r = await write(target, bytes, opts.overwrite ?? false);
    if (!r.ok) return fail(r.error);
    useNotifyStore().success({ key: 'notify.exported', params: { name: baseName(r.value.path) } });
    return true;
  }

  /**
   * Installs an edited document: rebuilds tracks and summary, bumps `version`, marks dirty (by default).
   * With the edit's `diff` (history passes it for edits, undo and redo): when only interpolation bytes
   * changed, the tracks keep their frames, values and order, so their `curves` bytes are patched in
   * place and the summary is kept (it reads no curves). This removes the buildTracks + inspect hitch
   * on releasing a curve handle; watchers still see a new `version`.
   */
  function replaceDocument(next: VmdDocument, opts: { dirty?: boolean; diff?: EditDiff } = {}) {
    const t = tracks.value;
    if (opts.diff && t && doc.value && updateTrackCurves(t, next, opts.diff)) {
      doc.value = next;
      dirty.value = opts.dirty ?? true;
      version.value++;
      reportState();
      return;
    }
    install(next, { dirty: opts.dirty ?? true });
  }

  /** Marks the document clean or dirty without changing it (e.g. after undo back to the saved state). */
  function setDirty(value: boolean) {
    if (dirty.value === value) return;
    dirty.value = value;
    reportState();
  }

  return {
    path,
    fileName,
    format,
    dirty,
    version,
    info,
    diagnostics,
    busy,
    doc,
    tracks,
    isOpen,
    title,
    openBytes,
    openPath,
    save,
    saveAs,
    exportVpd,
    replaceDocument,
    setDirty,
    encode,
    decode,
    snapshot,
    restore,
    reportState,
  };
});
