/**
 * Autosave: recovery copies of the open documents that have unsaved changes, kept by main in the app's own settings
 * folder (electron/services/recovery-service.ts), so a crash, a killed process or a closed tab does not lose them.
 *
 * - What: each unsaved document as the exact bytes Save would write now (workspace.ts encodeDocument, over its own
 *   file's name and format), with its path (or none), name, kind, key count, its actor in the scene and the version
 *   of its file it was read as (so a recovered document's Save still asks when that file changed since). And when
 *   the window is a scene (a scene file, or an untitled scene) with something unsaved, the scene's layout: the scene
 *   file Save Scene would write now, each actor naming its model, motion, stage, the camera, the music and its
 *   offset, with an edited or never-saved document named by its own copy instead of a path (the scene store's
 *   recoveryLayout, shared/scene/recovery-layout.ts); such a document is kept even when it has no edit.
 * - When: after edits, once the person has made no edit for IDLE_MS, and at most every `intervalSeconds` (the
 *   setting `autosaveSeconds` in settings.ui; 0 = Off). A document whose content is the one already kept is not
 *   written again; a document saved (no longer unsaved) or closed has its copy removed at once (`sync`).
 * - Who: this page is one recovery session (a random id); main lists only the copies of sessions that are gone.
 *
 * The workflow that offers the copies back (the dialog, Recover, Discard) is the shell's (shell/recovery.ts).
 */
import { defineStore } from 'pinia';
import { ref, watch } from 'vue';
import type { FileStamp } from '../../../shared/ipc/contract';
import type { RecoveryCopyInfo, RecoveryKind } from '../../../shared/ipc/recovery-types';
import { stageMotionKind } from '../../../shared/vmd/inspect';
import { writeVmdSteps, type VmdDocument } from '../../../shared/vmd';
import { useApi } from '../api';
import { pageTurns } from '../api/page-turns';
import { useNotifyStore } from './notify';
import { useSettingsStore } from './settings';
import { encodeDocument, useWorkspaceStore, type OpenDocument } from './workspace';
import { SCENE_COPY_DOC, type RecoveryLayout } from '../../../shared/scene/recovery-layout';

/** settings.ui key: seconds between autosaves at most (0: Off). */
export const AUTOSAVE_SETTING = 'autosaveSeconds';
/** The default: once a minute at most. */
export const AUTOSAVE_DEFAULT_SECONDS = 60;
/** The choices the Autosave menu offers (seconds; 0 = Off). A hand-edited other value from 2 s up is used as it is. */
export const AUTOSAVE_CHOICES = [0, 30, 60, 120, 300, 600] as const;
/** No edit for this long: the person paused, so a copy is written now. */
export const IDLE_MS = 3000;
/**
 * Main-thread time one slice of a copy's bytes may take before the page gets a turn (drawing, input): well under a
 * frame. A 600,000-key motion (66.6 MB) written in one go held the page for about a second each minute (issue 31).
 */
export const COPY_SLICE_MS = 8;

/** The autosave interval from the settings: seconds (0 = Off). */
export function autosaveSecondsOf(ui: Record<string, unknown> | undefined): number {
  const v = ui?.[AUTOSAVE_SETTING];
  if (v === 0 || v === false) return 0;
  if (typeof v === 'number' && Number.isFinite(v) && v >= 2 && v <= 24 * 3600) return Math.round(v);
  return AUTOSAVE_DEFAULT_SECONDS;
}

/** A fresh session id: 16 random bytes as base64url (recovery-types.ts RECOVERY_SESSION_ID). */
function newSessionId(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...b)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Every key a motion holds (the dialog's count). */
export function keyCountOf(doc: VmdDocument): number {
  return doc.bone.count + doc.morph.count + doc.camera.count + doc.light.count + doc.shadow.count + doc.ik.count;
}

/** What the copy of document `d` says about it. */
export function copyInfoOf(d: OpenDocument, actor?: string | null): RecoveryCopyInfo {
  const kind: RecoveryKind = stageMotionKind(d.info.counts) ?? 'motion';
  return {
    doc: String(d.id),
    name: d.fileName || 'Untitled.vmd',
    path: d.path,
    kind,
    format: d.format,
    keys: keyCountOf(d.doc),
    ...(actor ? { actor } : {}),
    ...(d.stamp ? { stamp: d.stamp as FileStamp } : {}),
  };
}

/**
 * The bytes Save would write for `d` now: over its own file's name (VMD, or its VPD's text with only what changed
 * rewritten). A pose document whose motion a pose cannot hold (keys at other frames) is kept as a VMD: its Save
 * would ask first, and nothing of it is lost in the copy.
 */
export function copyBytesOf(d: OpenDocument): { bytes: Uint8Array; format: 'vmd' | 'vpd' } {
  const name = d.path ?? d.fileName;
  if (d.format === 'vpd') {
    try {
      return { bytes: encodeDocument(d.doc, d.tracks, name.toLowerCase().endsWith('.vpd') ? name : `${name}.vpd`, d.poseText, 0), format: 'vpd' };
    } catch {
      /* not a pose any more: as a motion */
    }
  }
  return { bytes: encodeDocument(d.doc, d.tracks, 'copy.vmd'), format: 'vmd' };
}

/**
 * `copyBytesOf` without a long task: a motion's bytes are copied a slice at a time (shared writeVmdSteps, 1 MB a
 * step), giving the page a turn whenever a slice has run `sliceMs` (0: after every step). A pose is one frame of
 * text, made at once. The bytes are those of `d.doc` as it was when called (documents are values: an edit
 * meanwhile installs a new one and leaves this one whole); the caller checks it is still the document's content.
 */
export async function copyBytesInSlices(d: OpenDocument, sliceMs = COPY_SLICE_MS): Promise<{ bytes: Uint8Array; format: 'vmd' | 'vpd' }> {
  if (d.format === 'vpd') {
    const c = copyBytesOf(d);
    if (c.format === 'vpd') return c;
  }
  const steps = writeVmdSteps(d.doc);
  const turn = pageTurns(sliceMs);
  for (;;) {
    const r = steps.next();
    if (r.done) return { bytes: r.value, format: 'vmd' };
    await turn();
  }
}

export const useAutosaveStore = defineStore('autosave', () => {
  const session = ref<string | null>(null);
  /** When the last copy was written (ms, performance.now), for the interval. */
  let lastWrite = -Infinity;
  let lastEdit = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** Per document id: the content its copy holds (documents are values: an edit installs a new VmdDocument). */
  const kept = new Map<number, { doc: VmdDocument; path: string | null }>();
  let writing: Promise<void> | null = null;
  /** The last failure said (said once until a write works again). */
  let failedOnce = false;
  /** Gives each document's actor name (the scene's), set by the shell. */
  let actorOf: (id: number) => string | null = () => null;
  /** The scene's layout now, or null (not a scene, or nothing unsaved): the scene store's recoveryLayout, set by the shell. */
  let layoutOf: () => RecoveryLayout | null = () => null;
  /** The layout (its key) the scene's copy holds, or null: none kept. */
  let keptLayout: string | null = null;
  const stops: (() => void)[] = [];
  /** Main-thread time per slice of a copy (COPY_SLICE_MS; a test gives 0 to see an edit land mid-copy). */
  let sliceMs = COPY_SLICE_MS;

  const interval = () => autosaveSecondsOf(useSettingsStore().settings.ui) * 1000;

  /** Begins this page's recovery session and follows the workspace's edits. */
  async function start(opts: { actorOf?: (id: number) => string | null; layout?: () => RecoveryLayout | null; sliceMs?: number } = {}): Promise<void> {
    if (session.value) return;
    if (opts.actorOf) actorOf = opts.actorOf;
    if (opts.layout) layoutOf = opts.layout;
    if (opts.sliceMs !== undefined) sliceMs = opts.sliceMs;
    const id = newSessionId();
    const r = await useApi().beginRecovery(id);
    if (!r.ok) {
      useNotifyStore().error(r.error);
      return;
    }
    session.value = id;
    const ws = useWorkspaceStore();
    stops.push(
      watch(
        () => ws.version,
        () => {
          lastEdit = performance.now();
          void sync();
          schedule();
        },
      ),
    );
    // The scene's own changes (an actor moved, the music's offset, a model) are edits too, though no document changed.
    stops.push(
      watch(
        () => layoutOf()?.key ?? null,
        () => {
          lastEdit = performance.now();
          void sync();
          schedule();
        },
      ),
    );
    stops.push(watch(interval, () => schedule()));
  }

  function stop() {
    stops.splice(0).forEach((s) => s());
    if (timer) clearTimeout(timer);
    timer = null;
  }

  /** Whether document `d` needs a copy: unsaved, or named by its copy in the scene's layout (never saved). */
  function wanted(d: OpenDocument | null | undefined, layout: RecoveryLayout | null): boolean {
    return !!d && (d.dirty || !!layout?.pointed.includes(d.id));
  }

  /** Documents whose copy is out of date (wanted, and not the content kept). */
  function pending(layout = layoutOf()): OpenDocument[] {
    const ws = useWorkspaceStore();
    const out: OpenDocument[] = [];
    for (const id of ws.ids) {
      const d = ws.get(id);
      if (!d || !wanted(d, layout)) continue;
      const k = kept.get(id);
      if (!k || k.doc !== d.doc || k.path !== d.path) out.push(d);
    }
    return out;
  }

  /** Sets the timer for the next copy: IDLE_MS after the last edit, and no sooner than the interval after the last write. */
  function schedule() {
    if (timer) clearTimeout(timer);
    timer = null;
    const every = interval();
    const layout = layoutOf();
    if (!session.value || every <= 0 || (pending(layout).length === 0 && (layout === null || layout.key === keptLayout))) return;
    const now = performance.now();
    const at = Math.max(lastEdit + IDLE_MS, lastWrite + every);
    timer = setTimeout(() => {
      timer = null;
      if (performance.now() - lastEdit < IDLE_MS) return schedule();
      void flush().then(schedule);
    }, Math.max(0, at - now));
  }

  /**
   * Removes the copies of documents saved (no longer unsaved) or closed, and the scene's when the window is no longer
   * a scene with something unsaved: at once, nothing is encoded.
   */
  async function sync(): Promise<void> {
    const s = session.value;
    if (!s) return;
    const ws = useWorkspaceStore();
    const layout = layoutOf();
    if (keptLayout !== null && layout === null) {
      keptLayout = null;
      const r = await useApi().dropRecoveryCopy(s, SCENE_COPY_DOC);
      if (!r.ok) useNotifyStore().error(r.error);
    }
    for (const id of [...kept.keys()]) {
      const d = ws.get(id);
      if (wanted(d, layout)) continue;
      kept.delete(id);
      const r = await useApi().dropRecoveryCopy(s, String(id));
      if (!r.ok) useNotifyStore().error(r.error);
    }
  }

  /** Writes the copies due now (every unsaved document whose copy is out of date), one after another. */
  function flush(): Promise<void> {
    return write(null, false, true);
  }

  /**
   * Writes copies of documents `ids` now, whatever the setting (Off included), once: what Recover does before it
   * removes the copies it opened (shell/recovery.ts), so a recovered document never lives only in the page. Resolves
   * to the ids whose current content this session now holds a copy of (a write that failed is not among them), and
   * SCENE_COPY_DOC when `layout` and this session holds a copy of the scene's layout as it is now.
   */
  async function keepNow(ids: readonly number[], layout = false): Promise<Set<number | typeof SCENE_COPY_DOC>> {
    await write(new Set(ids), true, layout);
    const ws = useWorkspaceStore();
    const held = new Set<number | typeof SCENE_COPY_DOC>(ids.filter((id) => { const d = ws.get(id); return !!d && kept.get(id)?.doc === d.doc; }));
    const l = layoutOf();
    if (layout && l && l.key === keptLayout) held.add(SCENE_COPY_DOC);
    return held;
  }

  /**
   * The copies out of date among `only` (null: all), written one after another, then the scene's layout when
   * `withLayout` and it changed; unless `force`, not when Off.
   */
  async function write(only: Set<number> | null, force: boolean, withLayout: boolean): Promise<void> {
    if (writing) await writing;
    const s = session.value;
    const on = () => force || interval() > 0;
    // Off: nothing is kept.
    if (!s || !on()) return;
    writing = (async () => {
      for (const d of pending(layoutOf())) {
        if (only && !only.has(d.id)) continue;
        const content = d.doc, p = d.path;
        const info = copyInfoOf(d, actorOf(d.id));
        const { bytes, format } = await copyBytesInSlices(d, sliceMs);
        // Edited, saved, renamed or closed while its bytes were made: this copy is dropped (never a mix of two
        // versions); an unsaved document's next copy is made once the page is idle again (schedule after flush).
        const cur = useWorkspaceStore().get(d.id);
        if (!wanted(cur, layoutOf()) || cur!.doc !== content || cur!.path !== p || !session.value || !on()) continue;
        const r = await useApi().keepRecoveryCopy(s, { ...info, format }, bytes);
        if (!r.ok) {
          if (!failedOnce) useNotifyStore().warning({ key: 'recovery.keepFailed', params: { name: info.name, reason: r.error.message } });
          failedOnce = true;
          continue;
        }
        failedOnce = false;
        // Closed or saved while on its way: its copy goes again.
        const now = useWorkspaceStore().get(d.id);
        if (!wanted(now, layoutOf())) void useApi().dropRecoveryCopy(s, String(d.id));
        else kept.set(d.id, { doc: content, path: p });
      }
      // The scene's layout, after its documents' copies (the copies it names are written first).
      const layout = withLayout ? layoutOf() : null;
      if (layout && layout.key !== keptLayout && session.value && on()) {
        const info: RecoveryCopyInfo = { doc: SCENE_COPY_DOC, name: layout.name, path: layout.path, kind: 'scene', format: 'vmdscene', keys: layout.actors, ...(layout.stamp ? { stamp: layout.stamp } : {}) };
        const r = await useApi().keepRecoveryCopy(s, info, layout.bytes());
        if (!r.ok) {
          if (!failedOnce) useNotifyStore().warning({ key: 'recovery.keepFailed', params: { name: info.name, reason: r.error.message } });
          failedOnce = true;
        } else {
          failedOnce = false;
          // Saved or closed while on its way: it goes again.
          if (layoutOf() === null) void useApi().dropRecoveryCopy(s, SCENE_COPY_DOC);
          else keptLayout = layout.key;
        }
      }
      lastWrite = performance.now();
    })();
    try {
      await writing;
    } finally {
      writing = null;
    }
  }

  /**
   * The person closed the window answering Don't Save (or saved everything): this session's copies go, so the next
   * start does not offer what was discarded on purpose.
   */
  async function dropAll(): Promise<void> {
    const s = session.value;
    if (!s) return;
    stop();
    if (writing) await writing.catch(() => undefined);
    const ws = useWorkspaceStore();
    const ids = new Set<string>([...kept.keys(), ...ws.ids].map(String));
    kept.clear();
    if (keptLayout !== null) ids.add(SCENE_COPY_DOC);
    keptLayout = null;
    await Promise.all([...ids].map((id) => useApi().dropRecoveryCopy(s, id)));
  }

  return { session, start, stop, flush, keepNow, sync, dropAll, pending, schedule };
});
