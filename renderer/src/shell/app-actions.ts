/**
 * App actions: the workflows a view starts with one call — open anything, start a new motion, register a
 * pose — written once here, above the stores, so the views (App's drop, Open…, the preview's pose handles)
 * only call them. Each says what it does to the documents and the history through the stores' own actions
 * (stores/workspace.ts, stores/scene.ts).
 */
import { hasExtension, openKindExtensions, openKindOf } from '../../../shared/ipc/file-types';
import { fileKindByContent, mmdFamilyOfFile, refuseEmpty } from '../../../shared/ipc/file-kind';
import { mmdFamilyNotice } from './mmd-family-notice';
import type { MocapFormat } from '../../../shared/ipc/mocap-types';
import { writeVmd } from '../../../shared/vmd/vmd-writer';
import { useApi } from '../api';
import { mocapFormatOf, useMocapStore } from '../stores/mocap';
import { useMergeStore, type MergeFile } from '../stores/merge';
import { decodeDocument, documentContent, type DocumentContent } from '../stores/workspace';
import { fileNameOf, folderOf, stemOf } from '../paths';
import { useConfirmStore } from '../stores/confirm';
import { pickPath } from './file-dialog';
import { motionLoadedText, openOntoScene } from './pose-apply';
import { isEmptyDiff, locate, registerBoneKey, type BonePose } from '../../../shared/key-edits';
import { useHistoryStore } from '../stores/history';
import { useNotifyStore, type NoticeText } from '../stores/notify';
import { usePreviewStore } from '../stores/preview';
import { isCameraMotion, useSceneStore } from '../stores/scene';
import { useMusicStore } from '../stores/music';
import { useSelectionStore } from '../stores/selection';
import { useSettingsStore } from '../stores/settings';
import { useTimeStore } from '../stores/time';
import { useWorkspaceStore } from '../stores/workspace';
import { motionModelName, namesAnotherModel, useRetargetStore } from '../stores/retarget';
import { tellCutName } from './cut-names';
import { refusedWhileJob } from './job-guard';

/** Something to open: a file by its path (main reads it), or a file's name and bytes (a browser's drop). */
export type OpenSource = { path: string } | { name: string; bytes: Uint8Array };

/**
 * Opens anything a person hands the app (Open…, a drop, Open Recent, a file the OS, the command line or a second
 * instance hands over: shell/commands.ts openHandedOver), by its kind in the one list of what both take
 * (file-types.ts OPEN_KINDS): a PMX/PMD model goes to the preview (the active actor's model); a scene file
 * opens as a scene; a motion or pose opens as a one-actor scene (after asking about unsaved changes), or,
 * with a scene open, goes into it when the person says so (shell/pose-apply.ts: a pose onto an actor, a motion
 * as a new actor or onto one); a
 * capture opens the import dialog; a song becomes the scene's music (as ♪ Music… does). A dropped file under another
 * name whose bytes are a VMD or VPD opens as that. Anything else, and an empty dropped file, is refused with a notice
 * naming the file (and for MMD's other files, a .pmm, an .x, an effect…, what it is and what to do instead). True
 * when something was opened or asked for.
 */
export async function openAny(source: OpenSource): Promise<boolean> {
  // Not under a running job (a video rendering, a bake…): it works on what is open (shell/job-guard.ts).
  if (refusedWhileJob()) return false;
  const name = 'path' in source ? source.path : source.name;
  const notify = useNotifyStore();
  let kind = openKindOf(name);
  if (kind === null) {
    // By path (Open…, Open Recent, a file handed over): main reads its first bytes only, which say what it is as a
    // drop's bytes do; a VMD renamed .mvd was called a MikuMikuMoving motion by its name (fixnotdone 2).
    const head = 'path' in source ? await useApi().readFileHead(source.path) : null;
    if (head && !head.ok && head.error.code !== 'E_FILE_EMPTY') {
      notify.error(head.error);
      return false;
    }
    const bytes = 'bytes' in source ? source.bytes : head?.ok ? head.value.bytes : undefined;
    const content = bytes ? fileKindByContent(bytes) : null;
    // A VMD or VPD under another name (a dance renamed .mvd) opens as what its bytes are (decodeDocument reads it so).
    if (content === 'vmd' || content === 'vpd') kind = 'motion';
    else {
      // MMD's project, an accessory, an effect…: said as what it is and what to do instead (new-user pass numigrate 4).
      const family = mmdFamilyOfFile(name, bytes);
      notify.warning(family ? mmdFamilyNotice(fileNameOf(name), family) : { key: 'notify.notOpenable', params: { name: fileNameOf(name), ...openKindExtensions() } });
      return false;
    }
  }
  // A dropped 0-byte file is said as Open… says it of one read by path (main's readInputBytes): the same check.
  const empty = 'bytes' in source ? refuseEmpty(source.bytes, name) : null;
  if (empty) {
    notify.error(empty);
    return false;
  }
  if (kind === 'model') {
    // Opened by the person: by path it goes on the recent list, as a motion does (Open Recent reopens it here).
    usePreviewStore().requestModel('path' in source ? { path: source.path, recent: true } : source);
    return true;
  }
  if (kind === 'capture') return openCapture(source);
  if (kind === 'music') {
    const music = useMusicStore();
    const loaded = 'path' in source ? await music.openPath(source.path) : await music.loadBytes(source.name, source.bytes, null, { step: true });
    // Said, for the waveform row shows only with a motion open.
    // What became of the offset too, when there was one (stores/music.ts loadedNotice).
    if (loaded) notify.success(music.loadedNotice());
    return loaded;
  }
  const scene = useSceneStore();
  // A pose or motion over an open scene: asked whether it goes into it (onto an actor, as a new actor) first.
  if (kind === 'motion') {
    const onto = await openOntoScene(source);
    if (onto !== null) return onto;
  }
  if ('path' in source) return scene.openPath(source.path);
  if (kind === 'scene') {
    // A scene's files are named relative to its folder, and a browser's drop gives no folder.
    notify.warning({ key: 'notify.sceneDroppedNoFolder', params: { name: fileNameOf(name) } });
    return false;
  }
  // It replaces the scene: asked first when the scene has unsaved documents (openPath asks the same).
  if (!(await scene.confirmReplace(name))) return false;
  return scene.openBytes(name, source.bytes, null);
}

/**
 * Opens what was dropped together, as a person dropping several files means it (App.vue's drop), by what each file
 * is, never by the order they came in: a model first (it loads, and what follows goes onto it); then the dance
 * (a model's motion: bone or morph keys) opens; a camera VMD (camera, light or self-shadow keys only: the codec's
 * counts, scene.ts isCameraMotion) becomes the scene's camera document beside it, as MMD loads a camera motion
 * onto the camera (with no dance, it opens as the camera alone); a pose goes onto the actor as a pose opened over
 * a scene does (shell/pose-apply.ts: asked, at the current frame); then a song (after the motion, whose opening
 * replaces the scene and its music). With no motion, the first scene or capture opens. The other dances dropped
 * with the one that opened are offered for overlaying onto it in Whole Motion → Merge with… (a body motion and a
 * facial motion dropped together: the common case), prefilled, in overlay mode; nothing is merged until Apply.
 * Every other file left (a second model, scene, capture, camera, pose or song, motions whose first did not open)
 * is named in one notice saying why: nothing dropped goes nowhere silently. A file the app does not open is
 * refused by openAny. One question at a time: the pose's question is answered before Merge with… opens (last), and
 * several files taken end with one notice saying what went where ("Opened walk.vmd on Gene_light.pmx · camera.vmd
 * as the camera · song.wav as music"): new-user pass nuprefs 7 saw the pose's question over the Merge dialog, and
 * only "Opened camera.vmd" said.
 */
export async function openDropped(sources: readonly OpenSource[]): Promise<void> {
  if (refusedWhileJob()) return;
  const nameOf = (s: OpenSource) => fileNameOf('path' in s ? s.path : s.name);
  const kinds = sources.map((s) => openKindOf(nameOf(s)));
  const model = sources.find((_, i) => kinds[i] === 'model');
  const vmds = sources.filter((s, i) => kinds[i] === 'motion' && hasExtension(nameOf(s), ['.vmd']));
  // Which motions are cameras: asked of the codec only when there is more than one (a lone one opens as what it is).
  const cameras = vmds.length > 1 ? await camerasOf(vmds) : new Map<OpenSource, DocumentContent>();
  const dances = vmds.filter((s) => !cameras.has(s));
  const camera = vmds.find((s) => cameras.has(s));
  const poses = sources.filter((s, i) => kinds[i] === 'motion' && !vmds.includes(s));
  const doc = dances[0] ?? sources.find((_, i) => kinds[i] === 'scene' || kinds[i] === 'capture') ?? camera ?? poses[0];
  const song = sources.find((_, i) => kinds[i] === 'music');
  const docIsDance = doc !== undefined && dances.includes(doc);
  const toMerge: OpenSource[] = [];
  const pose = docIsDance ? poses[0] : undefined;
  const sideCamera = docIsDance ? camera : undefined;
  type Left = 'drop.left.model' | 'drop.left.document' | 'drop.left.music' | 'drop.left.notMerged' | 'drop.left.camera' | 'drop.left.cameraNotAdded' | 'drop.left.pose' | 'drop.left.poseNotApplied';
  const left: { key: Left; name: string; first: string }[] = [];
  sources.forEach((s, i) => {
    if (s === model || s === doc || s === song || s === pose || s === sideCamera || kinds[i] === null) return;
    const name = nameOf(s);
    if (kinds[i] === 'model') left.push({ key: 'drop.left.model', name, first: nameOf(model!) });
    else if (kinds[i] === 'music') left.push({ key: 'drop.left.music', name, first: nameOf(song!) });
    else if (docIsDance && dances.includes(s)) toMerge.push(s);
    else if (cameras.has(s) && sideCamera) left.push({ key: 'drop.left.camera', name, first: nameOf(sideCamera) });
    else if (poses.includes(s) && pose) left.push({ key: 'drop.left.pose', name, first: nameOf(pose) });
    else left.push({ key: 'drop.left.document', name, first: nameOf(doc!) });
  });
  /** What went where, for the closing notice. */
  const taken: NoticeText[] = [];
  if (model && (await openAny(model))) taken.push({ key: 'drop.sum.model', params: { name: nameOf(model) } });
  let mergeInto = false;
  if (doc) {
    const opened = await openAny(doc);
    const ws = useWorkspaceStore();
    const danceId = opened && docIsDance ? ws.activeId : null;
    if (opened) taken.push(model && docIsDance ? { key: 'drop.sum.motionOn', params: { name: nameOf(doc), model: nameOf(model) } } : nameOf(doc));
    if (opened && toMerge.length && ws.isOpen) mergeInto = true;
    else toMerge.forEach((s) => left.push({ key: 'drop.left.notMerged', name: nameOf(s), first: nameOf(doc) }));
    if (sideCamera) {
      if (danceId !== null) {
        if (await addCameraDocument(cameras.get(sideCamera)!)) taken.push({ key: 'drop.sum.camera', params: { name: nameOf(sideCamera) } });
        // The dance stays the active document: Merge with… merges into it, and the pose goes onto its actor.
        useSceneStore().activate(danceId);
      } else left.push({ key: 'drop.left.cameraNotAdded', name: nameOf(sideCamera), first: nameOf(doc) });
    }
    if (pose) {
      if (danceId !== null) {
        if (await openAny(pose)) taken.push({ key: 'drop.sum.pose', params: { name: nameOf(pose) } });
      } else left.push({ key: 'drop.left.poseNotApplied', name: nameOf(pose), first: nameOf(doc) });
    }
  }
  if (song && (await openAny(song))) taken.push({ key: 'drop.sum.music', params: { name: nameOf(song) } });
  // Files the app does not take at all: each refused by name (openAny's notice lists what it takes).
  for (const [i, s] of sources.entries()) if (kinds[i] === null) await openAny(s);
  if (mergeInto) taken.push({ key: 'drop.sum.merge', params: { name: toMerge.map(nameOf).join(', ') } });
  if (taken.length > 1) useNotifyStore().success({ key: 'drop.opened', params: { list: taken } });
  // Last, once every question above is answered: the Merge dialog is a question too (it stacked under the pose's).
  if (mergeInto) useMergeStore().offer(toMerge as MergeFile[], 'overlay');
  if (left.length) {
    useNotifyStore().warning(
      { key: 'drop.leftOut', params: { n: left.length } },
      left.map((l) => ({ key: l.key, params: { name: l.name, first: l.first } })),
    );
  }
}

/**
 * The dropped motions that are camera VMDs (camera, light or self-shadow keys and no bone or morph keys), as the
 * codec reads them, each with what was read (added from it, not read again); one that cannot be read counts as a
 * dance (opening it then says why).
 */
async function camerasOf(vmds: readonly OpenSource[]): Promise<Map<OpenSource, DocumentContent>> {
  const out = new Map<OpenSource, DocumentContent>();
  for (const s of vmds) {
    const d = 'bytes' in s ? decodeDocument(s.name, s.bytes) : await useWorkspaceStore().read(s.path);
    if (d.ok && isCameraMotion(d.value.info)) out.set(s, d.value);
  }
  return out;
}

/** A dropped camera VMD (read by camerasOf) made the scene's camera document (refused with a notice when the scene has one). */
function addCameraDocument(content: DocumentContent): Promise<boolean> {
  const scene = useSceneStore();
  return content.path ? scene.addRead(content, 'camera') : Promise.resolve(scene.addContent(content, 'camera'));
}

/**
 * New motion: an empty, never-saved motion for the preview's model (its name in the header) replaces what
 * is open (the history starts empty). `name` is its file name until saved (the UI's "New motion.vmd" by
 * default). Returns its document id.
 */
export function newMotion(name = useSettingsStore().t('preview.newMotionName')): number {
  return useSceneStore().newMotion(name, usePreviewStore().model?.name ?? '');
}

/**
 * The motion a face edit keys (the morph panel's, the lip-sync mode's): the shown actor's, as the panel's sliders key
 * it — with the camera document active, the shown actor's motion becomes the active one; with no motion open, a new
 * one is started, as a slider does (undo takes the keys back; the new motion stays). 'started' when it was started
 * (the caller puts the playhead back if it needs it), null when there is none to key.
 */
export function readyFaceDocument(): 'ready' | 'started' | null {
  const scene = useSceneStore(), docStore = useWorkspaceStore();
  const id = scene.active?.kind === 'camera' ? scene.shownActorId : docStore.activeId;
  if (scene.active?.kind === 'camera' && id !== null) scene.activate(id);
  if (docStore.doc) return 'ready';
  newMotion();
  return docStore.doc ? 'started' : null;
}

/**
 * A pose to register: the bone (its track in the active document, or −1 for one without keys yet), its pose, the
 * frame, and the undo step's name ("pose bone", a ring drag's, by default; "register key" for Enter / Register).
 */
export interface PoseToRegister {
  name: string;
  track: number;
  pose: BonePose;
  frame: number;
  label?: 'pose bone' | 'register key';
}

/**
 * Registers a posed bone as its key at `frame` (the key there takes the pose, keeping its curves; otherwise a
 * key is added with the curves of the segment it splits): one undo step, and that key selected on its track.
 * In a scene whose camera document is active, the shown actor's document takes it; with no motion open a new
 * one is started (newMotion). Returns the key's record, or null when nothing changed (refused, or the same pose).
 */
export function registerPose(p: PoseToRegister): number | null {
  const scene = useSceneStore();
  const ws = useWorkspaceStore();
  if (scene.active?.kind === 'camera' && scene.lastActorId !== null) scene.activate(scene.lastActorId);
  let track = p.track;
  if (!ws.doc) {
    newMotion();
    useTimeStore().seek(p.frame);
    track = -1;
  }
  let record = -1;
  const r = useHistoryStore().run((doc, tracks) => {
    const out = registerBoneKey(doc, tracks, track >= 0 ? { track } : { name: p.name }, p.frame, p.pose, p.label);
    if (out.ok) record = out.value.record;
    return out;
  });
  if (!r || record < 0 || isEmptyDiff(r.diff)) return null;
  tellCutName('bone', p.name, usePreviewStore().modelOutline?.groups.flatMap((g) => g.bones) ?? []);
  const tracks = ws.tracks, doc = ws.doc;
  const loc = tracks && doc ? locate(tracks, { kind: 'bone', record }, doc.bone.count) : null;
  if (loc) {
    const sel = useSelectionStore();
    sel.setActiveTrack({ kind: 'bone', track: loc.track });
    sel.select([{ kind: 'bone', record }], 'replace');
  }
  return record;
}

/**
 * The actor "Fit to model…" fits a motion to: the one the preview shows, when it is on a model and the
 * preview shows that model (its file and name, and the model its motion's header names, maybe ''); null
 * otherwise. Whatever the header says: after Load onto an actor (the header rewritten), with a blank header,
 * or two models of one name, the motion may still be made for another model.
 */
export function retargetTarget(): { actorId: number; modelPath: string; modelName: string; motionName: string } | null {
  const scene = useSceneStore();
  const preview = usePreviewStore();
  const id = scene.shownActorId;
  const actor = scene.entries.find((e) => e.id === id);
  const model = preview.model;
  if (id === null || !actor || actor.kind !== 'actor' || !actor.model || !model || model.path !== actor.model) return null;
  const d = useWorkspaceStore().get(id);
  if (!d) return null;
  return { actorId: id, modelPath: model.path, modelName: model.name, motionName: motionModelName(d.doc) };
}

/**
 * "Fit this motion to the model…" is suggested (a button beside the bones the model lacks) when the
 * motion names (in the VMD header) another model than the actor's: `retargetTarget`, or null. The command
 * itself (Whole Motion → Fit to model…) is there for any motion on a model.
 */
export function retargetOffer(): { actorId: number; modelPath: string; modelName: string; motionName: string } | null {
  const o = retargetTarget();
  return o && namesAnotherModel(o.motionName, o.modelName) ? o : null;
}

/** Opens the retarget panel (stores/retarget.ts) for the actor `retargetTarget` names; false when there is none. */
export async function fitMotionToModel(): Promise<boolean> {
  const o = retargetTarget();
  if (!o) {
    useNotifyStore().info({ key: 'retarget.notOffered' });
    return false;
  }
  useTimeStore().pause();
  return useRetargetStore().start(o.actorId, o.modelPath, o.modelName);
}

/**
 * A BVH or VRM Animation opened (Open, Open Recent, a drop, a double-click): read (main puts it on the recent
 * list), then the import dialog (components/MocapImportDialog.vue) converts it onto the active actor's model
 * (the preview's) and shows the result there; nothing is in the workspace until Import (importCapture).
 */
export async function openCapture(source: OpenSource): Promise<boolean> {
  const name = 'path' in source ? source.path : source.name;
  const format = mocapFormatOf(name);
  if (!format) return false;
  let bytes: Uint8Array, filePath: string | null = null;
  if ('path' in source) {
    const r = await useApi().openFile(source.path);
    void useSettingsStore().refreshRecent();
    if (!r.ok) {
      useNotifyStore().error(r.error);
      return false;
    }
    bytes = r.value.bytes;
    filePath = r.value.path;
    const dir = folderOf(filePath);
    const settings = useSettingsStore();
    if (dir && dir !== settings.settings.lastDirectory) void settings.update({ lastDirectory: dir });
  } else bytes = source.bytes;
  await useMocapStore().begin({ name: fileNameOf(name), path: filePath, format, bytes }, usePreviewStore().model?.path ?? null);
  return true;
}

/**
 * Import of the capture the dialog shows: converted again first when its model, options or rows changed
 * since; then a new, unsaved motion (stores/scene.ts addImported) on that model, and the dialog closes.
 * False when there is nothing to import or the conversion failed (the dialog says why).
 */
export async function importCapture(): Promise<boolean> {
  // It adds an actor to the scene: not under a job working on it (a video rendering…), as Open… and a drop are not.
  if (refusedWhileJob()) return false;
  const m = useMocapStore();
  if (!m.source || (!m.modelPath && !m.standard)) return false;
  if (!m.current && !(await m.convert())) return false;
  const r = m.result;
  if (!r) return false;
  const name = m.vmdName;
  // On the standard skeleton the new actor is the figure (no model file).
  const { placed } = useSceneStore().addImported(documentContent(r.doc, { name }), m.standard ? null : m.modelPath);
  await m.close(true);
  const params = { name, kept: r.report.keysKept, raw: r.report.keysRaw };
  // Placed beside the other actors (its stage, not its keys): say where, and where to move it.
  if (placed) useWorkspaceStore().editNotice('success', { key: 'mocap.importedBeside', params: { ...params, x: placed.position[0] } });
  else useWorkspaceStore().editNotice('success', { key: 'mocap.imported', params });
  // Off to the side of the view it stood in, or walking off it: the free view widens to show it and the
  // others along their paths (scene-actors.ts frameActors).
  usePreviewStore().requestFrameActors();
  return true;
}

/**
 * The actor the capture the dialog shows can be loaded onto (its motion replaced), as a .vmd opened over a
 * scene can (pose-apply.ts openOntoScene): the actor shown, when the dialog converts onto the model the
 * preview shows for it (nothing chosen in the dialog instead: no model lent), so the motion is retargeted
 * to that actor's model; null otherwise.
 */
export function captureLoadTarget(): { id: number; name: string } | null {
  const scene = useSceneStore();
  const m = useMocapStore();
  const id = scene.shownActorId;
  if (id === null || m.lent || !scene.entries.some((e) => e.id === id && e.kind === 'actor')) return null;
  return { id, name: scene.partName(id) };
}

/**
 * Load onto the actor (captureLoadTarget): converted again first when the dialog's options or rows changed
 * since; then the actor's motion becomes the capture's, one undo step ("load capture NAME"; Undo gives the
 * motion back), the actor keeping its file (Save writes there); the dialog closes. False when there is no
 * such actor or nothing to load (the dialog says why).
 */
export async function loadCaptureOnto(): Promise<boolean> {
  // It replaces an actor's motion: not under a job working on it.
  if (refusedWhileJob()) return false;
  const m = useMocapStore();
  const target = captureLoadTarget();
  if (!m.source || !target) return false;
  if (!m.current && !(await m.convert())) return false;
  const r = m.result;
  if (!r) return false;
  const file = m.source.name;
  const scene = useSceneStore();
  const done = await scene.loadOnto(target.id, documentContent(r.doc, { name: m.vmdName }), `load capture ${file}`);
  if (!done) return false;
  await m.close();
  const doc = useWorkspaceStore().get(target.id);
  useWorkspaceStore().editNotice('success', motionLoadedText(file, target.name, doc?.fileName ?? ''));
  usePreviewStore().requestFrameActors();
  return true;
}

/**
 * Export of the active document as a VRM Animation or BVH, played on the active actor's model (the
 * preview's; the standard MMD skeleton when it shows the figure): the save dialog, then main converts and writes atomically; an existing file is replaced only
 * when the person said so (the native dialog asks; the in-app dialog asks; otherwise asked here).
 */
export async function exportCapture(format: MocapFormat): Promise<boolean> {
  const ws = useWorkspaceStore();
  const settings = useSettingsStore();
  const notify = useNotifyStore();
  const doc = ws.doc;
  if (!doc) {
    notify.info({ key: 'notify.nothingToSave' });
    return false;
  }
  // The preview's model, or (the figure shown) the standard MMD skeleton: null.
  const model = usePreviewStore().model?.path ?? null;
  const base = stemOf(ws.fileName || 'motion');
  const picked = await pickPath({ mode: 'save', title: settings.t(format === 'vrma' ? 'mocap.exportVrmaTitle' : 'mocap.exportBvhTitle'), filter: format, directory: ws.path ? folderOf(ws.path) || null : null, fileName: `${base}.${format}` });
  if (!picked) return false;
  const target = hasExtension(picked.path, [`.${format}`]) ? picked.path : `${picked.path}.${format}`;
  const job = { id: `export-${Date.now().toString(36)}`, format, vmd: writeVmd(doc), model };
  let r = await useApi().exportMocap(target, job, { overwrite: picked.overwrite && target === picked.path });
  if (!r.ok && r.error.code === 'E_IO_EXISTS') {
    const choice = await useConfirmStore().ask({
      title: { key: 'mocap.replaceTitle' },
      message: { key: 'mocap.replaceAsk', params: { name: fileNameOf(target) } },
      buttons: [
        { choice: 'save', label: 'mocap.replace' },
        { choice: 'cancel', label: 'close.cancel' },
      ],
    });
    if (choice !== 'save') return false;
    r = await useApi().exportMocap(target, { ...job, id: `${job.id}-2` }, { overwrite: true });
  }
  if (!r.ok) {
    notify.error(r.error);
    return false;
  }
  notify.success({ key: 'notify.exported', params: { name: fileNameOf(r.value.path) } });
  // What the motion moves that the file could not carry, as export-bvh/export-vrma warn (the first 12 named).
  const few = (names: string[]) => names.slice(0, 12).join(' ') + (names.length > 12 ? ` … (+${names.length - 12})` : '');
  if (r.value.leftOutBones?.length) notify.warning({ key: 'mocap.exportLeftOut', params: { count: r.value.leftOutBones.length, names: few(r.value.leftOutBones) } });
  if (r.value.unusedMorphs?.length) notify.warning({ key: 'mocap.exportUnusedMorphs', params: { count: r.value.unusedMorphs.length, names: few(r.value.unusedMorphs) } });
  return true;
}
