/**
 * The window is a scene (issue 13): actors — each a model (PMX/PMD, or the built-in figure when `model`
 * is null) with its own motion document — and one camera document (camera, light, self-shadow keys),
 * plus the music (stores/music.ts) and the scene file (shared/scene/scene-file.ts) they came from.
 *
 * The editor, timeline, selection and history all work on `useDocumentStore`, "the active document".
 * This store swaps which document that is (`activate`): the leaving document's whole state — bytes,
 * tracks, path, dirty mark — is kept here as a DocSnapshot (markRaw, nothing copied) and the arriving
 * one is restored, so every document keeps its own file, dirty mark and Save.
 *
 * Opening a lone .vmd/.vpd (Open, Open Recent, a drop) makes a one-actor scene, or, for a camera VMD
 * (camera/light/self-shadow keys and no bone or morph keys), a scene with only the camera document: the
 * document store tells this store through `documentOpened`. A `.vmdscene` opens every actor's motion and
 * the camera; a file the scene names that is missing or damaged is reported by role and name while
 * everything else opens.
 */
import { defineStore } from 'pinia';
import { computed, markRaw, ref, watch } from 'vue';
import { useApi } from '../api';
import { encodeDocument, useDocumentStore, type DocSnapshot } from './document';
import { useConfirmStore } from './confirm';
import { useHistoryStore } from './history';
import { useMusicStore } from './music';
import { useNotifyStore } from './notify';
import { usePreviewStore } from './preview';
import { useSelectionStore } from './selection';
import { useSettingsStore } from './settings';
import { useTimeStore } from './time';
import { basenamePath, dirnamePath } from '../../../shared/scene/scene-path';
import { OUTPUT_ASPECT_SETTING, outputAspectOf, parseAspect } from '../preview/output-frame';
import { sceneRoleText } from '../editor/scene-role';
import {
  emptyScene,
  parseScene,
  sceneBytes,
  SCENE_EXTENSION,
  type Scene,
  type SceneActor,
  type ActorStage,
  type SceneFileRef,
} from '../../../shared/scene/scene-file';
import { emptyVmd, writeVmd, type VmdInfo } from '../../../shared/vmd';
import { CAMERA_DOC_KINDS, isCameraDocKind } from '../../../shared/key-edits';
import type { DocumentState } from '../../../shared/ipc/contract';

/** Whether a path names a scene file. */
export function isScenePath(p: string): boolean {
  return p.toLowerCase().endsWith(SCENE_EXTENSION);
}

/** A VMD that holds camera, light or self-shadow keys and no bone or morph keys goes to the camera document. */
export function isCameraMotion(info: Pick<VmdInfo, 'counts'> | null): boolean {
  if (!info) return false;
  const c = info.counts;
  return c.bone === 0 && c.morph === 0 && CAMERA_DOC_KINDS.some((k) => c[k] > 0);
}

/** One document of the scene as the tabs show it (the bytes are in the store's snapshot map). */
export interface SceneEntry {
  id: number;
  kind: 'actor' | 'camera';
  /** The name the scene file gives the actor, or '' (then actorLabel uses its model's or motion's file name). */
  name: string;
  /** Actor's model (absolute path), or null for the built-in figure. */
  model: string | null;
  hidden: boolean;
  /** The document's file (null: never saved), its name, and its unsaved mark, as of the last swap. */
  path: string | null;
  fileName: string;
  dirty: boolean;
  /** The scene file's fields this version does not know, kept for the round trip. */
  extra?: Record<string, unknown>;
  /** Where the actor stands (staging, editor/staging.ts); absent: the origin. */
  stage?: ActorStage;
  /** The file the scene names for it that could not be read: still named when the scene is saved. */
  missing?: string;
}

function stem(name: string): string {
  return name.replace(/\.[^.]*$/, '');
}

export const useSceneStore = defineStore('scene', () => {
  /** The scene file the window came from or was saved as, or null. */
  const path = ref<string | null>(null);
  /** Actors first (in scene order), then the camera document when there is one. */
  const entries = ref<SceneEntry[]>([]);
  const activeId = ref<number | null>(null);
  /** The last actor that was active (its model and motion stay in the preview while the camera is edited). */
  const lastActorId = ref<number | null>(null);
  /** The documents not in the editor; the active one lives in the document store. */
  const snaps = markRaw(new Map<number, DocSnapshot | null>());
  /** The scene as read or last saved (kept for the parts this window does not edit). */
  let base: Scene = emptyScene();
  let nextId = 1;
  /** Set while this store opens documents itself (documentOpened then leaves the scene alone). */
  let opening = 0;

  const actors = computed(() => entries.value.filter((e) => e.kind === 'actor'));
  const cameraEntry = computed(() => entries.value.find((e) => e.kind === 'camera') ?? null);
  const active = computed(() => entries.value.find((e) => e.id === activeId.value) ?? null);
  /**
   * The actor whose rows and keys go with the camera document's: the active one, else (the camera
   * document active) the last active one, else the first.
   */
  const shownActorId = computed<number | null>(() => {
    const a = active.value;
    if (a?.kind === 'actor') return a.id;
    return actors.value.some((e) => e.id === lastActorId.value) ? lastActorId.value : (actors.value[0]?.id ?? null);
  });

  /** Live state of an entry: the document store's for the active one, the snapshot's otherwise. */
  function stateOf(e: SceneEntry): { path: string | null; fileName: string; dirty: boolean } {
    const d = useDocumentStore();
    // The active one is the editor's, unless its file could not be read (then the scene keeps its path).
    if (e.id === activeId.value && d.isOpen) return { path: d.path, fileName: d.fileName, dirty: d.dirty };
    return { path: e.path, fileName: e.fileName, dirty: e.dirty };
  }
  /**
   * The scene file's own content as this window would write it, less what only says where the window was
   * (the frame, the active tab): recorded when a scene is opened (after its music is in) and saved.
   */
  const savedSignature = ref<string | null>(null);
  function signature(): string {
    return JSON.stringify({ ...current(false), activeActor: 0 });
  }
  /** A scene file is open and what it would hold now differs from it (music, offset, volume, hidden actors, actors, camera, aspect). */
  const sceneChanged = computed(() => path.value !== null && savedSignature.value !== null && signature() !== savedSignature.value);
  const anyDirty = computed(() => sceneChanged.value || entries.value.some((e) => stateOf(e).dirty));
  // The window's title and the main process hear of it (as they do of a document's edits).
  watch(sceneChanged, () => useDocumentStore().reportState());

  /** The name a step of the history shows for its document ("camera.vmd", "Miku: dance.vmd"). */
  function docName(id: number): string {
    const e = entries.value.find((x) => x.id === id);
    if (!e) return '';
    const f = stateOf(e).fileName;
    const name = actorLabel(e);
    return e.kind === 'actor' && name && name !== stem(f) ? `${name}: ${f}` : f;
  }

  /**
   * What an actor is called (its tab, its history steps): the name the scene file gives it, else its
   * model's file name, else its motion's — worked out each time, so it follows a new model and reads the
   * same after the scene is saved and opened again. '' for the camera document.
   */
  function actorLabel(e: SceneEntry): string {
    if (e.kind === 'camera') return '';
    if (e.name) return e.name;
    if (e.model) return stem(basenamePath(e.model));
    const f = stateOf(e).fileName;
    return f ? stem(f) : '';
  }

  function newEntry(kind: SceneEntry['kind'], s: DocSnapshot | null, a: Partial<SceneActor> = {}): SceneEntry {
    const e: SceneEntry = {
      id: nextId++,
      kind,
      // Only a name the scene file gives; otherwise actorLabel works one out.
      name: kind === 'camera' ? '' : (a.name ?? ''),
      model: a.model ?? null,
      hidden: a.hidden ?? false,
      path: s ? s.path : (a.motion ?? null),
      fileName: s ? s.fileName : a.motion ? basenamePath(a.motion) : '',
      dirty: s?.dirty ?? false,
      extra: a.extra,
      ...(a.stage ? { stage: a.stage } : {}),
    };
    snaps.set(e.id, s ? markRaw(s) : null);
    return e;
  }

  /** The last frame of the documents the editor is not showing. */
  function otherLastFrame(): number {
    let last = 0;
    for (const [id, s] of snaps) if (id !== activeId.value && s) last = Math.max(last, s.tracks.lastFrame);
    return last;
  }

  /** The last frame over every document of the scene (the time line is shared). */
  function sceneLastFrame(): number {
    return Math.max(useDocumentStore().tracks?.lastFrame ?? 0, otherLastFrame());
  }

  /** The last frame over the kept snapshots (while the editor's document is being swapped). */
  function keptLastFrame(): number {
    let last = 0;
    for (const s of snaps.values()) if (s) last = Math.max(last, s.tracks.lastFrame);
    return last;
  }

  /** Keeps the active document's state in its entry and snapshot. */
  function stash() {
    const id = activeId.value;
    const e = active.value;
    if (id === null || !e) return;
    const s = useDocumentStore().snapshot();
    snaps.set(id, s ? markRaw(s) : null);
    if (s) Object.assign(e, { path: s.path, fileName: s.fileName, dirty: s.dirty });
  }

  /**
   * Makes a document of the scene the one the editor shows: its tracks in the track list and timeline,
   * its keys for every tool and the history's new steps. The frame stays; the selection is cleared (its
   * keys belong to the other document). An actor's model is asked of the preview.
   */
  function activate(id: number): boolean {
    const e = entries.value.find((x) => x.id === id);
    if (!e) return false;
    if (id === activeId.value) return true;
    stash();
    activeId.value = id;
    if (e.kind === 'actor') lastActorId.value = id;
    const s = snaps.get(id) ?? null;
    // Not a newly opened document: the history and the view stay (EditorArea clears only for foreign documents).
    if (s) useHistoryStore().adopt(s.doc);
    const sel = useSelectionStore();
    sel.clear();
    sel.setActiveTrack(null);
    useDocumentStore().restore(s, keptLastFrame());
    if (e.kind === 'actor') showModelOf(e);
    return true;
  }

  /** Asks the preview for an actor's model (the built-in figure when it has none), unless it shows it already. */
  function showModelOf(e: SceneEntry) {
    const preview = usePreviewStore();
    if (!e.model) {
      if (preview.model) preview.requestFigure();
    } else if (preview.model?.path !== e.model) preview.requestModel({ path: e.model });
  }

  // The active actor's model is the preview's (a model dropped or picked in the preview belongs to it; the
  // preview's "use the figure" puts that actor on the built-in figure).
  watch(
    () => usePreviewStore().model?.path ?? null,
    (p) => {
      const a = entries.value.find((x) => x.id === lastActorId.value);
      if (a) a.model = p;
    },
  );

  /**
   * Before a file replaces what the window holds (Open, Open Recent, a drop, a scene file): when anything
   * is unsaved, asks Save / Don't Save (Open and Discard for a scene) / Cancel, naming it. Save writes every
   * unsaved document over its own file and the scene file (Save All); a document never saved cannot be
   * written without a name, so it is named in a notice and nothing is opened. True to go on.
   */
  async function confirmReplace(file: string): Promise<boolean> {
    if (opening) return true;
    const names = unsavedNames.value;
    if (!names.length) return true;
    const lone = !path.value && entries.value.length <= 1;
    const choice = await useConfirmStore().ask({
      title: { key: lone ? 'scene.closeTitle' : 'scene.replaceTitle' },
      message: { key: lone ? 'scene.replaceLoneAsk' : 'scene.replaceAsk', params: { file: basenamePath(file), names: names.join(', ') } },
      buttons: [
        { choice: 'save', label: lone ? 'close.save' : 'scene.replaceSave' },
        { choice: 'discard', label: lone ? 'close.discard' : 'scene.replaceOpen' },
        { choice: 'cancel', label: 'close.cancel' },
      ],
    });
    if (choice !== 'save') return choice === 'discard';
    const r = await saveAll();
    if (r.needsName.length) {
      const unnamed = r.needsName.map((id) => docName(id) || '—').join(', ');
      useNotifyStore().warning({ key: 'scene.replaceNeedsName', params: { names: unnamed } });
      return false;
    }
    return r.ok && !anyDirty.value;
  }

  /** The document store opened a lone file: the window becomes a one-actor scene (or a camera-only one). */
  function documentOpened() {
    if (opening) return;
    const d = useDocumentStore();
    const s = d.snapshot();
    snaps.clear();
    const camera = isCameraMotion(s?.info ?? null);
    const e = newEntry(camera ? 'camera' : 'actor', s, { model: usePreviewStore().model?.path ?? null });
    entries.value = [e];
    activeId.value = e.id;
    lastActorId.value = camera ? null : e.id;
    path.value = null;
    base = emptyScene();
    savedSignature.value = null;
    useTimeStore().setRange(s?.tracks.lastFrame ?? 0);
    d.reportState();
  }

  async function readDocument(p: string): Promise<{ ok: true; value: DocSnapshot } | { ok: false; error: { code: string; message: string } }> {
    const r = await useApi().openFile(p);
    if (!r.ok) return r;
    opening++;
    try {
      const s = useDocumentStore().decode(r.value.name, r.value.bytes, r.value.path);
      // decode has notified, naming the file: a problem reported again here would say it twice.
      return s ? { ok: true, value: s } : { ok: false, error: { code: 'E_REPORTED', message: '' } };
    } finally {
      opening--;
    }
  }

  /**
   * Adds a motion file to the scene and makes it active: a camera VMD becomes the camera document (there
   * is one: it is refused with a notice), anything else a new actor shown with the preview's model.
   */
  async function addDocument(p: string, as: 'actor' | 'camera' | 'auto' = 'auto'): Promise<boolean> {
    if (!entries.value.length && !useDocumentStore().isOpen) return useDocumentStore().openPath(p);
    const r = await readDocument(p);
    if (!r.ok) {
      if (r.error.code !== 'E_REPORTED') useNotifyStore().error({ ...r.error, file: p } as never);
      return false;
    }
    const kind = as === 'auto' ? (isCameraMotion(r.value.info) ? 'camera' : 'actor') : as;
    if (kind === 'camera' && cameraEntry.value) {
      useNotifyStore().warning({ key: 'scene.cameraExists', params: { name: cameraEntry.value.fileName } });
      return false;
    }
    stash();
    const e = newEntry(kind, r.value, { model: kind === 'actor' ? (usePreviewStore().model?.path ?? null) : null });
    const list = [...entries.value];
    if (kind === 'actor') list.splice(actors.value.length, 0, e);
    else list.push(e);
    entries.value = list;
    activate(e.id);
    void useSettingsStore().refreshRecent();
    // A new actor dances on the model shown until now: say which, and how to give it another.
    if (kind === 'actor') {
      const on = e.model ? basenamePath(e.model) : { key: 'scene.figure' as const };
      useNotifyStore().success({ key: 'scene.actorAdded', params: { name: r.value.fileName, model: on } });
    } else useNotifyStore().success({ key: 'notify.opened', params: { name: r.value.fileName } });
    return true;
  }

  /**
   * Adds an empty camera document (never saved: Save asks its name) to a scene that has none, and makes
   * it active: the camera group's add row (TrackList). Returns false when the scene already has one (that
   * one is made active) or nothing is open.
   */
  function addCamera(): boolean {
    const cam = cameraEntry.value;
    if (cam) {
      activate(cam.id);
      return false;
    }
    if (!entries.value.length) return false;
    let s: DocSnapshot | null;
    opening++;
    try {
      s = useDocumentStore().decode('', writeVmd(emptyVmd()), null);
    } finally {
      opening--;
    }
    if (!s) return false;
    stash();
    const e = newEntry('camera', s);
    entries.value = [...entries.value, e];
    activate(e.id);
    useDocumentStore().reportState();
    return true;
  }

  /**
   * The document keys of these kinds belong in, when it is not the active one: camera, light and self-shadow keys in
   * the camera document while an actor is active, bone, morph and display/IK keys in the shown actor (shownActorId)
   * while the camera document is. Null when the active document is the place (or there is no other).
   * Paste goes there (the timeline shows both documents, so keys copied on one row are pasted after a
   * click on the other document's rows).
   */
  function documentForKinds(kinds: readonly string[]): number | null {
    const a = active.value;
    if (!a || !kinds.length) return null;
    const cameraKinds = kinds.every(isCameraDocKind);
    const modelKinds = !kinds.some(isCameraDocKind);
    if (a.kind === 'actor' && cameraKinds) return cameraEntry.value?.id ?? null;
    if (a.kind === 'camera' && modelKinds) return shownActorId.value;
    return null;
  }

  /**
   * Takes a document out of the scene (its file stays on disk): its entry, its kept state and its steps
   * of the history go. The last document is not removed (false): opening another file replaces it. When
   * it was the one shown, the next actor (else the one before, else the camera document) is shown. The
   * caller asks about unsaved changes first (commands.ts removeFromScene).
   */
  function removeEntry(id: number): boolean {
    const list = entries.value;
    const i = list.findIndex((e) => e.id === id);
    if (i < 0 || list.length <= 1) return false;
    const gone = list[i];
    if (activeId.value === id) {
      const rest = list.filter((e) => e.id !== id);
      const actorsLeft = rest.filter((e) => e.kind === 'actor');
      const next =
        gone.kind === 'actor' && actorsLeft.length
          ? (actorsLeft[Math.min(actors.value.findIndex((e) => e.id === id), actorsLeft.length - 1)] ?? actorsLeft[0])
          : (rest.find((e) => e.id === lastActorId.value) ?? rest[0]);
      activate(next.id);
    }
    entries.value = entries.value.filter((e) => e.id !== id);
    snaps.delete(id);
    if (lastActorId.value === id) lastActorId.value = actors.value[0]?.id ?? null;
    // The shown actor changed (the camera document is active): the preview shows the new one's model.
    const shown = entries.value.find((e) => e.id === shownActorId.value);
    if (gone.kind === 'actor' && active.value?.kind === 'camera' && shown) showModelOf(shown);
    useHistoryStore().forget(id);
    useTimeStore().setRange(sceneLastFrame());
    useDocumentStore().reportState();
    return true;
  }

  /** Hides or shows an actor's model in the preview (its motion still plays). */
  function setHidden(id: number, hidden: boolean) {
    const e = entries.value.find((x) => x.id === id);
    if (e && e.kind === 'actor') e.hidden = hidden;
  }

  /** Opens a scene file: returns false when the scene itself could not be read (its files are reported one by one). */
  async function openPath(p: string): Promise<boolean> {
    const api = useApi();
    const notify = useNotifyStore();
    const r = await api.openScene(p);
    if (!r.ok) {
      notify.error(r.error);
      return false;
    }
    const parsed = parseScene(r.value.bytes, r.value.path);
    if (!parsed.ok) {
      notify.error(parsed.error);
      return false;
    }
    const scene = parsed.value;
    // The scene replaces every document: unsaved ones are not dropped without asking (a file that does not
    // read as a scene replaces nothing, so it is not asked about).
    if (!(await confirmReplace(r.value.path))) return false;
    const problem = (ref: SceneFileRef, error: { code: string; message: string }) => {
      if (error.code === 'E_REPORTED') return;
      notify.warning({ key: 'scene.missingFile', params: { name: basenamePath(ref.path), role: sceneRoleText(ref) } }, error.code === 'E_IO_NOT_FOUND' ? ref.path : error.message);
    };
    // Every motion and the camera, all at once; one that fails is named and the rest opens.
    const reads = await Promise.all([
      ...scene.actors.map((a) => (a.motion ? readDocument(a.motion) : Promise.resolve(null))),
      scene.camera ? readDocument(scene.camera) : Promise.resolve(null),
    ]);
    const list: SceneEntry[] = [];
    snaps.clear();
    // An actor without a readable motion gets a new empty one (a timeline to key, the music row above it).
    const empty = () => {
      opening++;
      try {
        return useDocumentStore().decode('', writeVmd(emptyVmd()), null);
      } finally {
        opening--;
      }
    };
    scene.actors.forEach((a, i) => {
      const rd = reads[i];
      if (rd && !rd.ok) problem({ role: 'motion', actor: i, path: a.motion! }, rd.error);
      const e = newEntry('actor', rd && rd.ok ? rd.value : empty(), a);
      if (rd && !rd.ok) e.missing = a.motion!;
      list.push(e);
    });
    const camRead = reads[scene.actors.length];
    if (camRead && !camRead.ok) problem({ role: 'camera', path: scene.camera! }, camRead.error);
    if (scene.camera) {
      const ce = newEntry('camera', camRead && camRead.ok ? camRead.value : empty(), { motion: scene.camera });
      if (camRead && !camRead.ok) ce.missing = scene.camera;
      list.push(ce);
    }
    entries.value = list;
    activeId.value = null;
    lastActorId.value = null;
    path.value = r.value.path;
    base = scene;
    useHistoryStore().clear();
    const first = list[Math.min(scene.activeActor, Math.max(scene.actors.length - 1, 0))] ?? list[0];
    if (first) {
      // Shown as a newly opened document: the editor starts a fresh history, selection and view for it.
      const s = snaps.get(first.id) ?? null;
      activeId.value = first.id;
      if (first.kind === 'actor') lastActorId.value = first.id;
      useTimeStore().pause();
      useTimeStore().clearRange();
      useDocumentStore().restore(s, keptLastFrame());
    } else useDocumentStore().restore(null);
    // The active actor's model (the preview shows one model), then the music.
    const act = active.value;
    if (act?.kind === 'actor' && act.model) {
      const m = await api.readModelFile(act.model);
      if (m.ok) usePreviewStore().requestModel({ path: m.value.path });
      else problem({ role: 'model', actor: scene.activeActor, path: act.model }, m.error);
    } else if (act?.kind === 'actor' && usePreviewStore().model) usePreviewStore().requestFigure();
    const music = useMusicStore();
    if (scene.audio) {
      const a = await api.readAudioFile(scene.audio.path);
      if (!a.ok) problem({ role: 'audio', path: scene.audio.path }, a.error);
      else if (await music.loadBytes(a.value.name, a.value.bytes, a.value.path)) {
        music.setOffset(scene.audio.offsetFrames);
        music.setVolume(scene.audio.volume);
        music.setMuted(scene.audio.muted);
      }
    } else if (music.loaded) music.unload();
    const frame = scene.view.frame;
    if (typeof frame === 'number') useTimeStore().seek(frame);
    // What the window now holds of the file is the saved state (a missing song or model stays as read).
    savedSignature.value = signature();
    const settings = useSettingsStore();
    // The scene's output aspect is the preview's (looking through the camera letterboxes to it).
    const aspect = `${scene.aspect.width}:${scene.aspect.height}`;
    if (outputAspectOf(settings.settings.ui).text !== aspect) void settings.update({ ui: { ...settings.settings.ui, [OUTPUT_ASPECT_SETTING]: aspect } });
    void settings.refreshRecent();
    const dir = dirnamePath(r.value.path);
    if (dir && dir !== settings.settings.lastDirectory) void settings.update({ lastDirectory: dir });
    useDocumentStore().reportState();
    notify.success({ key: 'notify.opened', params: { name: r.value.name } });
    return true;
  }

  /** The window as a scene: every actor (model, motion file, hidden), the camera document, the music, the frame. */
  function current(withFrame = true): Scene {
    const music = useMusicStore();
    const list = actors.value;
    const out: SceneActor[] = list.map((e) => {
      const a: SceneActor = { model: e.model, motion: stateOf(e).path ?? e.missing ?? null, hidden: e.hidden };
      // The name the file gave it stays with the actor (worked-out names are not written).
      if (e.name) a.name = e.name;
      if (e.extra) a.extra = e.extra;
      if (e.stage) a.stage = e.stage;
      return a;
    });
    const activeActor = Math.max(0, list.findIndex((e) => e.id === shownActorId.value));
    const cam = cameraEntry.value;
    const a = parseAspect(outputAspectOf(useSettingsStore().settings.ui).text);
    return {
      ...base,
      aspect: a ? { width: a.width, height: a.height } : base.aspect,
      actors: out,
      activeActor,
      camera: cam ? (stateOf(cam).path ?? cam.missing ?? null) : null,
      audio: music.loaded && music.path ? { ...base.audio, path: music.path, offsetFrames: music.offsetFrames, volume: music.volume, muted: music.muted } : null,
      view: withFrame ? { ...base.view, frame: Math.round(useTimeStore().frame) } : base.view,
    };
  }

  /** Writes the window as a scene file at `target` (absolute); the documents themselves are saved by Save / Save All. */
  async function saveTo(target: string, overwrite: boolean): Promise<boolean> {
    const scene = current();
    const r = await useApi().saveScene(target, sceneBytes(scene, target), { overwrite, backup: true });
    if (!r.ok) {
      useNotifyStore().error(r.error);
      return false;
    }
    base = scene;
    path.value = r.value.path;
    savedSignature.value = signature();
    void useSettingsStore().refreshRecent();
    useDocumentStore().reportState();
    useNotifyStore().success({ key: 'notify.saved', params: { name: basenamePath(r.value.path) } });
    const unsaved = entries.value.filter((e) => !stateOf(e).path);
    if (unsaved.length) useNotifyStore().warning({ key: 'scene.notInScene', params: { n: unsaved.length } });
    return true;
  }

  /**
   * Save All: every unsaved document over its own file (a .bak of the old one once per session, as Save),
   * then the scene file when the window has one. Documents never saved are returned for the caller to ask
   * a name for (Save As); false in `ok` when a write failed (its notice names the file).
   */
  async function saveAll(): Promise<{ ok: boolean; needsName: number[] }> {
    const doc = useDocumentStore();
    const hist = useHistoryStore();
    const needsName: number[] = [];
    let ok = true;
    for (const e of entries.value) {
      const st = stateOf(e);
      if (!st.dirty) continue;
      if (!st.path) {
        needsName.push(e.id);
        continue;
      }
      if (e.id === activeId.value) {
        ok = (await doc.save()) && ok;
        continue;
      }
      const s = snaps.get(e.id);
      if (!s) continue;
      const r = await useApi().saveFile(s.path!, encodeDocument(s.doc, s.tracks, s.path!), { overwrite: true, backup: true });
      if (!r.ok) {
        useNotifyStore().error(r.error);
        ok = false;
        continue;
      }
      s.dirty = false;
      e.dirty = false;
      hist.markSavedFor(e.id);
      useNotifyStore().success({ key: 'notify.saved', params: { name: s.fileName } });
    }
    if (path.value && ok) ok = await saveTo(path.value, true);
    doc.reportState();
    return { ok, needsName };
  }

  /**
   * What the window title and the close prompt show: a lone motion as before (its name, * when unsaved);
   * a scene as "scene.vmdscene — dance.vmd" with * when any of its documents is unsaved.
   */
  function windowState(own: DocumentState): DocumentState {
    if (!path.value && entries.value.length <= 1) return own;
    const sceneName = path.value ? basenamePath(path.value) : useSettingsStore().t('scene.untitled');
    const name = own.name ? `${sceneName} — ${own.name}` : sceneName;
    return { path: path.value ?? own.path, name, dirty: anyDirty.value, unsaved: unsavedNames.value };
  }

  /** Names of the scene's unsaved documents, then the scene file when it changed (the close and replace prompts list them). */
  const unsavedNames = computed(() => [
    ...entries.value.filter((e) => stateOf(e).dirty).map((e) => stateOf(e).fileName || '—'),
    ...(sceneChanged.value && path.value ? [basenamePath(path.value)] : []),
  ]);

  /** The kept state of a document not in the editor (tests, the preview). */
  function snapshotOf(id: number): DocSnapshot | null {
    return id === activeId.value ? useDocumentStore().snapshot() : (snaps.get(id) ?? null);
  }

  return {
    path,
    entries,
    activeId,
    lastActorId,
    shownActorId,
    actors,
    cameraEntry,
    active,
    anyDirty,
    sceneChanged,
    unsavedNames,
    confirmReplace,
    stateOf,
    docName,
    actorLabel,
    activate,
    addDocument,
    addCamera,
    documentForKinds,
    setHidden,
    removeEntry,
    documentOpened,
    openPath,
    current,
    saveTo,
    saveAll,
    windowState,
    snapshotOf,
    sceneLastFrame,
    otherLastFrame,
  };
});
