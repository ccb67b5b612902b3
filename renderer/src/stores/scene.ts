/**
 * The window is a scene (issue 13): actors — each a model (PMX/PMD, or the built-in figure when `model`
 * is null) with its own motion document — and one camera document (camera, light, self-shadow keys),
 * plus the music (stores/music.ts) and the scene file (shared/scene/scene-file.ts) they came from.
 *
 * The documents themselves (bytes, tracks, file, dirty mark) and the history are the workspace's
 * (stores/workspace.ts): this store arranges them — which is an actor with which model, which is the camera
 * document — and reads and writes the scene file. Entries share the workspace's ids.
 *
 * Opening a lone .vmd/.vpd (Open, Open Recent, a drop) makes a one-actor scene, or, for a camera VMD
 * (camera/light/self-shadow keys and no bone or morph keys), a scene with only the camera document
 * (`openPath`, `openBytes`). A `.vmdscene` opens every actor's motion and
 * the camera; a file the scene names that is missing or damaged is reported by role and name while
 * everything else opens.
 *
 * One file, one owner: no two open documents have the same file, or Save of one would write over the other's
 * edits. A motion opened or added again shows the tab that has it (`showOwner`); added anyway, the new actor
 * holds an unsaved copy with no file (`addCopy`: Save asks for its name). A scene file that names one motion
 * for two actors gives the later ones such copies. Save As onto another open document's file is refused
 * (workspace saveAs), and Save All refuses a file two documents have, naming both.
 */
import { dropModelReads, holdModelRead } from './model-reads';
import { defineStore } from 'pinia';
import { computed, ref, shallowRef, watch } from 'vue';
import { useApi } from '../api';
import { decodeDocument, documentContent, useWorkspaceStore, type DocumentContent } from './workspace';
import { folderOf, samePath, stemOf } from '../paths';
import { useConfirmStore, type ConfirmChoice, type ConfirmRequest } from './confirm';
import { useMusicStore } from './music';
import { askSalvage, salvageOf } from './salvage';
import { useNotifyStore, type NoticeText } from './notify';
import { openWithLocated } from './scene-located';
import { usePreviewStore } from './preview';
import { useMocapStore } from './mocap';
import { useSettingsStore } from './settings';
import { useTimeStore } from './time';
import { basenamePath, dirnamePath } from '../../../shared/scene/scene-path';
import { placeBeside, type Footprint } from '../../../shared/scene/place-beside';
import { sceneChanges } from '../../../shared/scene/scene-changes';
import { OUTPUT_ASPECT_SETTING, outputAspectOf, parseAspect } from '../preview/output-frame';
import { sceneRoleNotice } from './scene-role';
import {
  emptyScene,
  MAX_SCENE_ACTORS,
  EDGE_WIDTH_MAX,
  EDGE_WIDTH_MIN,
  parseScene,
  sceneBytes,
  SCENE_EXTENSION,
  type Scene,
  type SceneActor,
  type ActorStage,
  type SceneFileRef,
  type CameraFollowSpan,
} from '../../../shared/scene/scene-file';
import { CAMERA_RECOVERY_COPY_FIELD, RECOVERY_COPY_FIELD, RECOVERY_UNTITLED_SCENE, type RecoveryLayout } from '../../../shared/scene/recovery-layout';
import { emptyCameraVmd, emptyVmd, modelNameField, type VmdInfo } from '../../../shared/vmd';
import { CAMERA_DOC_KINDS, diffDocuments, isCameraDocKind } from '../../../shared/key-edits';
import { windowTitle, type DocumentState, type FileStamp, type SaveOptions } from '../../../shared/ipc/contract';
import { askAboutRefusedSave, missingFolder, pickElsewhere } from './save-refusal';
import { stageMotionKind } from '../../../shared/vmd/inspect';
import { readModel } from '../../../shared/pmx/model-reader';
import { matchKey } from '../../../shared/pmx/model-inspect';
import { defaultFigureBones } from '../../../shared/skeleton/standard-figure';
import type { IpcResult, OpenedFile } from '../../../shared/ipc/contract';
import type { UiStringKey } from '../../../shared/i18n/strings';

/** Whether a path names a scene file. */
export function isScenePath(p: string): boolean {
  return p.toLowerCase().endsWith(SCENE_EXTENSION);
}

/** How a scene reads its actors' motions and its camera: kept off Open Recent (main's openFile), which the scene heads. */
const FOR_SCENE = { recent: false } as const;

/** A VMD that holds camera, light or self-shadow keys and no bone or morph keys goes to the camera document. */
export function isCameraMotion(info: Pick<VmdInfo, 'counts'> | null): boolean {
  if (!info) return false;
  const c = info.counts;
  return c.bone === 0 && c.morph === 0 && CAMERA_DOC_KINDS.some((k) => c[k] > 0);
}

/**
 * A span of the camera follow (nufollow §2): actor `actorId`'s bone `bone` followed over frames from…to (both
 * included; `to` null: to the end). The scene file stores the actor by its index (scene-file.ts CameraFollowSpan).
 */
export interface FollowSpan {
  actorId: number;
  bone: string;
  from: number;
  to: number | null;
  /** Fields of the span the file held that this version does not know (written back). */
  extra?: Record<string, unknown>;
}

/** One document of the scene as the tabs show it: its place in the scene, and its file and dirty mark from the workspace. */
export interface SceneEntry extends ScenePart {
  /** The document's file (null: never saved), its name, and its unsaved mark: read from the workspace. */
  readonly path: string | null;
  readonly fileName: string;
  readonly dirty: boolean;
}

/** What the scene says of one of its documents (the document itself is the workspace's, by the same id). */
export interface ScenePart {
  id: number;
  kind: 'actor' | 'camera';
  /** The name the scene file gives the actor, or '' (then actorLabel uses its model's or motion's file name). */
  name: string;
  /** Actor's model (absolute path), or null for the built-in figure. */
  model: string | null;
  hidden: boolean;
  /** The actor's model the scene names but that could not be read: still named when the scene is saved. */
  missingModel?: boolean;
  /** The scene file's fields this version does not know, kept for the round trip. */
  extra?: Record<string, unknown>;
  /** Where the actor stands (staging, editor/StagePanel.vue and setStage); absent: the origin. */
  stage?: ActorStage;
  /** The model's outline width as a factor of its file's (setEdgeWidth); absent: 1, the file's. */
  edgeWidth?: number;
  /** The file the scene names for it that could not be read: still named when the scene is saved. */
  missing?: string;
}

function copyStage(s: ActorStage | undefined): ActorStage | undefined {
  return s ? { position: [s.position[0], s.position[1], s.position[2]], turn: s.turn } : undefined;
}

/** A copy of a stage, or none at the origin (nothing is written for it). */
function stageOrNone(s: ActorStage | undefined): ActorStage | undefined {
  return s && (s.turn !== 0 || s.position.some((x) => x !== 0)) ? copyStage(s) : undefined;
}

export const useSceneStore = defineStore('scene', () => {
  const ws = useWorkspaceStore();
  /** The scene file the window came from or was saved as, or null. */
  const path = ref<string | null>(null);
  /**
   * The version of the scene file read or last written (main's stamp), sent with a save over it so a file another
   * program changed meanwhile is asked about (stores/save-refusal.ts); and the file saved over since it was opened
   * (the first save over a file after each open keeps a .bak), as a document does (workspace saveAs).
   */
  let fileStamp: FileStamp | null = null;
  let savedTo: string | null = null;
  /** Actors first (in scene order), then the camera document when there is one; ids are the workspace's. */
  const entries = ref<SceneEntry[]>([]);
  /** The last actor that was active (its model and motion stay in the preview while the camera is edited). */
  const lastActorId = ref<number | null>(null);
  /** Documents whose adding was undone (out of the scene until its redo), by id: what they were, the name their step shows. */
  const takenOut = new Map<number, { kind: ScenePart['kind']; name: string }>();
  /** The scene file names music that could not be read: it is still named when the scene is saved. */
  const missingAudio = ref(false);
  /** The scene as read or last saved (kept for the parts this window does not edit). */
  let base: Scene = emptyScene();
  /**
   * The camera follows an actor's bone (MMD's モデル/ボーン追従, shared/scene/camera-follow.ts): the actor by its
   * document id (the scene file stores its index), the bone by name; null for none. The preview and the video
   * take it through preview/camera-follow-source.ts; an actor taken out of the scene follows nothing while it is out.
   */
  const followSpans = ref<FollowSpan[]>([]);
  /**
   * The follow as one model and bone (its first span's), or null for none: what a scene with one follow over the
   * whole motion holds, and what the removal notice and the camera warnings name.
   */
  const cameraFollow = computed<{ actorId: number; bone: string } | null>(() => {
    const s = followSpans.value[0];
    return s ? { actorId: s.actorId, bone: s.bone } : null;
  });

  /** The workspace's file and dirty mark of a part's document. */
  function stateOf(e: Pick<ScenePart, 'id'>): { path: string | null; fileName: string; dirty: boolean } {
    const d = ws.get(e.id);
    return d ? { path: d.path, fileName: d.fileName, dirty: d.dirty } : { path: null, fileName: '', dirty: false };
  }

  const activeId = computed(() => ws.activeId);
  const actors = computed(() => entries.value.filter((e) => e.kind === 'actor'));
  const cameraEntry = computed(() => entries.value.find((e) => e.kind === 'camera') ?? null);
  const active = computed(() => entries.value.find((e) => e.id === ws.activeId) ?? null);
  const partOf = (id: number | null) => entries.value.find((e) => e.id === id) ?? null;
  /**
   * The actor whose rows and keys go with the camera document's: the active one, else (the camera
   * document active) the last active one, else the first.
   */
  const shownActorId = computed<number | null>(() => {
    const a = active.value;
    if (a?.kind === 'actor') return a.id;
    return actors.value.some((e) => e.id === lastActorId.value) ? lastActorId.value : (actors.value[0]?.id ?? null);
  });

  /**
   * The scene file's own content as this window would write it, less what only says where the window was
   * (the frame, the active tab): recorded when a scene is opened (after its music is in) and saved.
   */
  const savedSignature = ref<string | null>(null);
  /**
   * The open scene file is no longer on disk (shell/disk-watch.ts found it gone): the scene counts as unsaved until
   * it is written again, so Save writes it back (as the notice says) and closing asks.
   */
  const fileGone = ref(false);
  /**
   * The scene was recovered from autosave's copy of its layout (openRecovered) over its file: what the file holds is
   * not what the window does, so the scene counts as unsaved until Save Scene writes it.
   */
  const recovered = ref(false);
  /**
   * The output aspect ("W:H") the scene file gave or the person picked in this window; null until either:
   * the last one picked (remembered in the settings) counts then. `outputAspect` is the one place the
   * preview, its overlays, the video export and Save Scene read it.
   */
  const pickedAspect = ref<string | null>(null);
  const outputAspect = computed(() => outputAspectOf(pickedAspect.value !== null ? { [OUTPUT_ASPECT_SETTING]: pickedAspect.value } : useSettingsStore().settings.ui));
  /** The person picks an output aspect: the scene's from now on, and remembered for the next window. */
  function setOutputAspect(text: string) {
    if (!parseAspect(text)) return;
    pickedAspect.value = text;
    const settings = useSettingsStore();
    void settings.update({ ui: { ...settings.settings.ui, [OUTPUT_ASPECT_SETTING]: text } });
  }
  function signature(): string {
    return signatureOf(current(false));
  }
  /** The signature of scene `now` (current(false), or a scene as written: its view is the file's once it is the base). */
  function signatureOf(now: Scene): string {
    // Showing or hiding the beat markers is a view's change (as the frame is): saved with the scene, never asked about.
    const audio = now.audio?.beats ? { ...now.audio, beats: { ...now.audio.beats, shown: true } } : now.audio;
    return JSON.stringify({ ...now, audio, activeActor: 0 });
  }
  /** A song loaded, or the offset a removed song left (what only a scene file keeps beside a lone motion). */
  function musicBeside(): boolean {
    const music = useMusicStore();
    return music.loaded || music.offsetFrames !== 0;
  }
  /**
   * No scene file, and what the window holds is more than a lone motion: several documents, or one document
   * with music beside it, or one actor standing off the origin or hidden (what only a scene file keeps). An
   * untitled scene: its arrangement is kept nowhere yet, so the title, the status bar, the close and replace
   * questions and Save All treat it as a scene. Removing the music (or the stage) makes it a lone motion again, unless
   * the song's offset was set: that offset stays for the song picked next, and only a scene file keeps it.
   */
  const untitled = computed(
    () =>
      path.value === null &&
      (entries.value.length > 1 || (entries.value.length === 1 && musicBeside()) || entries.value.some((p) => p.hidden || p.stage || p.edgeWidth !== undefined)),
  );
  /**
   * The scene's own content is unsaved: a scene file is open and what it would hold now differs from it (music,
   * offset, volume, hidden actors, stages, actors and their models, camera, aspect); or the window is an untitled
   * scene, whose every part (which model dances which motion, the camera document, the music, hidden actors,
   * stages) only a scene file keeps, as MMD's project file does: an untitled scene of two actors and a camera was
   * closed without a question. Undo of a stage back to the file's clears it again.
   */
  const sceneChanged = computed(() => {
    if (path.value !== null) return fileGone.value || recovered.value || (savedSignature.value !== null && signature() !== savedSignature.value);
    return untitled.value;
  });
  const anyDirty = computed(() => sceneChanged.value || entries.value.some((e) => e.dirty));

  /** Names of the scene's unsaved documents, then the scene file when its own content changed (the close and replace prompts list them). */
  const unsavedNames = computed(() => unsavedExcept(null));

  /**
   * unsavedNames less document `id` (the status bar names the shown one "here"). A document whose file name
   * another document of the scene has too (a copy of walk.vmd beside the original) is named with its actor:
   * "miku (2): walk.vmd".
   */
  function unsavedExcept(id: number | null): string[] {
    const all = entries.value;
    const nameOf = (e: SceneEntry) => {
      const f = e.fileName || '—';
      const label = e.kind === 'actor' ? actorLabel(e) : '';
      return label && all.some((o) => o !== e && o.fileName === e.fileName) ? `${label}: ${f}` : f;
    };
    return [
      ...all.filter((e) => e.dirty && e.id !== id).map(nameOf),
      ...(sceneChanged.value ? [path.value ? basenamePath(path.value) : useSettingsStore().t('scene.untitled')] : []),
    ];
  }

  /**
   * What Don't Save would lose of the scene file's own content, as its line in the close question says it ("music
   * offset · stage of matcap_sample"): the changes since it was saved or opened (shared sceneChanges), named by
   * the tabs' actor names; for an untitled scene, what only a scene file keeps. Null when it has no unsaved change.
   */
  const sceneChangeText = computed<NoticeText | null>(() => {
    if (!sceneChanged.value) return null;
    if (recovered.value) return { key: 'scene.change.recovered' };
    if (path.value === null || savedSignature.value === null) return fileGone.value ? { key: 'scene.change.gone' } : { key: 'scene.change.untitled' };
    const list = sceneChanges(JSON.parse(savedSignature.value) as Scene, JSON.parse(signature()) as Scene, (i) => {
      const e = actors.value[i];
      return e ? actorLabel(e) : '—';
    });
    const parts: NoticeText[] = list.map((c) => ('actors' in c ? { key: `scene.change.${c.kind}` as const, params: { names: c.actors.join(', ') } } : { key: `scene.change.${c.kind}` as const }));
    if (fileGone.value) parts.push({ key: 'scene.change.gone' });
    return parts.length ? parts : { key: 'scene.change.other' };
  });

  /**
   * The close question's lines, one per unsaved part of the window: each edited document ("Actor Gene_light:
   * wavefile_v2.vmd", "Camera: camera.vmd"), then the scene file with what changed in it (sceneChangeText).
   */
  const unsavedItems = computed<NoticeText[]>(() => [
    ...entries.value
      .filter((e) => e.dirty)
      .map((e): NoticeText =>
        e.kind === 'camera'
          ? { key: 'scene.closeItemCamera', params: { file: e.fileName || '—' } }
          : { key: 'scene.closeItemActor', params: { name: actorLabel(e) || '—', file: e.fileName || '—' } },
      ),
    ...(sceneChangeText.value
      ? [
          path.value
            ? ({ key: 'scene.closeItemScene', params: { name: basenamePath(path.value), changes: sceneChangeText.value } } as NoticeText)
            : ({ key: 'scene.closeItemUntitled', params: { name: { key: 'scene.untitled' }, changes: sceneChangeText.value } } as NoticeText),
        ]
      : []),
  ]);

  /**
   * An untitled scene that is one saved motion and a song, or the offset a removed song left: nothing but the song
   * (and its offset) is unsaved.
   */
  const songOnlyUnsaved = computed(
    () => path.value === null && entries.value.length === 1 && !entries.value[0].dirty && !entries.value[0].hidden && !entries.value[0].stage && entries.value[0].edgeWidth === undefined && musicBeside(),
  );

  /**
   * What the status bar says of saving, in step with the title's *: the active document's own state, and when
   * it is saved but the title still shows * (the scene's own content, or another document), what is unsaved
   * ("Unsaved changes in Untitled scene"). `unsaved` when the title shows *.
   */
  const saveStatus = computed((): { key: UiStringKey; params?: Record<string, string>; unsaved: boolean } => {
    if (!ws.isOpen) return { key: 'status.noFile', unsaved: false };
    // The shown document is unsaved: the others that are are named too (Save writes them all).
    if (ws.dirty) {
      const others = unsavedExcept(ws.activeId);
      if (others.length) return { key: 'status.unsavedHereAnd', params: { names: others.join(', ') }, unsaved: true };
      return { key: 'status.unsaved', unsaved: true };
    }
    // A motion the scene names but that was not found: said so ("idle.vmd is missing"), not "not saved to a file
    // yet", which reads as a motion never saved.
    const missing = active.value?.missing;
    if (!ws.path && missing) return { key: 'status.missing', params: { file: basenamePath(missing) }, unsaved: anyDirty.value };
    if (!ws.path) return { key: 'status.notOnDisk', unsaved: anyDirty.value };
    // A lone motion, saved, with a song beside it: only the song and its offset are unsaved (kept in a scene file
    // only), said in those words: "Unsaved changes in Untitled scene" read as the dance's save having failed.
    if (anyDirty.value && songOnlyUnsaved.value) {
      const params: Record<string, string> = { file: ws.fileName };
      return { key: useMusicStore().loaded ? 'status.songUnsaved' : 'status.offsetUnsaved', params, unsaved: true };
    }
    if (anyDirty.value) return { key: 'status.othersUnsaved', params: { file: ws.fileName, names: unsavedNames.value.join(', ') }, unsaved: true };
    return { key: 'status.saved', unsaved: false };
  });

  /** The name a step of the history shows for its document ("camera.vmd", "Miku: dance.vmd"). */
  function docName(id: number): string {
    const e = partOf(id);
    if (!e) return '';
    const f = stateOf(e).fileName;
    const name = actorLabel(e);
    return e.kind === 'actor' && name && name !== stemOf(f) ? `${name}: ${f}` : f;
  }

  /**
   * What an actor is called (its tab, its history steps): the name the scene file gives it, else its
   * model's file name, else its motion's — worked out each time, so it follows a new model and reads the
   * same after the scene is saved and opened again. '' for the camera document.
   */
  function actorLabel(e: ScenePart): string {
    const base = baseLabel(e);
    if (!base) return '';
    // Actors called alike (a capture imported onto the model already shown: two Gene_light tabs) are told apart
    // by their place among them: "Gene_light", "Gene_light (2)". Shown only; the scene file keeps its names.
    const alike = actors.value.filter((a) => baseLabel(a) === base);
    const i = alike.findIndex((a) => a.id === e.id);
    return i > 0 ? `${base} (${i + 1})` : base;
  }

  function baseLabel(e: ScenePart): string {
    if (e.kind === 'camera') return '';
    if (e.name) return e.name;
    if (e.model) return stemOf(basenamePath(e.model));
    const f = stateOf(e).fileName || (e.missing ? basenamePath(e.missing) : '');
    return f ? stemOf(f) : '';
  }

  /** A document's entry: what the scene says of it, and (read through) its file and dirty mark in the workspace. */
  function newEntry(id: number, kind: ScenePart['kind'], a: Partial<SceneActor> = {}): SceneEntry {
    return {
      id,
      kind,
      // Only a name the scene file gives; otherwise actorLabel works one out.
      name: kind === 'camera' ? '' : (a.name ?? ''),
      model: a.model ?? null,
      hidden: a.hidden ?? false,
      extra: a.extra,
      ...(a.stage ? { stage: a.stage } : {}),
      ...(a.edgeWidth !== undefined && a.edgeWidth !== 1 ? { edgeWidth: a.edgeWidth } : {}),
      get path() {
        return stateOf(this).path;
      },
      get fileName() {
        return stateOf(this).fileName;
      },
      get dirty() {
        return stateOf(this).dirty;
      },
    };
  }

  /** The last frame over every document of the scene (the time line is shared). */
  function sceneLastFrame(): number {
    return ws.lastFrame();
  }

  /**
   * Makes a document of the scene the one the editor shows: its tracks in the track list and timeline,
   * its keys for every tool and the history's new steps. The frame stays; the selection is cleared (its
   * keys belong to the other document). An actor's model is asked of the preview.
   */
  function activate(id: number): boolean {
    return partOf(id) !== null && ws.activate(id);
  }

  // Whatever made a document active (a tab, a click on its row, undo of its step): an actor's model is the preview's.
  watch(
    () => ws.activeId,
    (id) => {
      const e = partOf(id);
      if (e?.kind !== 'actor') return;
      lastActorId.value = e.id;
      showModelOf(e);
    },
    { flush: 'sync' },
  );

  /** Asks the preview for an actor's model (the built-in figure when it has none or it is missing), unless it shows it already. */
  function showModelOf(e: ScenePart) {
    const preview = usePreviewStore();
    if (!e.model || e.missingModel) {
      if (preview.model) preview.requestFigure();
    } else if (preview.model?.path !== e.model) preview.requestModel({ path: e.model });
  }

  // The active actor's model is the preview's (a model dropped or picked in the preview belongs to it; the
  // preview's "use the figure" puts that actor on the built-in figure). A missing model shown as the figure stays named.
  watch(
    () => usePreviewStore().model?.path ?? null,
    (p) => {
      // A model the motion capture dialog shows on the preview is lent, not the actor's (stores/mocap.ts).
      if (useMocapStore().lent) return;
      const a = partOf(lastActorId.value);
      if (!a || (p === null && a.missingModel)) return;
      a.model = p;
      a.missingModel = false;
    },
  );

  /**
   * Save All as the window's command does it (shell/commands.ts saveAllWithDialog, given at start by app.ts:
   * a store shows no file dialog): a name asked for each document never saved and for an untitled scene.
   * Resolves to whether everything was written.
   */
  let saveAllAsking: (() => Promise<boolean>) | null = null;
  function attachSaveAll(fn: () => Promise<boolean>) {
    saveAllAsking = fn;
  }

  /**
   * Before a file replaces what the window holds (Open, Open Recent, a drop, a scene file): when anything
   * is unsaved, asks Save / Don't Save (Open and Discard for a scene) / Cancel, naming it. Save is Save All
   * (attachSaveAll): every unsaved document over its own file, Save As for one never saved, and the scene
   * file, its name asked for an untitled scene; then the file opens. When something was not written (a name
   * not given, a failed write), a notice says the file was not opened and what is still unsaved, and the
   * window keeps what it holds. Without attachSaveAll, documents never saved are named in a notice instead.
   * True to go on.
   */
  async function confirmReplace(file: string): Promise<boolean> {
    return (await askReplace(file)) === 'open';
  }

  /**
   * `confirmReplace` with other answers offered first (shell/pose-apply.ts: a pose or motion opened over the
   * scene can go into it): `offer.buttons` lead (the first is the default, Enter), then Save All and Open / Open
   * and Discard when anything is unsaved, or "Open it on its own (replaces the scene)", then Cancel; the line
   * is `offer.message`, followed by what is unsaved. Resolves to 'open' (replace the scene: saved or discarded
   * as answered), 'cancel', or the offered choice.
   */
  async function askReplace(file: string, offer?: { message: NoticeText; buttons: ConfirmRequest['buttons'] }): Promise<ConfirmChoice | 'open'> {
    const names = unsavedNames.value;
    if (!names.length && !offer) return 'open';
    const lone = !path.value && !untitled.value;
    const params = { file: basenamePath(file), names: names.join(', ') };
    const replaceMessage: NoticeText = { key: lone ? 'scene.replaceLoneAsk' : 'scene.replaceAsk', params };
    const choice = await useConfirmStore().ask({
      title: { key: offer ? 'scene.openOntoTitle' : lone ? 'scene.closeTitle' : 'scene.replaceTitle' },
      message: offer ? (names.length ? { key: 'scene.openOntoUnsaved', params: { ask: offer.message, names: params.names } } : offer.message) : replaceMessage,
      // A scene's unsaved parts listed as closing it lists them: each actor and its file, the scene file with what changed in it.
      items: !lone && names.length ? unsavedItems.value : undefined,
      buttons: [
        ...(offer?.buttons ?? []),
        ...(names.length
          ? [
              { choice: 'save' as const, label: lone ? ('close.save' as const) : ('scene.replaceSave' as const) },
              { choice: 'discard' as const, label: lone ? ('close.discard' as const) : ('scene.replaceOpen' as const) },
            ]
          : [{ choice: 'discard' as const, label: 'scene.openAlone' as const }]),
        { choice: 'cancel', label: 'close.cancel' },
      ],
    });
    if (choice === 'discard') return 'open';
    if (choice !== 'save') return choice;
    if (saveAllAsking) {
      if ((await saveAllAsking()) && !anyDirty.value) return 'open';
    } else {
      const r = await saveAll();
      if (r.needsName.length) {
        const unnamed = r.needsName.map((id) => docName(id) || '—').join(', ');
        useNotifyStore().warning({ key: 'scene.replaceNeedsName', params: { names: unnamed } });
        return 'cancel';
      }
      if (r.ok && !anyDirty.value) return 'open';
    }
    useNotifyStore().warning({ key: 'scene.replaceNotSaved', params: { file: basenamePath(file), names: unsavedNames.value.join(', ') } });
    return 'cancel';
  }

  /**
   * Open of a lone motion: the document replaces every other (Open: the history starts empty) and the window
   * becomes a one-actor scene on the preview's model, or, for a camera VMD, a scene with only the camera document.
   * Music beside what is replaced belonged to that scene (a scene file's, or an untitled one's that the user
   * saved or chose not to keep when asked), so it goes with it; music loaded with nothing open stays for the motion.
   */
  function openLone(content: DocumentContent) {
    const music = useMusicStore();
    // The offset a removed song left is that scene's too (kept for its next song): it goes with it.
    if (entries.value.length && musicBeside()) {
      if (music.loaded) music.unload();
      music.setOffset(0);
      music.holdOffset(false);
    }
    const [id] = ws.open([content]);
    const camera = isCameraMotion(content.info);
    entries.value = [newEntry(id, camera ? 'camera' : 'actor', { model: usePreviewStore().model?.path ?? null })];
    lastActorId.value = camera ? null : id;
    path.value = null;
    fileStamp = null;
    savedTo = null;
    base = emptyScene();
    followSpans.value = [];
    savedSignature.value = null;
    fileGone.value = false;
    recovered.value = false;
    missingAudio.value = false;
    music.missingSong = null;
    dropMissingNotice();
  }

  /**
   * Close Scene: every document leaves (the workspace is empty, the history with them), and so do the scene file,
   * its music and the actor's model: the window is as it starts. The caller asks about unsaved changes first
   * (commands.ts closeSceneAsking).
   */
  function closeScene() {
    dropModelReads();
    const music = useMusicStore();
    if (music.loaded) music.unload();
    music.setOffset(0);
    music.holdOffset(false);
    music.setVolume(1);
    music.setMuted(false);
    // Entries first (none), so the emptied workspace finds no actor to show.
    entries.value = [];
    lastActorId.value = null;
    takenOut.clear();
    ws.open([]);
    path.value = null;
    fileStamp = null;
    savedTo = null;
    base = emptyScene();
    followSpans.value = [];
    savedSignature.value = null;
    fileGone.value = false;
    recovered.value = false;
    missingAudio.value = false;
    music.missingSong = null;
    dropMissingNotice();
    pickedAspect.value = null;
    if (usePreviewStore().model) usePreviewStore().requestFigure();
  }

  // A song loaded (chosen, dropped) replaces one the scene file named but that could not be read.
  watch(
    () => useMusicStore().name,
    (n) => {
      if (n !== null) missingAudio.value = false;
    },
  );

  /**
   * New motion: an empty, never-saved document for `modelName` (the model's name in its header) opens as a
   * lone motion (see `openLone`: the history starts empty). Returns its id.
   */
  function newMotion(fileName: string, modelName = ''): number {
    // A name the header cannot hold (over 20 bytes in Shift_JIS) is cut at a character, as MMD and every other
    // path that writes a model's name cut it (it used to leave the header empty, without a word), and said.
    const name = modelNameField(modelName);
    openLone(documentContent({ ...emptyVmd(), modelName: name.field }, { name: fileName }));
    if (name.note) useNotifyStore().warning({ key: `note.${name.note.code}` as 'note.W_MODEL_NAME_LONG', params: name.note.params });
    return ws.activeId!;
  }

  /**
   * Decodes bytes (a dropped file, a new motion's) and opens them as a lone motion (see `openLone`). Returns
   * false (and notifies) when they do not parse; what was open then stays.
   */
  function openBytes(name: string, bytes: Uint8Array, filePath: string | null = null): boolean {
    const d = decodeDocument(name, bytes, filePath);
    if (!d.ok) {
      // A VMD cut short: asked whether to open the keys it still holds (stores/salvage.ts), else refused as before
      // (at once when there is nothing to ask).
      if (salvageOf(filePath ?? name, bytes, d.error)) void askSalvage(filePath ?? name, bytes, d.error).then((copy) => (copy ? openLone(copy) : useNotifyStore().error(d.error)));
      else useNotifyStore().error(d.error);
      return false;
    }
    openLone(d.value);
    return true;
  }

  /**
   * Opens a file by path (Open, Open Recent, a double-click, the command line): a scene file as a scene, any
   * other as a lone motion, after asking about unsaved changes. False when nothing was opened.
   */
  async function openPath(p: string): Promise<boolean> {
    if (isScenePath(p)) return openScene(p);
    // A lone file replaces the scene: its other unsaved documents are not dropped without asking.
    if (!(await confirmReplace(p))) return false;
    ws.busy = true;
    try {
      const r = await ws.read(p);
      const settings = useSettingsStore();
      // Main keeps the list: a file that is gone has just left it, one that opened has come to its top.
      void settings.refreshRecent();
      if (!r.ok) {
        // A VMD cut short: asked whether to open the keys it still holds (stores/salvage.ts), as an unsaved copy.
        const copy = r.stage === 'decode' ? await askSalvage(p, r.bytes, r.error) : null;
        if (copy) {
          openLone(copy);
          return true;
        }
        useNotifyStore().error(r.error);
        return false;
      }
      openRead(r.value);
      return true;
    } finally {
      ws.busy = false;
    }
  }

  /**
   * A file already read (and asked about: askReplace) opens as `openPath` opens it: a lone motion, its folder
   * the one Open… starts in next time, and a notice.
   */
  function openRead(content: DocumentContent): void {
    dropModelReads();
    openLone(content);
    const settings = useSettingsStore();
    const dir = content.path ? folderOf(content.path) : '';
    if (dir && dir !== settings.settings.lastDirectory) void settings.update({ lastDirectory: dir });
    openedNotice(content.fileName);
  }

  /**
   * Adds a motion file to the scene and makes it active: a camera VMD becomes the camera document (there
   * is one: it is refused with a notice), anything else a new actor shown with the preview's model (a scene
   * that has MAX_SCENE_ACTORS already: refused with a notice). One undo step ("add actor", "add camera":
   * undo takes it out again, redo puts it back); the history keeps its other steps.
   */
  async function addDocument(p: string, as: 'actor' | 'camera' | 'auto' = 'auto', owned?: (ownerId: number, content: DocumentContent) => Promise<boolean>): Promise<boolean> {
    if (!entries.value.length && !ws.isOpen) return openPath(p);
    const r = await ws.read(p);
    if (!r.ok) {
      useNotifyStore().error(r.stage === 'read' ? { ...r.error, file: p } : r.error);
      return false;
    }
    return addRead(r.value, as, owned);
  }

  /**
   * `addDocument` for a file already read by path (a drop read it to tell a camera from a dance: not read twice):
   * its tab is shown when the file is open already (`owned`, + Actor's, asks instead, as Open… does: show it, or
   * add a copy as a new actor: shell/pose-apply.ts askOwnedForAdd), else it joins the scene as addContent adds it.
   */
  async function addRead(content: DocumentContent, as: 'actor' | 'camera' | 'auto' = 'auto', owned?: (ownerId: number, content: DocumentContent) => Promise<boolean>): Promise<boolean> {
    // The file is open already: its tab is shown, not a second document over the same file.
    const owner = content.path ? ws.ownerOf(content.path, null, content.realPath ?? null) : null;
    if (owner) {
      if (owned) return owned(owner.id, content);
      showOwner(owner.id, content.fileName);
      return false;
    }
    const added = addContent(content, as);
    if (added) void useSettingsStore().refreshRecent();
    return added;
  }

  /**
   * What `addDocument` does with a motion already read (a file's, or dropped bytes decoded): a new actor, or the
   * camera document, as one undo step, with the same refusals and notices.
   */
  function addContent(content: DocumentContent, as: 'actor' | 'camera' | 'auto' = 'auto'): boolean {
    const r = { value: content };
    const kind = as === 'auto' ? (isCameraMotion(r.value.info) ? 'camera' : 'actor') : as;
    if (kind === 'camera' && cameraEntry.value) {
      useNotifyStore().warning({ key: 'scene.cameraExists', params: { name: cameraEntry.value.fileName } });
      return false;
    }
    // A scene file holds at most MAX_SCENE_ACTORS actors (its parser refuses more): one more is not added,
    // rather than kept until Save Scene refuses the whole scene.
    if (kind === 'actor' && actors.value.length >= MAX_SCENE_ACTORS) {
      useNotifyStore().warning({ key: 'scene.tooManyActors', params: { name: r.value.fileName, max: MAX_SCENE_ACTORS } });
      return false;
    }
    const model = usePreviewStore().model?.path ?? null;
    addAsStep(r.value, kind, model);
    // A new actor dances on the model shown until now: say which, and how to give it another.
    if (kind === 'actor') {
      const on = model ? basenamePath(model) : { key: 'scene.figure' as const };
      useWorkspaceStore().editNotice('success', { key: 'scene.actorAdded', params: { name: r.value.fileName, model: on } });
    } else useNotifyStore().success({ key: 'notify.opened', params: { name: r.value.fileName } });
    return true;
  }

  /**
   * How the open document `id` is named in "already open" notices: 'actor walk', or the camera's words.
   */
  function ownerText(id: number): NoticeText {
    return partOf(id)?.kind === 'camera' ? { key: 'scene.ownerCamera' } : { key: 'scene.ownerActor', params: { name: partName(id) } };
  }

  /** A file opened again: the tab of the document that has it is shown, and a notice says so. */
  function showOwner(id: number, file: string): void {
    activate(id);
    useNotifyStore().info({ key: 'scene.alreadyOpen', params: { file, owner: ownerText(id) } });
  }

  /**
   * A motion whose file an open document has (`owner`), added anyway as a new actor: the actor holds an
   * unsaved copy with no file (Save asks for its name), so the two never write one file. One undo step.
   */
  function addCopy(content: DocumentContent, owner: number): boolean {
    if (actors.value.length >= MAX_SCENE_ACTORS) {
      useNotifyStore().warning({ key: 'scene.tooManyActors', params: { name: content.fileName, max: MAX_SCENE_ACTORS } });
      return false;
    }
    const model = usePreviewStore().model?.path ?? null;
    addAsStep({ ...content, path: null }, 'actor', model, { unsaved: true });
    const on = model ? basenamePath(model) : { key: 'scene.figure' as const };
    useWorkspaceStore().editNotice('success', { key: 'scene.actorAddedCopy', params: { name: content.fileName, model: on, owner: ownerText(owner) } });
    return true;
  }

  /**
   * A motion loaded onto a document of the scene (an actor's motion, the camera document), as MMD loads a
   * motion onto the selected model: the document's keys become the motion's, as one undo step (`label`;
   * undo gives back its exact bytes). The document keeps its file (Save writes the loaded motion there) and
   * is made active. Resolves to whether it changed.
   */
  async function loadOnto(id: number, content: DocumentContent, label: string): Promise<boolean> {
    if (!partOf(id) || !ws.get(id)) return false;
    activate(id);
    if (ws.activeId !== id) return false;
    const d = ws.get(id)!;
    return ws.commitDiff(diffDocuments(d.doc, content.doc, label).diff);
  }

  /**
   * Whether a motion loaded onto document `id` becomes its file (`relink`): the document has none of its own
   * (the file the scene named could not be read, or it was never saved).
   */
  function relinkable(id: number): boolean {
    return partOf(id) !== null && ws.get(id)?.path === null;
  }

  /**
   * A motion file loaded onto a document that has none of its own (`relinkable`: its file was missing when the
   * scene opened, moved or renamed since): the document becomes that file, its keys, path and name (the tab,
   * Save, the scene file name it), unedited, as one undo step (`label`; undo gives back what it held and the
   * missing file's name). Made active. Resolves to whether it was done.
   */
  async function relink(id: number, content: DocumentContent, label: string): Promise<boolean> {
    const e = partOf(id);
    if (!e || !content.path || !relinkable(id)) return false;
    activate(id);
    if (ws.activeId !== id) return false;
    const missing = e.missing;
    return ws.relinkStep(id, content, label, (way) => {
      const p = partOf(id);
      if (p) p.missing = way === 'undo' ? missing : undefined;
    });
  }

  /**
   * Reload from disk (shell/pose-apply.ts: the file of document `id` changed on disk and was opened again): the
   * document becomes the file as it is now (`content`: its keys, its stamp), unedited and keeping its file, as one
   * undo step (`label`; undo gives back the version that was open, its unsaved mark and the stamp it had, so a
   * Save of it still asks before writing over the other program's file). Made active. Resolves to whether it was done.
   */
  async function reload(id: number, content: DocumentContent, label: string): Promise<boolean> {
    const d = ws.get(id);
    if (!partOf(id) || !d || !content.path || !d.path || ws.ownerOf(content.path, null, content.realPath ?? null) !== d) return false;
    activate(id);
    if (ws.activeId !== id) return false;
    // Reopened by another path (a link to it): the document keeps the path it has.
    return ws.relinkStep(id, { ...content, path: d.path, fileName: d.fileName }, label, () => {});
  }

  /**
   * Each actor's footprint at rest, by id, from the mounted preview (scene-actors.ts attachFootprints: it
   * knows the built models); a plain function held outside Vue's reactivity, never a three.js object.
   */
  let footprintsOf: (() => ReadonlyMap<number, Footprint>) | null = null;
  function attachFootprints(f: () => ReadonlyMap<number, Footprint>): () => void {
    footprintsOf = f;
    return () => {
      if (footprintsOf === f) footprintsOf = null;
    };
  }

  /**
   * Where a new actor on `model` stands beside the actors there now (shared/scene/place-beside.ts), each
   * taken at its model's size (the preview's; another actor on the same model gives the new one's), or
   * undefined with no actor.
   */
  function besideActors(model: string | null): ActorStage | undefined {
    const known = footprintsOf?.() ?? new Map<number, Footprint>();
    const others = actors.value.map((a) => ({ stage: a.stage, model: a.model, footprint: known.get(a.id) ?? null }));
    const mine = others.find((o) => o.model === model && o.footprint)?.footprint ?? null;
    return placeBeside(others, mine);
  }

  /**
   * A document joins the scene as one undo step (stores/workspace.ts addStep), made active: an actor (on
   * `model`, after the other actors) or the camera document. Undo takes its entry out as × does (another
   * document shown) but keeps it, with its hidden mark and stage, for the redo that puts it back in its place.
   */
  function addAsStep(content: DocumentContent, kind: ScenePart['kind'], model: string | null, opts: { unsaved?: boolean; stage?: ActorStage } = {}): number {
    // A scene has one camera document: a camera whose adding was undone cannot come back beside a new one.
    if (kind === 'camera') {
      for (const [id, t] of takenOut) {
        if (t.kind !== 'camera') continue;
        ws.forget(id);
        takenOut.delete(id);
      }
    }
    let entry: SceneEntry | null = null;
    let at = -1;
    return ws.addStep(
      content,
      kind === 'actor' ? 'add actor' : 'add camera',
      (id, way) => {
        if (way === 'undo') {
          at = entries.value.findIndex((e) => e.id === id);
          // Its redo step still names it (undoDoc / redoDoc) while it is out.
          takenOut.set(id, { kind, name: partName(id) });
          if (at >= 0) takeOut(id);
          return;
        }
        takenOut.delete(id);
        entry ??= newEntry(id, kind, kind === 'actor' ? { model, stage: opts.stage } : { model: null });
        const list = [...entries.value];
        if (at >= 0) list.splice(Math.min(at, list.length), 0, entry);
        else if (kind === 'actor') list.splice(actors.value.length, 0, entry);
        else list.push(entry);
        entries.value = list;
        activate(id);
      },
      opts,
    );
  }

  /**
   * An imported motion (a BVH or VRM Animation converted onto `model`): a new, unsaved document (no file
   * yet; Save asks its name) as a new actor on that model, made active, as one undo step ("add actor"); with
   * nothing open it is the lone motion. Beside other actors it stands to their right (its stage, `placed`; at the origin it stood inside
   * the first one); its motion's keys are the import's, whatever the place. The history keeps its steps.
   */
  function addImported(content: DocumentContent, model: string | null): { id: number; placed: ActorStage | undefined } {
    if (entries.value.length || ws.isOpen) {
      const placed = besideActors(model);
      return { id: addAsStep(content, 'actor', model, { unsaved: true, stage: placed }), placed: copyStage(placed) };
    }
    openLone(content);
    const id = ws.activeId!;
    entries.value[0].model = model;
    showModelOf(entries.value[0]);
    ws.markUnsaved(id);
    return { id, placed: undefined };
  }

  /**
   * New camera: adds an empty camera document (never saved: Save asks its name) to a scene that has none, and
   * makes it active (the camera group's add row, TrackList), as one undo step ("add camera"). Returns false
   * when the scene already has one (that one is made active) or nothing is open.
   */
  function addCamera(): boolean {
    const cam = cameraEntry.value;
    if (cam) {
      activate(cam.id);
      return false;
    }
    if (!entries.value.length) return false;
    // MMD's camera header name (カメラ・照明): a camera VMD saved from here is one MMD and other tools know as a camera's.
    addAsStep(documentContent(emptyCameraVmd()), 'camera', null);
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
   * × on a tab: takes one document out of the scene (its file stays on disk) as one undo step, "remove actor" /
   * "remove camera" (workspace.ts removeStep): Ctrl+Z puts it back in its place, with its model, stage, hidden
   * mark, edits and their steps, and shows it, as a mistaken × in MMM is undone. The last document is not removed
   * (false): opening another file replaces it. When it was the one shown, the next actor (else the one before,
   * else the camera document) is shown. The caller asks about unsaved changes first (commands.ts removeFromScene).
   */
  function removeEntry(id: number): boolean {
    const list = entries.value;
    const at = list.findIndex((e) => e.id === id);
    if (at < 0 || list.length <= 1) return false;
    const entry = list[at];
    const kind = entry.kind;
    const done = ws.removeStep(id, kind === 'actor' ? 'remove actor' : 'remove camera', (way) => {
      if (way === 'redo') {
        // Its undo step still names it (undoDoc) while it is out.
        takenOut.set(id, { kind, name: partName(id) });
        if (entries.value.some((e) => e.id === id)) takeOut(id);
        return;
      }
      takenOut.delete(id);
      const back = [...entries.value];
      back.splice(Math.min(at, back.length), 0, entry);
      entries.value = back;
      activate(id);
    });
    if (!done) return false;
    // The last document stays for good: the undo of its own adding would leave the window empty.
    if (entries.value.length === 1) ws.keep(entries.value[0].id);
    return true;
  }

  /**
   * Takes document `id`'s entry out of the scene (× on its tab, the undo of its adding): when it was the one
   * shown, the next actor (else the one before, else the camera document) is shown. The workspace's document
   * is the caller's to close or keep.
   */
  function takeOut(id: number) {
    const list = entries.value;
    const i = list.findIndex((e) => e.id === id);
    if (i < 0) return;
    const gone = list[i];
    if (ws.activeId === id) {
      const rest = list.filter((e) => e.id !== id);
      const actorsLeft = rest.filter((e) => e.kind === 'actor');
      const next =
        gone.kind === 'actor' && actorsLeft.length
          ? (actorsLeft[Math.min(actors.value.findIndex((e) => e.id === id), actorsLeft.length - 1)] ?? actorsLeft[0])
          : (rest.find((e) => e.id === lastActorId.value) ?? rest[0]);
      activate(next.id);
    }
    entries.value = entries.value.filter((e) => e.id !== id);
    if (lastActorId.value === id) lastActorId.value = actors.value[0]?.id ?? null;
    // The shown actor changed (the camera document is active): the preview shows the new one's model.
    const shown = partOf(shownActorId.value);
    if (gone.kind === 'actor' && active.value?.kind === 'camera' && shown) showModelOf(shown);
  }

  /**
   * What a scene step names its part by in the undo and redo menus: the actor's label, else "#n"; the camera
   * document's file name; a document whose adding was undone, the name it had.
   */
  function partName(id: number): string {
    const e = partOf(id);
    if (!e) return takenOut.get(id)?.name ?? '';
    return actorLabel(e) || (e.kind === 'actor' ? `#${actors.value.indexOf(e) + 1}` : stateOf(e).fileName);
  }
  // The workspace's messages name documents as their tabs do.
  ws.attachNames((id) => partName(id) || (ws.get(id)?.fileName ?? ''));

  /** The follow as the scene file stores it (the actor by its index among `list`), or none (its actor is out of the scene). */
  function followOut(list: readonly SceneEntry[]): Scene['cameraFollow'] {
    const out: CameraFollowSpan[] = [];
    for (const s of followSpans.value) {
      const i = list.findIndex((e) => e.id === s.actorId);
      if (i >= 0) out.push({ from: s.from, to: s.to, actor: i, bone: s.bone, ...(s.extra ? { extra: s.extra } : {}) });
    }
    return out.length ? out : undefined;
  }

  /**
   * The follow of a scene just opened: its actor's document id, when the actor is there and its model has the bone
   * (read from the model's bytes the open read, or the built-in figure's bones). Otherwise none, and a notice names
   * what is gone: the camera then plays as its keys say. A model that could not be read keeps the follow (its actor
   * shows the figure; the scene still names both).
   */
  function followOnOpen(scene: Scene, ids: readonly number[], models: readonly (IpcResult<OpenedFile> | null)[]): FollowSpan[] {
    const out: FollowSpan[] = [];
    for (const f of scene.cameraFollow ?? []) {
      const s = spanOnOpen(scene, f, ids, models);
      if (s) out.push(s);
    }
    return out;
  }

  function spanOnOpen(scene: Scene, f: CameraFollowSpan, ids: readonly number[], models: readonly (IpcResult<OpenedFile> | null)[]): FollowSpan | null {
    const a = scene.actors[f.actor];
    if (!a) {
      useNotifyStore().warning({ key: 'scene.followActorGone', params: { n: f.actor + 1, bone: f.bone } });
      return null;
    }
    const m = models[f.actor];
    let bones: readonly { name: string }[] | null = null;
    if (!a.model) bones = defaultFigureBones();
    else if (m && m.ok) {
      const read = readModel(m.value.bytes);
      bones = read.ok ? read.value.bones : null;
    }
    if (bones && !bones.some((b) => matchKey(b.name) === matchKey(f.bone))) {
      useNotifyStore().warning({ key: 'scene.followBoneGone', params: { bone: f.bone, model: a.model ? basenamePath(a.model) : { key: 'scene.figure' } } });
      return null;
    }
    return { actorId: ids[f.actor], bone: f.bone, from: f.from, to: f.to, ...(f.extra ? { extra: f.extra } : {}) };
  }

  /**
   * Camera follows a bone (the Stage panel's camera row): `next` (an actor's id and a bone) or null for none, as one
   * undo step, "camera follow" (its undo puts the previous follow back). False when nothing changes or the scene
   * has no camera document.
   */
  function setCameraFollow(next: { actorId: number; bone: string } | null): boolean {
    return setFollowSpans(next ? [{ actorId: next.actorId, bone: next.bone, from: 0, to: null }] : []);
  }

  /**
   * The follow's spans (nufollow §2: the follow over stretches of frames; the panel's From/To, + and −), as one
   * undo step "camera follow", kept in frame order. False when nothing changes or the scene has no camera document.
   */
  function setFollowSpans(next: readonly FollowSpan[]): boolean {
    const cam = cameraEntry.value;
    const before = followSpans.value;
    const after = next.map((s) => ({ ...s })).sort((a, b) => a.from - b.from);
    if (!cam || JSON.stringify(before) === JSON.stringify(after)) return false;
    return ws.commitScene({
      label: 'camera follow',
      part: cam.id,
      put: (way) => {
        followSpans.value = way === 'undo' ? before : after;
      },
    });
  }

  /**
   * "Use the baked camera and turn the follow off" (the bake's notice, nufollow §3): the camera document becomes
   * the baked file (`content`: its keys, path and name; Save then writes there, not over the camera it was baked
   * from) and the follow goes, as one undo step "use baked camera FILE" (undo gives back the camera document as it
   * was and the follow). The follow must go with it: the baked targets already hold the bone, so with the follow
   * on the bone counts twice. False when the scene has no camera document or `content` no file.
   */
  function useBakedCamera(content: DocumentContent): boolean {
    const cam = cameraEntry.value;
    if (!cam || !content.path) return false;
    activate(cam.id);
    if (ws.activeId !== cam.id) return false;
    const follow = followSpans.value;
    const missing = cam.missing;
    return ws.relinkStep(cam.id, content, `use baked camera ${content.fileName}`, (way) => {
      followSpans.value = way === 'undo' ? follow : [];
      const p = partOf(cam.id);
      if (p) p.missing = way === 'undo' ? missing : undefined;
    });
  }

  /**
   * Staging (editor/StagePanel.vue): puts actor `id` where `stage` says (absent, or at the origin: the origin,
   * and nothing is written for it) as one undo step, "staging", through the workspace's history (undo puts the
   * exact previous stage back). `from`: where the actor stood when the gesture began (a spinner held down,
   * placed live with `placeStage` until now), so the whole gesture is the one step. False when nothing
   * changes or `id` is not an actor.
   */
  function setStage(id: number, stage: ActorStage | undefined, from?: { stage: ActorStage | undefined }): boolean {
    const e = partOf(id);
    if (e?.kind !== 'actor') return false;
    const before = copyStage(from ? from.stage : e.stage);
    const after = stageOrNone(stage);
    if (JSON.stringify(before ?? null) === JSON.stringify(after ?? null)) {
      e.stage = after;
      return false;
    }
    return ws.commitScene({
      label: 'staging',
      part: id,
      put: (way) => {
        const p = partOf(id);
        // A copy each time: the step's own values stay as they were whatever later edits do to the entry.
        if (p) p.stage = copyStage(way === 'undo' ? before : after);
      },
    });
  }

  /**
   * A gesture's live value (StagePanel: a spinner held down): the actor stands there now, with no undo step;
   * `setStage(id, stage, { stage: where it stood before })` ends the gesture as one step.
   */
  function placeStage(id: number, stage: ActorStage | undefined) {
    const e = partOf(id);
    if (e?.kind === 'actor') e.stage = stageOrNone(stage);
  }

  /**
   * The actor's outline width as a factor of its model's (PreviewPane, beside Outline; MMD's model edge size ×
   * each material's, as nanoem and MikuMikuMoving let it be scaled per model), EDGE_WIDTH_MIN–EDGE_WIDTH_MAX, as one
   * undo step, "outline width": scene content, as the stage is (saved in the scene file, counted as unsaved). 1 is
   * the model's own width and writes nothing. False when nothing changes or `id` is not an actor.
   */
  function setEdgeWidth(id: number, width: number): boolean {
    const e = partOf(id);
    if (e?.kind !== 'actor' || !Number.isFinite(width)) return false;
    const w = Math.min(EDGE_WIDTH_MAX, Math.max(EDGE_WIDTH_MIN, width));
    const before = e.edgeWidth;
    const after = w === 1 ? undefined : w;
    if (before === after) return false;
    return ws.commitScene({
      label: 'outline width',
      part: id,
      put: (way) => {
        const p = partOf(id);
        if (p?.kind === 'actor') p.edgeWidth = way === 'undo' ? before : after;
      },
    });
  }

  /**
   * Hides or shows an actor's model in the preview (its motion still plays), as one undo step, "hide actor" or
   * "show actor": a hidden actor is scene content (saved in the scene file, counted as unsaved), so Ctrl+Z after
   * the eye brings the model back rather than undoing the edit before it. False when nothing changes.
   */
  function setHidden(id: number, hidden: boolean): boolean {
    const e = partOf(id);
    if (e?.kind !== 'actor' || !!e.hidden === hidden) return false;
    return ws.commitScene({
      label: hidden ? 'hide actor' : 'show actor',
      part: id,
      put: (way) => {
        const p = partOf(id);
        if (p?.kind === 'actor') p.hidden = way === 'undo' ? !hidden : hidden;
      },
    });
  }

  /**
   * Open of a scene file: its documents replace every open one (the history starts empty), its music
   * replaces the previous music (none: the previous goes). Returns false when the scene itself could not be
   * read (its files are reported one by one).
   */
  async function openScene(p: string, how: { reload?: boolean } = {}): Promise<boolean> {
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
    // The scene replaces every document: unsaved ones are not dropped without asking (a file that does not
    // read as a scene replaces nothing, so it is not asked about). A reload was asked already (reloadScene).
    if (!how.reload && !(await confirmReplace(r.value.path))) return false;
    // Its files not where it names them but found beside it (main found them) open from there, and are said.
    const scene = openWithLocated(parsed.value, r.value.path, r.value.located);
    await openLayout(scene, r.value.path, r.value.stamp ?? null, null);
    if (how.reload) useNotifyStore().success({ key: 'scene.sceneReloaded', params: { name: r.value.name } });
    else openedNotice(r.value.name);
    return true;
  }

  /**
   * Recover of a scene's layout copy (shell/recovery.ts; stores/autosave.ts keeps it with recoveryLayout): the scene
   * opens as it was, its actors on their models, the camera, the music and its offset, and each document that had
   * a recovery copy (`given`, by actor index, the camera after the actors) from that copy, unsaved; the others are
   * read from their files. `scenePath` is its scene file (Save Scene writes there after the usual check against
   * `stamp`), or null for an untitled scene. The scene counts as unsaved until Save Scene writes it. False when the
   * person kept what the window holds (asked as an open asks).
   */
  async function openRecovered(scene: Scene, scenePath: string | null, stamp: FileStamp | null, given: ReadonlyMap<number, DocumentContent>): Promise<boolean> {
    if (!(await confirmReplace(scenePath ?? useSettingsStore().t('scene.untitled')))) return false;
    await openLayout(scene, scenePath, stamp, given);
    recovered.value = scenePath !== null;
    return true;
  }

  /** Opens `scene` (read from `scenePath`, null for none): its documents read, or taken from `given` (unsaved). */
  async function openLayout(scene: Scene, scenePath: string | null, stamp: FileStamp | null, given: ReadonlyMap<number, DocumentContent> | null): Promise<void> {
    const api = useApi();
    const notify = useNotifyStore();
    const readOrGiven = (i: number, p: string | null) => {
      const g = given?.get(i);
      if (g) return Promise.resolve({ ok: true as const, value: g });
      return p ? ws.read(p, FOR_SCENE) : Promise.resolve(null);
    };
    // Every file the scene names that could not be read, in scene order (each actor's model and motion, the
    // camera, the song), said in one notice at the end (missingNotice). The detail: a missing file's path; a
    // network or device path, refused by its code's line in the language in force (with the path it names);
    // anything else, main's message.
    const lost: { ref: SceneFileRef; detail: NoticeText }[] = [];
    const problem = (ref: SceneFileRef, error: { code: string; message: string }) =>
      lost.push({ ref, detail: error.code === 'E_IO_NOT_FOUND' ? ref.path : error.code === 'E_IO_REMOTE' ? [{ key: 'err.E_IO_REMOTE' }, ref.path] : error.message });
    // Every motion, every actor's model and the camera, all at once; one that fails is named and the rest opens.
    // Every model is read, not only the shown actor's: a friend's scene with three models missing names all three
    // at open, and an actor whose model is missing shows the figure when its tab is chosen, never the model shown
    // before it (the preview keeps its model when a read fails).
    const [reads, models] = await Promise.all([
      // Read for the scene, not opened by the person: they stay off Open Recent, which the scene heads.
      Promise.all([...scene.actors.map((a, i) => readOrGiven(i, a.motion)), readOrGiven(scene.actors.length, scene.camera)]),
      Promise.all(scene.actors.map((a) => (a.model && !usePreviewStore().droppedBytes(a.model) ? api.readModelFile(a.model) : Promise.resolve(null)))),
    ]);
    // The preview builds the drawn actors from these reads instead of reading each model again (model-reads.ts).
    dropModelReads();
    scene.actors.forEach((a, i) => {
      const m = models[i];
      if (a.model && m && !a.hidden) holdModelRead(a.model, m);
    });
    // A file that did not decode is reported with the codec's error (naming it); one that could not be read by its role.
    const reported = (ref: SceneFileRef, rd: Awaited<ReturnType<typeof ws.read>> | null) => {
      if (!rd || rd.ok) return;
      if (rd.stage === 'decode') notify.error(rd.error);
      else problem(ref, rd.error);
    };
    // An actor without a readable motion shows an empty one (a timeline to key, the music row above it):
    // one empty document for all of them, not one built per actor, so such an actor costs nothing to open.
    // Documents are values (an edit installs a new one), so the first edit of one is that actor's alone.
    let blank: DocumentContent | null = null;
    const contentOf = (rd: Awaited<ReturnType<typeof ws.read>> | null) => (rd && rd.ok ? rd.value : (blank ??= documentContent(emptyVmd())));
    const kept: { kind: ScenePart['kind']; actor: Partial<SceneActor>; missing?: string; content: DocumentContent }[] = [];
    // One file, one owner: a motion the file names for an earlier actor too is a copy here, with no file
    // (Save asks for its name), so Save All never writes one file twice.
    const copies: { index: number; first: number; file: string }[] = [];
    scene.actors.forEach((a, i) => {
      const m = models[i];
      if (m && !m.ok) problem({ role: 'model', actor: i, path: a.model! }, m.error);
      const rd = reads[i];
      reported({ role: 'motion', actor: i, path: a.motion! }, rd);
      let content = contentOf(rd);
      // By the file each path reaches (a link and its target are one file: main's realPath).
      const mine = content.realPath ?? content.path;
      const first = mine ? kept.findIndex((k) => (k.content.realPath ?? k.content.path) && samePath((k.content.realPath ?? k.content.path)!, mine)) : -1;
      if (first >= 0) {
        copies.push({ index: i, first, file: content.fileName });
        content = { ...content, path: null };
      }
      kept.push({ kind: 'actor', actor: a, missing: rd && !rd.ok ? a.motion! : undefined, content });
    });
    const camRead = reads[scene.actors.length];
    if (scene.camera || given?.has(scene.actors.length)) {
      if (scene.camera) reported({ role: 'camera', path: scene.camera }, camRead);
      // A camera file that cannot be read leaves an empty camera document (with MMD's camera name, as + New camera).
      const content = camRead && camRead.ok ? camRead.value : documentContent(emptyCameraVmd());
      kept.push({ kind: 'camera', actor: {}, missing: camRead && !camRead.ok ? (scene.camera ?? undefined) : undefined, content });
    }
    const activeIndex = Math.min(scene.activeActor, Math.max(scene.actors.length - 1, 0));
    // Entries first (none), so the switch to the first document finds no previous scene's actor.
    entries.value = [];
    lastActorId.value = null;
    const ids = ws.open(
      kept.map((k) => k.content),
      activeIndex,
    );
    entries.value = kept.map((k, i) => {
      const e = newEntry(ids[i], k.kind, k.actor);
      if (k.missing) e.missing = k.missing;
      const m = k.kind === 'actor' ? models[i] : null;
      if (m && !m.ok) e.missingModel = true;
      return e;
    });
    for (const c of copies) {
      ws.markUnsaved(ids[c.index]);
      notify.warning({ key: 'scene.sharedMotion', params: { file: c.file, first: partName(ids[c.first]), copy: partName(ids[c.index]) } });
    }
    // A recovered document is unsaved (its copy holds what its file does not).
    for (const i of given?.keys() ?? []) if (ids[i] !== undefined) ws.markUnsaved(ids[i]);
    path.value = scenePath;
    fileStamp = stamp;
    savedTo = null;
    recovered.value = false;
    base = scene;
    missingAudio.value = false;
    followSpans.value = followOnOpen(scene, ids, models);
    const act = active.value;
    if (act?.kind === 'actor') lastActorId.value = act.id;
    // The active actor's model (the preview shows one model; a missing one leaves the figure, never the
    // previous scene's model), then the music.
    if (act?.kind === 'actor' && act.model && !act.missingModel) {
      const m = models[activeIndex];
      usePreviewStore().requestModel({ path: m && m.ok ? m.value.path : act.model });
    } else if (act?.kind === 'actor' && usePreviewStore().model) usePreviewStore().requestFigure();
    const music = useMusicStore();
    // The previous scene's music goes whatever this scene names (a song that cannot be read leaves none).
    if (music.loaded) music.unload();
    music.missingSong = null;
    // Offset, volume and mute are this scene's, also when it has no song or names one that cannot be read.
    music.setOffset(scene.audio?.offsetFrames ?? 0);
    music.setVolume(scene.audio?.volume ?? 1);
    music.setMuted(scene.audio?.muted ?? false);
    // Beat markers show as the scene left them (off when it keeps no grid; its grid turns them on below): a
    // detection started by markers left on from the previous scene would change this one's content as it opens.
    music.setBeatsOn(false);
    // An offset the scene kept with no song: the song picked next takes it.
    music.holdOffset(scene.audio !== null && scene.audio.path === null);
    if (scene.audio?.path) {
      const a = await api.readAudioFile(scene.audio.path);
      if (!a.ok) {
        problem({ role: 'audio', path: scene.audio.path }, a.error);
        missingAudio.value = true;
      } else if (await music.loadBytes(a.value.name, a.value.bytes, a.value.path)) {
        music.setOffset(scene.audio.offsetFrames);
        music.setVolume(scene.audio.volume);
        music.setMuted(scene.audio.muted);
        // The tempo typed with BPM… (or found by Beats) is the scene's: it comes back without detecting again.
        const b = scene.audio.beats;
        if (b) music.restoreBeatGrid(b.bpm, b.firstBeat, b.shown);
      } else missingAudio.value = true;
      // The song picked next (moved or renamed) stands in for it, with the scene's offset, volume and mute.
      if (missingAudio.value) music.missingSong = basenamePath(scene.audio.path);
    }
    missingNotice(lost, ids, scene.actors.length);
    const frame = scene.view.frame;
    if (typeof frame === 'number') useTimeStore().seek(frame);
    // The scene's output aspect is the preview's (looking through the camera letterboxes to it).
    pickedAspect.value = `${scene.aspect.width}:${scene.aspect.height}`;
    // What the window now holds of the file is the saved state (a missing song or model stays as read).
    savedSignature.value = signature();
    fileGone.value = false;
    // Actors placed apart (a group at X −15…15) stood outside the view it opened with: the view takes them all in
    // (only when one is outside it; scene-actors.ts frameActors).
    if (actors.value.length > 1) usePreviewStore().requestFrameAll('open');
    const settings = useSettingsStore();
    void settings.refreshRecent();
    const dir = scenePath ? dirnamePath(scenePath) : '';
    if (dir && dir !== settings.settings.lastDirectory) void settings.update({ lastDirectory: dir });
  }

  /** The version of the open scene file as read or last written (shell/disk-watch.ts compares it with the disk). */
  function sceneFileStamp(): FileStamp | null {
    return path.value ? fileStamp : null;
  }

  /** The open scene file was found gone from disk: the scene is unsaved until written again (fileGone). */
  function markSceneFileGone(): void {
    if (path.value) fileGone.value = true;
  }

  /**
   * Reload of the open scene file, which another program changed (shell/disk-watch.ts asked first, saying the
   * scene's unsaved changes go): it opens again as the file is now, every document read again. False when it
   * could not be read (said; the scene open stays).
   */
  async function reloadScene(): Promise<boolean> {
    return path.value ? openScene(path.value, { reload: true }) : false;
  }

  /** The notice listing the files the open scene names but could not read (missingNotice), while it is up. */
  let missingNoticeId: number | null = null;
  /**
   * Every file the open scene named but could not read, with the document it belongs to (null: the song): the
   * notice follows them. A relink (Load onto, Use as the camera, Model…, ♪ Music…) takes one off it, and its undo
   * puts it back, so the notice says what is missing now, not what was missing at open.
   */
  const lostParts = shallowRef<{ ref: SceneFileRef; detail: NoticeText; id: number | null }[]>([]);
  /** The lost files still missing: the part still there and still marked missing (the song: none picked since). */
  const stillLost = computed(() =>
    lostParts.value.filter((l) => {
      if (l.ref.role === 'audio') return missingAudio.value;
      const e = partOf(l.id);
      if (!e) return false;
      return l.ref.role === 'model' ? e.kind === 'actor' && !!e.missingModel : e.missing === l.ref.path;
    }),
  );
  /** The files the notice up now (or dismissed by the person) names. */
  let said: readonly (typeof lostParts.value)[number][] = [];
  function dropMissingNotice() {
    if (missingNoticeId !== null) useNotifyStore().dismiss(missingNoticeId);
    missingNoticeId = null;
    lostParts.value = [];
    said = [];
  }
  // The notice follows what is missing: every file relinked, it goes (it stayed up over "matcap_sample now uses
  // idle.vmd", as if something were still missing); one relinked, it names the rest; a relink undone, the file is
  // missing again and the notice says so again (it stayed gone while the tab read "(missing)" once more), also when
  // the person had closed it. Closed by the person and only shrinking: it stays closed.
  watch(stillLost, (now) => {
    if (now.length === said.length && now.every((l, i) => l === said[i])) return;
    const notify = useNotifyStore();
    const up = missingNoticeId !== null && notify.items.some((n) => n.id === missingNoticeId);
    const back = now.some((l) => !said.includes(l));
    said = now;
    if (missingNoticeId !== null) notify.dismiss(missingNoticeId);
    missingNoticeId = null;
    if (now.length && (up || back)) sayMissing(now);
  });

  /**
   * One notice for every file a scene names that could not be read ("Not found: walk.vmd (actor 3 motion)", or
   * for several "Not found: 8 files the scene names; the rest of the scene opened: Gene_light.pmx (actor 1 model)
   * · …", the paths below), then how to relink each kind missing (a motion: Open… and Load onto the actor; a
   * model: Model…; the music: ♪ Music…): it stays until dismissed (a friend's unzipped scene is checked against it, file by
   * file; the notices one per file faded in 8 s, three shown at most), and goes when another scene or file
   * replaces this one. A long list folds behind the notice's More. `ids`: the open scene's documents, in its order.
   */
  function missingNotice(lost: { ref: SceneFileRef; detail: NoticeText }[], ids: readonly number[], actorCount: number) {
    dropMissingNotice();
    if (!lost.length) return;
    lostParts.value = lost.map((l) => ({ ...l, id: l.ref.role === 'audio' ? null : l.ref.role === 'camera' ? (ids[actorCount] ?? null) : (ids[l.ref.actor ?? -1] ?? null) }));
    said = stillLost.value;
    sayMissing(lostParts.value);
  }

  function sayMissing(lost: readonly { ref: SceneFileRef; detail: NoticeText }[]) {
    const item = (l: (typeof lost)[number]): NoticeText => ({ key: 'scene.missingItem', params: { name: basenamePath(l.ref.path), role: sceneRoleNotice(l.ref) } });
    const missing: NoticeText =
      lost.length === 1
        ? { key: 'scene.missingFile', params: { name: basenamePath(lost[0].ref.path), role: sceneRoleNotice(lost[0].ref) } }
        : { key: 'scene.missingFiles', params: { n: lost.length, list: lost.map(item) } };
    // The next step, for each kind of file missing (the relinks exist: Load onto the actor, Model…, ♪ Music…).
    const roles = new Set(lost.map((l) => l.ref.role));
    const steps: NoticeText[] = [];
    if (roles.has('motion')) steps.push({ key: 'scene.relinkMotion' });
    if (roles.has('camera')) steps.push({ key: 'scene.relinkCamera' });
    if (roles.has('model')) steps.push({ key: 'scene.relinkModel' });
    if (roles.has('audio')) steps.push({ key: 'scene.relinkAudio' });
    const joined = steps.reduce((a, b) => ({ key: 'scene.relinkAnd', params: { a, b } }));
    const text: NoticeText = { key: 'scene.missingRelink', params: { missing, how: { key: 'scene.relinkHow', params: { steps: joined } } } };
    missingNoticeId = useNotifyStore().push('warning', text, lost.map((l) => l.detail), 0);
  }

  /**
   * "Opened …": and, while the preview shows a camera VMD loaded with Camera… (it stays, and wins over the new
   * file's camera: use-preview.ts syncMotion), which one, so a pose seen through a dance's camera is explained.
   */
  function openedNotice(name: string): void {
    // Not when the scene has a camera document now: the reference then goes (use-preview.ts), and says so.
    const camera = cameraEntry.value ? null : usePreviewStore().cameraFile;
    if (camera) useNotifyStore().success({ key: 'notify.openedKeepsCamera', params: { name, camera } });
    else useNotifyStore().success({ key: 'notify.opened', params: { name } });
  }

  /** The window as a scene: every actor (model, motion file, hidden), the camera document, the music, the frame. */
  function current(withFrame = true): Scene {
    const music = useMusicStore();
    const list = actors.value;
    const out: SceneActor[] = list.map((e) => {
      const a: SceneActor = { model: e.model, motion: e.path ?? e.missing ?? null, hidden: e.hidden };
      // The name the file gave it stays with the actor (worked-out names are not written).
      if (e.name) a.name = e.name;
      if (e.extra) a.extra = e.extra;
      if (e.stage) a.stage = e.stage;
      if (e.edgeWidth !== undefined) a.edgeWidth = e.edgeWidth;
      return a;
    });
    const activeActor = Math.max(0, list.findIndex((e) => e.id === shownActorId.value));
    const cam = cameraEntry.value;
    const a = parseAspect(outputAspect.value.text);
    // A song dropped on a browser's window is known by its name alone (as a dropped model): Save Scene leaves it
    // out and says so (saveTo), never writing the old song's path as if it were the one playing.
    const song = music.loaded ? (music.path ?? music.name) : null;
    const grid = music.beatState === 'ready' ? music.beatGrid : null;
    // An offset with no song loaded (the song removed after the offset was set, or a scene that kept one so) is kept
    // for the song picked next (stores/music.ts holdOffset): before, close and Save Scene lost it.
    const audio = song !== null
      ? { ...base.audio, path: song, offsetFrames: music.offsetFrames, volume: music.volume, muted: music.muted, beats: grid ? { bpm: grid.bpm, firstBeat: grid.firstBeat, shown: music.beatsOn } : undefined }
      : missingAudio.value
        ? base.audio
        : music.offsetFrames !== 0
          ? { ...base.audio, path: null, offsetFrames: music.offsetFrames, volume: music.volume, muted: music.muted, beats: undefined }
          : null;
    return {
      ...base,
      aspect: a ? { width: a.width, height: a.height } : base.aspect,
      actors: out,
      activeActor,
      camera: cam ? (cam.path ?? cam.missing ?? null) : null,
      cameraFollow: followOut(list),
      audio,
      view: withFrame ? { ...base.view, frame: Math.round(useTimeStore().frame) } : base.view,
    };
  }

  /**
   * Scene `scene` as Save Scene writes it: a model dropped on a browser's window is known by its name alone, which the
   * file would take for a file beside the scene (paths are stored relative to it), so its actor is written on the
   * built-in figure; a song dropped so is left out (saveTo's notices say both).
   */
  function asWritten(scene: Scene): { written: Scene; dropped: string[]; droppedSong: string | null } {
    const preview = usePreviewStore();
    const dropped = [...new Set(scene.actors.map((a) => a.model).filter((m): m is string => m !== null && preview.droppedBytes(m) !== null))];
    let written = dropped.length ? { ...scene, actors: scene.actors.map((a) => (a.model !== null && dropped.includes(a.model) ? { ...a, model: null } : a)) } : scene;
    const music = useMusicStore();
    const droppedSong = music.loaded && !music.path ? music.name : null;
    if (droppedSong !== null) written = { ...written, audio: null };
    return { written, dropped, droppedSong };
  }

  /**
   * The scene's layout for autosave's recovery copy (stores/autosave.ts): null unless the window is a scene (a scene
   * file, or an untitled scene) with something unsaved. Its bytes are Save Scene's (asWritten, sceneBytes) over the
   * scene's file (an untitled scene: RECOVERY_UNTITLED_SCENE, a name with no folder, so every path is written whole),
   * except that an actor, or the camera, whose document is edited or was never saved names that document's recovery
   * copy (RECOVERY_COPY_FIELD, CAMERA_RECOVERY_COPY_FIELD: its id) in place of a path; `pointed` lists those
   * documents. `key`: the layout less the frame (a new copy is due when it changes); `bytes` is made when asked.
   */
  function recoveryLayout(): RecoveryLayout | null {
    if ((path.value === null && !untitled.value) || !anyDirty.value) return null;
    const points = (e: SceneEntry) => e.dirty || (e.path === null && !e.missing);
    const withPointers = (scene: Scene): Scene => {
      const list = actors.value;
      const cam = cameraEntry.value;
      const extra: Record<string, unknown> = { ...scene.extra };
      delete extra[CAMERA_RECOVERY_COPY_FIELD];
      if (cam && points(cam)) extra[CAMERA_RECOVERY_COPY_FIELD] = String(cam.id);
      const out: Scene = {
        ...scene,
        actors: scene.actors.map((a, i) => {
          const e = list[i];
          return e && points(e) ? { ...a, motion: null, extra: { ...a.extra, [RECOVERY_COPY_FIELD]: String(e.id) } } : a;
        }),
        camera: cam && points(cam) ? null : scene.camera,
      };
      if (Object.keys(extra).length) out.extra = extra;
      else delete out.extra;
      return asWritten(out).written;
    };
    const scenePath = path.value;
    const target = scenePath ?? RECOVERY_UNTITLED_SCENE;
    return {
      key: JSON.stringify(withPointers(current(false))) + (scenePath ?? ''),
      pointed: entries.value.filter(points).map((e) => e.id),
      path: scenePath,
      name: scenePath ? basenamePath(scenePath) : RECOVERY_UNTITLED_SCENE,
      actors: actors.value.length,
      stamp: scenePath ? fileStamp : null,
      bytes: () => sceneBytes(withPointers(current()), target),
    };
  }

  /** Writes the window as a scene file at `target` (absolute); the documents themselves are saved by Save / Save All. */
  async function saveTo(target: string, overwrite: boolean): Promise<boolean> {
    const scene = current();
    const { written, dropped, droppedSong } = asWritten(scene);
    const bytes = sceneBytes(written, target);
    const o: SaveOptions = { overwrite, backup: savedTo !== target };
    if (fileStamp && path.value === target) o.expect = fileStamp;
    let r = await useApi().saveScene(target, bytes, o);
    if (!r.ok) {
      // Changed by another program, read-only, in a folder that cannot be written or is gone: asked, as a document's save.
      const refused = r.error;
      const answer = await askAboutRefusedSave(refused, target);
      if (answer === 'cancel') return false;
      if (answer === 'saveAs') {
        const picked = await pickElsewhere(target, 'scene');
        return picked ? saveTo(picked.path, picked.overwrite) : false;
      }
      if (answer === 'overwrite') r = await useApi().saveScene(target, bytes, { ...o, replaceChanged: true });
      if (answer === 'makeFolder') {
        const made = await useApi().createFolder(missingFolder(refused, target));
        r = made.ok ? await useApi().saveScene(target, bytes, o) : { ok: false, error: made.error };
      }
      if (!r.ok) {
        useNotifyStore().error(r.error);
        return false;
      }
    }
    base = scene;
    path.value = r.value.path;
    fileStamp = r.value.stamp ?? null;
    savedTo = target;
    // The version written, not the scene as it is now: a change made while the write was on its way is not in
    // the file, and stays unsaved.
    savedSignature.value = signatureOf(scene);
    fileGone.value = false;
    recovered.value = false;
    void useSettingsStore().refreshRecent();
    const sceneName = basenamePath(r.value.path);
    useNotifyStore().success(
      r.value.replacedChanged && r.value.backupPath
        ? { key: 'notify.savedOverChanged', params: { name: sceneName, backup: basenamePath(r.value.backupPath) } }
        : { key: 'notify.saved', params: { name: sceneName } },
    );
    // Documents the written file could not name (never saved): the file lists every other.
    const left = scene.actors.filter((x) => !x.motion).length + (cameraEntry.value && !scene.camera ? 1 : 0);
    if (left) useNotifyStore().warning({ key: 'scene.notInScene', params: { n: left } });
    if (dropped.length) useNotifyStore().warning({ key: 'scene.droppedModel', params: { names: dropped.join(', ') } });
    if (droppedSong !== null) useNotifyStore().warning({ key: 'scene.droppedMusic', params: { name: droppedSong } });
    return true;
  }

  /**
   * Save of every unsaved document over its own file (as Save: a .bak of the old one on the first save after each
   * open, and a file changed on disk by another program asked about). Documents
   * never saved, or fitted to another model since (workspace newFileFor), are returned for the caller to ask a name for (Save As); false in `ok` when a write failed (its
   * notice names the file).
   */
  async function saveDocuments(): Promise<{ ok: boolean; needsName: number[] }> {
    const needsName: number[] = [];
    let ok = true;
    // One file, one owner: a file two documents have (and one of them to save) is written by neither, and
    // said naming both; the rest is saved.
    const twice = new Set<number>();
    for (const e of entries.value) {
      if (!e.dirty || !e.path) continue;
      // The same file by two paths (a link and its target) is one file too.
      const other = entries.value.find((o) => o.id !== e.id && o.path && ws.ownerOf(e.path!, e.id, ws.get(e.id)?.realPath ?? null)?.id === o.id);
      if (!other || twice.has(e.id)) continue;
      twice.add(e.id).add(other.id);
      useNotifyStore().warning({ key: 'scene.saveTwice', params: { file: basenamePath(e.path), first: partName(e.id), second: partName(other.id) } });
      ok = false;
    }
    for (const e of entries.value) {
      if (!e.dirty || twice.has(e.id)) continue;
      // Never saved, or fitted to another model since (a new file is asked for: workspace newFileFor).
      if (!e.path || ws.newFileFor(e.id)) {
        needsName.push(e.id);
        continue;
      }
      ok = (await ws.save(e.id)) && ok;
    }
    return { ok, needsName };
  }

  /**
   * Save All: every unsaved document over its own file, then the scene file when the window has one.
   * Documents never saved are returned for the caller to ask a name for (Save As).
   */
  async function saveAll(): Promise<{ ok: boolean; needsName: number[] }> {
    const r = await saveDocuments();
    let ok = r.ok;
    if (path.value && ok) ok = await saveTo(path.value, true);
    return { ok, needsName: r.needsName };
  }

  /**
   * What the window title (shared windowTitle) and the close prompt show: a lone motion by its own name (*
   * when unsaved); a scene as "scene.vmdscene * — dance.vmd", the * after the scene when any of its documents
   * or its own content is unsaved, and after the active document when that one itself is (its tab's ●).
   */
  function windowState(): DocumentState {
    void ws.version;
    // A camera or light motion active: the native menu turns its exports off (as MenuBar's are).
    const counts = ws.active?.info.counts;
    const kind = counts ? stageMotionKind(counts) : null;
    const stage = { ...(kind ? { stageMotion: kind } : {}), ...(jobBusy.value ? { busy: true } : {}) };
    const own: DocumentState = { path: ws.path, name: ws.isOpen ? ws.fileName : null, dirty: ws.dirty, ...stage };
    if (!path.value && !untitled.value) return own;
    const sceneName = path.value ? basenamePath(path.value) : useSettingsStore().t('scene.untitled');
    return { path: path.value ?? own.path, name: own.name, dirty: anyDirty.value, unsaved: unsavedNames.value, scene: sceneName, nameDirty: own.dirty, ...stage };
  }

  /** A job runs in the window (shell/job-guard.ts reportJobs): main asks before closing it (DocumentState.busy). */
  const jobBusy = ref(false);
  function setJobBusy(busy: boolean) {
    jobBusy.value = busy;
  }

  /** The state last sent to the main process: edits after the first leave it unchanged. */
  let reported = '';
  function reportState(state: DocumentState) {
    const shown = windowTitle(state, 'VMD Studio');
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
  // The window's title and the main process follow the documents and the scene (its close prompt names them).
  watch(windowState, reportState, { flush: 'sync' });

  return {
    path,
    closeScene,
    outputAspect,
    setOutputAspect,
    entries,
    activeId,
    lastActorId,
    shownActorId,
    actors,
    cameraEntry,
    active,
    anyDirty,
    sceneChanged,
    untitled,
    unsavedNames,
    unsavedItems,
    sceneChangeText,
    saveStatus,
    confirmReplace,
    askReplace,
    showOwner,
    addCopy,
    ownerText,
    addContent,
    loadOnto,
    relinkable,
    sceneFileStamp,
    markSceneFileGone,
    reloadScene,
    relink,
    reload,
    attachSaveAll,
    stateOf,
    docName,
    actorLabel,
    activate,
    addDocument,
    addRead,
    addImported,
    attachFootprints,
    addCamera,
    documentForKinds,
    setHidden,
    cameraFollow,
    followSpans,
    setCameraFollow,
    setFollowSpans,
    useBakedCamera,
    partName,
    setStage,
    placeStage,
    setEdgeWidth,
    setJobBusy,
    removeEntry,
    openPath,
    openRead,
    openBytes,
    newMotion,
    current,
    recoveryLayout,
    openRecovered,
    saveTo,
    saveDocuments,
    saveAll,
    windowState,
    sceneLastFrame,
  };
});
