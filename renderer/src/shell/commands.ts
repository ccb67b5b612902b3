/**
 * Every app command in one place: the toolbar, keyboard shortcuts and the native menu (menuCommand
 * events) all end up in `runCommand`. Panels owned by others (curve copy/paste) register handlers
 * with `onCommand`.
 */
import { reactive } from 'vue';
import { useApi } from '../api';
import { useBatchStore } from '../stores/batch';
import { useBakeStore } from '../stores/physics-bake';
import { useIkBakeStore } from '../stores/ik-bake';
import { useConfirmStore } from '../stores/confirm';
import { useAutosaveStore } from '../stores/autosave';
import { useWorkspaceStore } from '../stores/workspace';
import { useHistoryStore } from '../stores/history';
import { useNotifyStore, type NoticeText } from '../stores/notify';
import { useSceneStore } from '../stores/scene';
import { useMergeStore } from '../stores/merge';
import { importMouthTimings } from './mouth-timings';
import { usePreviewStore } from '../stores/preview';
import { useSettingsStore } from '../stores/settings';
import { useSelectionStore } from '../stores/selection';
import { useLayoutStore } from '../stores/layout';
import { basenamePath } from '../../../shared/scene/scene-path';
import { suggestedScenePlace } from '../../../shared/scene/scene-file';
import { loneExtras } from '../../../shared/scene/scene-changes';
import { useTimeStore } from '../stores/time';
import { pickPath } from './file-dialog';
import { folderOf, stemOf } from '../paths';
import { exportCapture, fitMotionToModel, openAny } from '../shell/app-actions';
import { newMotion } from './new-motion';
import { openKindOf } from '../../../shared/ipc/file-types';

export type { CommandId } from './key-names';
import type { CommandId } from './key-names';
import { stageMotionRefusal } from '../../../shared/vmd/inspect';
import { vmdToVpd } from '../../../shared/vmd/convert';
import type { VpdParts, VpdSelection } from '../../../shared/vmd/vpd-parts';
import { askVpdParts, selectedNames, vpdPartsRequest } from './vpd-export';
import { askStopJobForClose, HELD_BY_JOB, refusedWhileJob } from './job-guard';

/** Dialog flags owned by the shell. */
export const shellUi = reactive({ aboutOpen: false, shortcutsOpen: false, startOpen: false });

const extra = new Map<string, Set<() => void>>();

/** Registers a handler for a command (e.g. 'copyCurve'); returns the unregister function. */
export function onCommand(id: CommandId, handler: () => void): () => void {
  let set = extra.get(id);
  if (!set) extra.set(id, (set = new Set()));
  set.add(handler);
  return () => set.delete(handler);
}

function dirOf(p: string | null): string | null {
  return p ? folderOf(p) || null : null;
}

export async function openWithDialog(): Promise<boolean> {
  const s = useSettingsStore();
  // Motions, poses, scenes, and captures (BVH, VRM Animation) to import.
  const picked = await pickPath({ mode: 'open', title: s.t('dialog.openTitle'), filter: 'open' });
  if (!picked) return false;
  // A model's path typed into Open… goes to the preview, as a dropped model does (MMD opens models from its File menu too).
  return openAny({ path: picked.path });
}

/** Scene → Open Scene…: a .vmdscene picked in the open dialog (its motions, models, camera and song). */
export async function openSceneWithDialog(): Promise<boolean> {
  const picked = await pickPath({ mode: 'open', title: useSettingsStore().t('scene.openTitle'), filter: 'scene' });
  if (!picked) return false;
  await useSceneStore().openPath(picked.path);
  return true;
}

let handedOver: Promise<boolean> | null = null;

/**
 * A file the OS or the command line hands over (`fileOpened`: `npm start -- dance.vmd camera.vmd`, a
 * double-click, a second instance, Open Recent of the native menu). The first opens as Open… opens it
 * (openAny: with nothing open it just opens; over an open scene a pose or motion asks whether it goes into it,
 * as Open… and a drop ask); files handed over while it is still opening join it, as a user giving several
 * files at once expects: a camera VMD becomes the scene's camera document, another motion another actor (any
 * other file among them, a scene, a model, a capture, a song, opens as Open… opens it).
 */
export function openHandedOver(p: string): Promise<boolean> {
  const scene = useSceneStore();
  const joins = (opened: boolean) => opened && openKindOf(p) === 'motion';
  const run = handedOver ? handedOver.then((opened) => (joins(opened) ? scene.addDocument(p) : openAny({ path: p }))) : openAny({ path: p });
  const mine: Promise<boolean> = run.finally(() => {
    if (handedOver === mine) handedOver = null;
  });
  handedOver = mine;
  return mine;
}

export async function saveAsWithDialog(): Promise<boolean> {
  const doc = useWorkspaceStore();
  const s = useSettingsStore();
  if (!doc.isOpen) {
    useNotifyStore().info({ key: 'notify.nothingToSave' });
    return false;
  }
  // After a retarget's Apply: a new file beside the original, named after the model (workspace newFileFor).
  const fitted = doc.newFileFor();
  // An actor's motion with no file in a scene of several documents (a copy, a motion whose file was missing):
  // the dialog says whose it is, and a copy starts beside its original with a free name (walk (2).vmd).
  const unfiled = fitted ? null : await unfiledPlace();
  const picked = await pickPath({
    mode: 'save',
    title: unfiled ? unfiled.title : s.t(fitted ? 'retarget.saveAsTitle' : 'dialog.saveTitle'),
    filter: 'motion',
    directory: unfiled ? unfiled.directory : dirOf(doc.path),
    // A never-saved camera document (+ New camera) is proposed as camera.vmd, an actor's motion as motion.vmd.
    fileName: fitted ?? unfiled?.fileName ?? (doc.fileName || (useSceneStore().cameraEntry?.id === doc.activeId ? 'camera.vmd' : 'motion.vmd')),
    // One file, one owner: the file another open document has is refused in the dialog, before "Replace it?".
    refuse: (p) => {
      const other = doc.ownerOf(p, doc.activeId);
      return other ? { key: 'dialog.openElsewhere', params: { file: basenamePath(p), other: useSceneStore().ownerText(other.id) } } : null;
    },
  });
  return picked ? doc.saveAs(picked.path, { overwrite: picked.overwrite }) : false;
}

/**
 * Where Save As proposes the shown actor's motion when it has no file and the scene has other documents (null
 * otherwise): the title names the actor ("Save miku (2)'s motion (a copy of walk.vmd)"); a copy (another
 * document has the file its name comes from) starts in the original's folder with the first free "walk (n).vmd"
 * there (the folder's listing, and the names the open documents hold); a motion whose file was missing, in that
 * file's folder under its name.
 */
async function unfiledPlace(): Promise<{ title: string; directory: string | null; fileName: string } | null> {
  const scene = useSceneStore();
  const ws = useWorkspaceStore();
  const s = useSettingsStore();
  const e = scene.entries.find((x) => x.id === ws.activeId);
  if (!e || e.kind !== 'actor' || ws.path || scene.entries.length < 2) return null;
  const actor = scene.partName(e.id);
  const name = ws.fileName || 'motion.vmd';
  const original = ws.fileName ? scene.entries.find((x) => x.id !== e.id && x.fileName === ws.fileName && x.path) : undefined;
  if (!original?.path) {
    return { title: s.t('dialog.saveActorTitle', { actor }), directory: dirOf(e.missing ?? null), fileName: e.missing ? basenamePath(e.missing) : name };
  }
  const directory = dirOf(original.path);
  const taken = new Set(scene.entries.map((x) => (x.path ? basenamePath(x.path).toLowerCase() : '')));
  if (directory) {
    const r = await useApi().listDirectory(directory);
    if (r.ok) for (const f of r.value.entries) taken.add(f.name.toLowerCase());
  }
  const stem = stemOf(name);
  const ext = name.slice(stem.length) || '.vmd';
  let n = 2;
  while (taken.has(`${stem} (${n})${ext}`.toLowerCase())) n++;
  return { title: s.t('dialog.saveCopyTitle', { actor, file: name }), directory, fileName: `${stem} (${n})${ext}` };
}

/**
 * Save (Ctrl+S, File → Save): what the title's * promises. In a scene (a scene file, or an untitled one) with
 * anything unsaved — a document or the scene file's own content (a stage, the music, an actor added) — that is
 * Save All: the edited documents, then the scene file, as MMD's Ctrl+S saves the project. Else the active
 * document (Save As when it has no file; "no unsaved changes" when it is saved).
 */
export async function saveCommand(): Promise<boolean> {
  const scene = useSceneStore();
  if ((scene.path !== null || scene.untitled) && scene.anyDirty) return saveAllWithDialog();
  return saveOrSaveAs();
}

export async function saveOrSaveAs(): Promise<boolean> {
  const doc = useWorkspaceStore();
  if (!doc.isOpen) {
    useNotifyStore().info({ key: 'notify.nothingToSave' });
    return false;
  }
  // A motion fitted to another model since it was saved is not written over its file: Save As, a new name proposed.
  return doc.path && !doc.newFileFor() ? doc.save() : saveAsWithDialog();
}

/**
 * Save Scene: asks where to write the window as a scene file and writes it. The documents themselves are saved
 * by Save / Save All.
 */
export async function saveSceneWithDialog(why = false): Promise<boolean> {
  const scene = useSceneStore();
  const s = useSettingsStore();
  const place = scene.path ? { fileName: basenamePath(scene.path), directory: dirOf(scene.path) } : untitledScenePlace();
  const picked = await pickPath({ mode: 'save', title: s.t('scene.saveTitle'), filter: 'scene', fileName: place.fileName, directory: place.directory, note: why ? s.t('scene.saveWhy') : undefined });
  return picked ? scene.saveTo(picked.path, picked.overwrite) : false;
}

/**
 * Where Save Scene proposes an untitled scene: the folder holding all its files, named after its song or
 * "scene" (suggestedScenePlace), not the shown dance's folder and name (`motions/walk.vmdscene` put a project
 * file among the motions, named after one actor). Files on different drives, or sharing only a root or the home
 * folder: the shown actor's motion's folder.
 */
function untitledScenePlace(): { fileName: string; directory: string | null } {
  const scene = useSceneStore();
  const ws = useWorkspaceStore();
  // The home folder (or a disk's root) shared only: the shown motion's folder instead (suggestedScenePlace).
  const { directory, fileName } = suggestedScenePlace(scene.current(false), useSettingsStore().appInfo?.homeDir ?? null);
  if (directory !== null) return { fileName, directory };
  const shown = scene.entries.find((e) => e.id === scene.shownActorId) ?? scene.entries[0] ?? null;
  return { fileName, directory: dirOf(shown ? scene.stateOf(shown).path : ws.path) };
}

/**
 * Save All: every unsaved document of the scene over its own file; a document never saved is shown and
 * asked a name for (Save As); then the scene file, asked a name for when the scene has none (an untitled
 * scene: several documents, or a lone actor on the stage), so it names every document.
 */
export async function saveAllWithDialog(): Promise<boolean> {
  const scene = useSceneStore();
  // A lone motion is saved as one; a lone actor placed on the stage is an untitled scene (its stage is kept
  // only in a scene file).
  if (!scene.untitled && !scene.path) return useWorkspaceStore().isOpen ? saveOrSaveAs() : true;
  const r = await scene.saveDocuments();
  let ok = r.ok;
  const unnamed: string[] = [];
  for (const id of r.needsName) {
    scene.activate(id);
    const saved = await saveAsWithDialog();
    if (!saved && !useWorkspaceStore().get(id)?.path) unnamed.push(scene.partName(id));
    ok = saved && ok;
  }
  // A name not given (the dialog cancelled): the scene file is not written either, and the notice says why
  // (before, only the documents saved were said, and the scene kept its * with no word).
  if (unnamed.length) useNotifyStore().warning({ key: 'scene.notSavedNoFile', params: { names: unnamed.join(', '), n: unnamed.length } });
  // The scene's name asked for by Save (Ctrl+S) or Save All: the dialog says why a scene (a beginner who saved
  // the dance and pressed Ctrl+S met "Save scene" for a scene never made).
  if (ok) ok = scene.path ? await scene.saveTo(scene.path, true) : await saveSceneWithDialog(true);
  return ok && !scene.anyDirty;
}

let closing = false;

/**
 * Scene → Close Scene: asks about the unsaved documents and the scene file, as closing the window does
 * (askEachBeforeClose: one question listing them; Cancel, or a Save that did not write, keeps everything); then
 * the window is left empty.
 */
export async function closeSceneAsking(): Promise<boolean> {
  const scene = useSceneStore();
  if (!scene.entries.length && !useWorkspaceStore().isOpen) return false;
  if (!(await askEachBeforeClose())) return false;
  const name = scene.path ? basenamePath(scene.path) : null;
  scene.closeScene();
  if (name) useNotifyStore().info({ key: 'scene.closedNotice', params: { name } });
  return true;
}

/**
 * Clear Recent asks first, naming how many files go (new-user pass nuprefs 10: one click emptied the list for good);
 * the files themselves stay. True when the list was cleared.
 */
export async function clearRecentAsking(): Promise<boolean> {
  const settings = useSettingsStore();
  const n = settings.recent.length;
  if (n === 0) return false;
  const choice = await useConfirmStore().ask({
    title: { key: 'menu.clearRecent' },
    message: { key: 'menu.clearRecentAsk', params: { n } },
    buttons: [
      { choice: 'discard', label: 'menu.clearRecentYes' },
      { choice: 'cancel', label: 'close.cancel' },
    ],
  });
  if (choice !== 'discard') return false;
  await settings.clearRecent();
  return true;
}

/**
 * File → Close (Ctrl+W): the document shown leaves, asking over its unsaved changes as its tab's × does
 * (removeFromScene); the last one (a lone motion) closes as Close Scene does, leaving the window empty. Before,
 * no key closed a document: open → edit → save → close could not be finished from the keyboard (nuprefs 6).
 */
export async function closeShownAsking(): Promise<boolean> {
  const scene = useSceneStore();
  const id = scene.activeId;
  if (scene.entries.length > 1 && id !== null) return removeFromScene(id);
  return closeSceneAsking();
}

/** Save / Don't Save / Cancel, naming what would be saved (before the window closes, or a document leaves the scene). */
function askSave(name: string, key: 'scene.closeAsk' | 'scene.removeAsk' = 'scene.closeAsk', changes?: NoticeText) {
  return useConfirmStore().ask({
    title: { key: 'scene.closeTitle' },
    message: changes ? { key: 'scene.closeAskScene', params: { name, changes } } : { key, params: { name } },
    buttons: [
      { choice: 'save', label: 'close.save' },
      { choice: 'discard', label: 'close.discard' },
      { choice: 'cancel', label: 'close.cancel' },
    ],
  });
}

/**
 * "×" on a scene tab: takes that document out of the scene (its file stays). Unsaved changes are asked
 * about first (Save / Don't Save / Cancel, naming it; Save writes it, Save As for one never saved). True
 * when it was removed.
 */
export async function removeFromScene(id: number): Promise<boolean> {
  const scene = useSceneStore();
  const e = scene.entries.find((x) => x.id === id);
  if (!e || scene.entries.length <= 1) return false;
  if (scene.stateOf(e).dirty) {
    scene.activate(id);
    const choice = await askSave(scene.docName(id) || '—', 'scene.removeAsk');
    if (choice === 'cancel') return false;
    if (choice === 'save' && !(await saveOrSaveAs())) return false;
  }
  const name = e.kind === 'camera' ? useSettingsStore().t('scene.cameraTab') : scene.actorLabel(e) || scene.stateOf(e).fileName;
  // The followed actor going makes the camera jump to its own keys: the notice says why (nufollow §7).
  const followed = e.kind === 'actor' ? (scene.followSpans.find((s) => s.actorId === id)?.bone ?? null) : null;
  if (!scene.removeEntry(id)) return false;
  useNotifyStore().info(followed ? { key: 'scene.removedFollowed', params: { name, bone: followed } } : { key: 'scene.removed', params: { name } });
  return true;
}

/**
 * Closing the window (and Close Scene): with several unsaved parts (documents, the scene file) one question
 * lists them all — each actor's name and file, the camera's file, the scene file with what changed in it (music
 * offset, an actor's stage…) — with Save All / Don't Save / Choose for Each… / Cancel, as VS Code and MMM ask:
 * six questions in turn for four actors, a camera and the scene was a chore, and never said what the scene's
 * question would lose. Save All is the Save All command (Save As for a document never saved, the scene's name
 * for an untitled scene); Choose for Each… asks per document in turn as before (askOneByOne). A lone unsaved
 * part is asked about on its own (Save / Don't Save / Cancel). True when the window may close; false on Cancel
 * or a Save that did not write. A second close request while the question is open is ignored. Under Electron
 * main hands the window's close here too (saveAndClose), so it shows the same in-app question.
 */
export async function askEachBeforeClose(): Promise<boolean> {
  if (closing) return false;
  closing = true;
  try {
    const scene = useSceneStore();
    const lone = await askKeepLone();
    if (lone !== null) return lone;
    const items = scene.unsavedItems;
    if (items.length > 1) {
      const choice = await useConfirmStore().ask({
        title: { key: 'scene.closeTitle' },
        message: { key: 'scene.closeAskAll' },
        items,
        buttons: [
          { choice: 'save', label: 'scene.saveAll' },
          { choice: 'discard', label: 'close.discard' },
          { choice: 'each', label: 'scene.closeEach' },
          { choice: 'cancel', label: 'close.cancel' },
        ],
      });
      if (choice === 'cancel') return false;
      if (choice === 'discard') return true;
      if (choice === 'save') return await saveAllWithDialog();
    }
    return await askOneByOne();
  } finally {
    closing = false;
  }
}

/**
 * A lone motion with what only a scene file keeps beside it (a song and its offset, a place on the stage, the model
 * hidden; and the model it dances on): one question, "Keep this model (Gene_light.pmx), the song song.wav, its offset
 * (15 frames) with walk.vmd as a scene?", Save as Scene… / Don't Save / Cancel, which also says when the motion's
 * own keys are unsaved (Save as Scene… saves them, then asks the scene's name; Don't Save loses both). Before, the
 * question named only an "Untitled scene" with a scene's generic list (actors and their models, camera, …), which a
 * person who only opened a motion and picked a song could not tell was their pairing. Null when the window is not
 * such a lone motion (the usual questions then); else whether the window may close.
 */
async function askKeepLone(): Promise<boolean | null> {
  const scene = useSceneStore();
  const only = scene.entries.length === 1 ? scene.entries[0] : null;
  if (scene.path !== null || !scene.untitled || only?.kind !== 'actor') return null;
  const now = scene.current(false);
  const extras = loneExtras(now);
  if (!extras.length) return null;
  const a = now.actors[0];
  const parts: NoticeText[] = [];
  for (const c of extras) {
    if (c.kind === 'model' && a.model) parts.push({ key: 'scene.keep.model', params: { name: basenamePath(a.model) } });
    else if (c.kind === 'song' && now.audio?.path) parts.push({ key: 'scene.keep.song', params: { name: basenamePath(now.audio.path) } });
    // The offset a removed song left (kept for the song picked next): said as the music's, not "its".
    else if (c.kind === 'offset' && now.audio) parts.push({ key: now.audio.path === null ? 'scene.keep.offsetAlone' : 'scene.keep.offset', params: { frames: String(now.audio.offsetFrames) } });
    else if (c.kind === 'stage') parts.push({ key: 'scene.keep.stage' });
    else if (c.kind === 'edge') parts.push({ key: 'scene.keep.edge' });
    else if (c.kind === 'hidden') parts.push({ key: 'scene.keep.hidden' });
  }
  if (!parts.length) return null;
  const dirty = scene.stateOf(only).dirty;
  const file = scene.stateOf(only).fileName || '—';
  const choice = await useConfirmStore().ask({
    title: { key: 'scene.closeTitle' },
    message: { key: dirty ? 'scene.keepLoneAskDirty' : 'scene.keepLoneAsk', params: { parts: parts.reduce((x, y, i) => ({ key: i === parts.length - 1 ? 'scene.keepJoinLast' : 'scene.keepJoin', params: { a: x, b: y } })), file } },
    buttons: [
      { choice: 'save', label: 'scene.saveAsScene' },
      { choice: 'discard', label: 'close.discard' },
      { choice: 'cancel', label: 'close.cancel' },
    ],
  });
  if (choice === 'cancel') return false;
  if (choice === 'discard') return true;
  return saveAllWithDialog();
}

/**
 * For each unsaved document of the scene in turn (shown in the editor), Save / Don't Save / Cancel naming it;
 * Save writes that document alone (Save As for one never saved); then the scene file, the question saying what
 * changed in it. False on Cancel or a Save that did not write, and nothing after it is saved or asked.
 */
async function askOneByOne(): Promise<boolean> {
  const scene = useSceneStore();
  const ids = scene.entries.filter((e) => scene.stateOf(e).dirty).map((e) => e.id);
  for (const id of ids) {
    const e = scene.entries.find((x) => x.id === id);
    if (!e || !scene.stateOf(e).dirty) continue;
    scene.activate(id);
    const choice = await askSave(scene.docName(id) || '—');
    if (choice === 'cancel') return false;
    if (choice === 'save' && !(await saveOrSaveAs())) return false;
  }
  // Then the scene file itself (its music, hidden actors, actors and camera changed since it was saved; an
  // untitled scene, whose actors, models, camera, music, hidden actors and stages only a scene file keeps:
  // Save asks its name).
  const changes = scene.sceneChangeText;
  if (changes) {
    const choice = await askSave(scene.path ? basenamePath(scene.path) : useSettingsStore().t('scene.untitled'), 'scene.closeAsk', changes);
    if (choice === 'cancel') return false;
    if (choice === 'save' && !(await (scene.path ? scene.saveTo(scene.path, true) : saveSceneWithDialog(true)))) return false;
  }
  return true;
}

export async function exportVpdWithDialog(): Promise<boolean> {
  const doc = useWorkspaceStore();
  const s = useSettingsStore();
  if (!doc.isOpen) {
    useNotifyStore().info({ key: 'notify.nothingToSave' });
    return false;
  }
  const frame = Math.round(useTimeStore().frame);
  // First what goes in (vpd-export.ts): the selection, the whole pose, bones or morphs, with their counts.
  const d = doc.active;
  let parts: VpdParts = 'all';
  let selected: VpdSelection | undefined;
  if (d) {
    const sel = useSelectionStore();
    selected = selectedNames(d.doc, d.tracks, sel.refs, sel.activeTrack);
    const answer = await askVpdParts(vpdPartsRequest(vmdToVpd(d.doc, d.tracks, frame), selected, frame));
    if (!answer) return false;
    parts = answer;
  }
  const picked = await pickPath({
    mode: 'save',
    title: s.t('dialog.exportVpdTitle', { frame }),
    filter: 'vpd',
    directory: dirOf(doc.path),
    fileName: `${stemOf(doc.fileName || 'pose')}_${frame}.vpd`,
  });
  // The header names the model file the pose is shown on (Gene_light.osm) as MMD does: the preview's, as
  // Export VRMA/BVH play the motion on it; the motion's own model name with the figure shown.
  const model = usePreviewStore().model?.path ?? null;
  return picked ? doc.exportVpd(picked.path, frame, { overwrite: picked.overwrite, model, parts, selected }) : false;
}

/**
 * Bake physics… and Export VPD/VRMA/BVH play the active motion on a model: a camera or light motion (shared
 * stageMotionRefusal, as the CLI and the batch refuse it) is refused with its error, before any dialog opens
 * (the native menu reaches these commands too; the toolbar's items are disabled with the reason). True when refused.
 */
function refusedAsStageMotion(op: string): boolean {
  const d = useWorkspaceStore().active;
  const refusal = d ? stageMotionRefusal(d.doc, op) : null;
  if (!refusal) return false;
  useNotifyStore().error({ ...refusal, file: d?.fileName });
  return true;
}

/** Runs a command by id. Returns when it has finished (dialogs answered, files written). */
/**
 * Open Recent of `p`: opened as Open… opens it (openAny). An entry whose file is gone (moved, renamed, deleted)
 * leaves the list in main; the notice then says so and names its folder, in place of a bare "not found".
 */
async function openRecent(p: string): Promise<void> {
  const settings = useSettingsStore();
  const listed = settings.recent.some((r) => r.path === p);
  await openAny({ path: p });
  if (!listed) return;
  await settings.refreshRecent();
  if (settings.recent.some((r) => r.path === p)) return;
  const notify = useNotifyStore();
  notify.dropAbout([p]);
  notify.warning({ key: 'menu.recentGone', params: { name: basenamePath(p), folder: folderOf(p) || p } });
}

export async function runCommand(id: CommandId, arg?: string): Promise<void> {
  const custom = extra.get(id);
  // A running job's dialog (a video rendering, a bake, a Whole Motion edit): what would change or take away its
  // documents waits (shell/job-guard.ts); Save and the rest still run.
  if (HELD_BY_JOB.has(id) && refusedWhileJob()) return;
  switch (id) {
    case 'open':
      await openWithDialog();
      return;
    case 'newMotion':
      await newMotion();
      return;
    case 'openRecent':
      // As Open… opens it (openAny): a pose or motion over an open scene asks whether it goes into it, a
      // capture opens its import dialog again, a scene file opens as a scene.
      if (arg) await openRecent(arg);
      return;
    case 'exportVrma':
      if (refusedAsStageMotion('export-vrma')) return;
      await exportCapture('vrma');
      return;
    case 'exportBvh':
      if (refusedAsStageMotion('export-bvh')) return;
      await exportCapture('bvh');
      return;
    case 'clearRecent':
      await clearRecentAsking();
      return;
    case 'save':
      await saveCommand();
      return;
    case 'closeScene':
      await closeSceneAsking();
      return;
    case 'closeDocument':
      await closeShownAsking();
      return;
    case 'saveAs':
      await saveAsWithDialog();
      return;
    case 'saveAll':
      await saveAllWithDialog();
      return;
    case 'openScene':
      await openSceneWithDialog();
      return;
    case 'saveSceneAs':
      await saveSceneWithDialog();
      return;
    case 'saveShown':
      // Scene → Save This Motion Only: the shown document alone (MMD saves a motion per model).
      await saveOrSaveAs();
      return;
    case 'importMouthTimings':
      // The morph panel's Lip sync row shows the preview (components/LeftPanel.vue opens the 表情 tab for it).
      await importMouthTimings();
      return;
    case 'mergeWith':
      // Whole Motion → Merge with…: the Whole Motion dialog gives way to the merge dialog, as to Bake physics….
      if (!useWorkspaceStore().isOpen) {
        useNotifyStore().info({ key: 'notify.nothingToMerge' });
        return;
      }
      useBatchStore().hide();
      useMergeStore().show();
      return;
    case 'exportVpd':
      if (refusedAsStageMotion('export VPD')) return;
      await exportVpdWithDialog();
      return;
    case 'batch':
      useBatchStore().show();
      return;
    case 'wholeMotion': {
      const batch = useBatchStore();
      batch.setTarget('document');
      batch.show();
      return;
    }
    case 'bakePhysics': {
      if (refusedAsStageMotion('physics-bake')) return;
      // A model without physics (or whose physics could not be read): said before the dialog, as the Whole
      // Motion dialog's item (off with the same reason) says it.
      const off = useBakeStore().unavailable();
      if (off) {
        useNotifyStore().warning(off);
        return;
      }
      // Whole Motion → Bake physics… (the Whole Motion dialog, when open, gives way to it).
      useBatchStore().hide();
      useBakeStore().show();
      return;
    }
    case 'bakeIk': {
      if (refusedAsStageMotion('ik-bake')) return;
      // No model file for the active actor, or a model without IK bones: said before the dialog, as the Whole
      // Motion dialog's item (off with the same reason) says it.
      const off = useIkBakeStore().unavailable();
      if (off) {
        useNotifyStore().warning(off);
        return;
      }
      useBatchStore().hide();
      useIkBakeStore().show();
      return;
    }
    case 'fitToModel':
      // Whole Motion → Fit to model… (the Whole Motion dialog gives way to the retarget panel).
      useBatchStore().hide();
      await fitMotionToModel();
      return;
    case 'undo':
    case 'redo': {
      // A whole-motion step runs in slices with its progress; the command does not wait for it.
      void useHistoryStore()[id === 'undo' ? 'undoSliced' : 'redoSliced']();
      break;
    }
    case 'about':
      shellUi.aboutOpen = true;
      return;
    case 'gettingStarted':
      shellUi.startOpen = true;
      return;
    case 'resetLayout':
      useLayoutStore().reset();
      return;
    case 'shortcuts':
      shellUi.shortcutsOpen = true;
      return;
    case 'saveAndClose':
      // Main was asked to close a window with unsaved changes or a job running. A job first: "A video is rendering.
      // Stop it and close?" (job-guard.ts; Cancel keeps the window and the job). Then one question listing the unsaved
      // documents (or, chosen, one per document); close only when what was to be saved was written, or on Don't Save.
      if (!(await askStopJobForClose())) return;
      if (await askEachBeforeClose()) {
        // Answered (saved, or Don't Save): the recovery copies of what was discarded on purpose go with the window.
        await useAutosaveStore().dropAll();
        await useApi().closeWindow();
      }
      return;
    default:
      break;
  }
  custom?.forEach((h) => h());
}
