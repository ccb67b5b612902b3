/**
 * A pose or a motion opened (Open…, a drop) while a scene or motion is open goes into it, as MMD loads a pose
 * or a motion onto the selected model, unless the person chooses to open it on its own (it then replaces
 * the scene, as before):
 * - a .vpd: "Apply the pose to ACTOR at frame N" (first, Enter): keys at the playhead for every bone and morph
 *   the pose names that the model has (shared/key-edits/pose-apply.ts), one undo step;
 * - a .vmd: "Add to the scene as a new actor" (what + Actor does) or "Load onto ACTOR (replaces its motion)",
 *   one undo step: the header keeps the actor's model name (the motion goes to that model, as in MMD; the
 *   notice says the name the file gave when it differs); a camera VMD: "Use as the scene's camera" (added, or
 *   loaded onto the camera document).
 * A motion whose file is open already (an actor's or the camera's) is not opened a second time over that file:
 * "Show actor NAME" (first) shows its tab and says it is open, "Add a copy as a new actor" adds an unsaved copy
 * of the open document (its edits too) with no file (Save asks for its name). When another program changed the
 * file since the document read or saved it (the stamps differ), the question says so and offers "Reload from
 * disk" too (asking first over unsaved edits).
 * Every way of opening a file asks it (shell/app-actions.ts openAny: Open…, a drop, Open Recent, a file the OS,
 * the command line or a second instance hands over).
 */
import { applyPose, EDIT_KINDS, type PoseApplied } from '../../../shared/key-edits';
import { decodeName, fitNameField, readVpd, type VmdDocument, type VpdPose } from '../../../shared/vmd';
import { useApi } from '../api';
import { fileNameOf } from '../paths';
import type { FileStamp } from '../../../shared/ipc/contract';
import { useConfirmStore, type ConfirmRequest } from '../stores/confirm';
import { askSalvage } from '../stores/salvage';
import type { Outcome } from '../../../shared/vmd';
import { useHistoryStore } from '../stores/history';
import { NOTICE_TIMEOUT_MS, useNotifyStore, type NoticeText } from '../stores/notify';
import { basenamePath, dirnamePath } from '../../../shared/scene/scene-path';
import { usePreviewStore } from '../stores/preview';
import { isCameraMotion, useSceneStore } from '../stores/scene';
import { useSettingsStore } from '../stores/settings';
import { useTimeStore } from '../stores/time';
import { decodeDocument, documentContent, touchedAfterApply, useWorkspaceStore, type DocumentContent } from '../stores/workspace';
import { useSelectionStore } from '../stores/selection';

type Source = { path: string } | { name: string; bytes: Uint8Array };

/** The actor a pose or motion goes onto: the active one, else (the camera document active) the one shown with it. */
function targetActor(): number | null {
  const scene = useSceneStore();
  const id = scene.shownActorId;
  return scene.entries.some((e) => e.id === id && e.kind === 'actor') ? id : null;
}

/** The file's bytes (read by main for a path: it goes on the recent list), or null (said in a notice). */
async function bytesOf(source: Source): Promise<{ bytes: Uint8Array; path: string | null; stamp?: FileStamp; realPath?: string } | null> {
  if ('bytes' in source) return { bytes: source.bytes, path: null };
  const r = await useApi().openFile(source.path);
  void useSettingsStore().refreshRecent();
  if (!r.ok) {
    useNotifyStore().error(r.error);
    return null;
  }
  return { bytes: r.value.bytes, path: r.value.path, stamp: r.value.stamp, realPath: r.value.realPath };
}

/**
 * Asks what a .vpd or .vmd opened over an open scene or motion does (see the file comment) and does it.
 * The question is the one that asks before the scene is replaced (stores/scene.ts askReplace), with these
 * answers first; "open it on its own" opens it as before. Resolves to whether something was done, or null
 * when nothing is asked (nothing is open, it is not a .vmd/.vpd, a pose with no actor to take it): the
 * caller opens it as before.
 */
export async function openOntoScene(source: Source): Promise<boolean | null> {
  const scene = useSceneStore();
  const ws = useWorkspaceStore();
  if (!scene.entries.length && !ws.isOpen) return null;
  const name = 'path' in source ? source.path : source.name;
  const lower = name.toLowerCase();
  const pose = lower.endsWith('.vpd');
  if (!pose && !lower.endsWith('.vmd')) return null;
  let file = fileNameOf(name);
  const actor = targetActor();
  if (pose && actor === null) return null;
  const got = await bytesOf(source);
  if (!got) return false;
  const notify = useNotifyStore();
  const actorName = actor === null ? '' : scene.partName(actor);
  // The version read goes with the document, so a Save over the file checks that no other program changed it.
  const read = decodeDocument(file, got.bytes, got.path);
  let decoded: Outcome<DocumentContent> = read.ok ? { ...read, value: { ...read.value, stamp: got.stamp ?? null, realPath: got.realPath ?? null } } : read;
  // A VMD cut short: asked whether its whole keys go on as an unsaved copy (stores/salvage.ts), which is then
  // placed as the file would have been (as a new actor, onto one, or on its own).
  let salvaged = false;
  if (!decoded.ok && !pose) {
    const copy = await askSalvage(got.path ?? file, got.bytes, decoded.error);
    if (copy) {
      decoded = { ok: true, value: copy };
      salvaged = true;
      // What is placed from here on is the copy: the questions name it.
      file = copy.fileName;
    }
  }
  /** The file opened on its own from the bytes read (the question already asked: askReplace), as Open… opens it. */
  const alone = (): boolean => {
    if (!decoded.ok) {
      notify.error(decoded.error);
      return false;
    }
    if (!('path' in source) && !salvaged) return scene.openBytes(source.name, source.bytes, null);
    scene.openRead(decoded.value);
    return true;
  };

  if (pose) {
    const p = readVpd(got.bytes);
    if (!p.ok) {
      notify.error({ ...p.error, file: got.path ?? file });
      return false;
    }
    const frame = Math.round(useTimeStore().frame);
    const choice = await scene.askReplace(name, {
      message: { key: 'scene.poseAsk', params: { file } },
      buttons: [{ choice: 'apply', label: 'scene.poseApply', params: { actor: actorName, frame } }],
    });
    if (choice === 'open') return alone();
    if (choice !== 'apply') return false;
    // A pose read as UTF-8 (saved without a BOM): said once here too, as the File panel says it of one opened.
    if (p.diagnostics.some((d) => d.code === 'W_VPD_UTF8')) notify.warning({ key: 'note.W_VPD_UTF8' });
    return applyPoseToActor(actor!, p.value, file, frame) !== null;
  }

  if (!decoded.ok) {
    notify.error(decoded.error);
    return false;
  }
  const content = decoded.value;
  // One file, one owner: a motion whose file is open already shows that tab (first, Enter), or is added as a
  // copy with no file (Save asks for its name), never as a second document over the same file.
  // The same file by another path (a link to it) has the same owner.
  const owner = content.path ? useWorkspaceStore().ownerOf(content.path, null, content.realPath ?? null) : null;
  if (owner) {
    return askAboutOwned(owner.id, content, file, (message, buttons) => scene.askReplace(name, { message, buttons }), alone);
  }
  const camera = isCameraMotion(content.info);
  // The shown actor's motion is missing (its file was not found when the scene opened) and this is a file: loading
  // it onto the actor relinks it, which is what the not-found notice told the person to do, so that answer comes
  // first (Enter) and the question says whose motion is missing; adding a new actor would leave it missing.
  const missing = !camera && actor !== null && content.path && scene.relinkable(actor) ? scene.entries.find((e) => e.id === actor)?.missing : undefined;
  const add = { choice: 'add' as const, label: 'scene.motionAdd' as const };
  const buttons: ConfirmRequest['buttons'] = camera
    ? [{ choice: 'camera', label: 'scene.cameraUse' }]
    : missing
      ? [{ choice: 'load', label: 'scene.motionRelink', params: { actor: actorName, missing: basenamePath(missing) } }, add]
      : [add, ...(actor === null ? [] : [{ choice: 'load' as const, label: 'scene.motionLoad' as const, params: { actor: actorName } }])];
  const message: NoticeText = camera
    ? { key: 'scene.cameraMotionAsk', params: { file } }
    : missing
      ? { key: 'scene.motionAskMissing', params: { file, actor: actorName, missing: basenamePath(missing) } }
      : { key: 'scene.motionAsk', params: { file } };
  const choice = await scene.askReplace(name, { message, buttons });
  if (choice === 'open') return alone();
  if (choice === 'add') return scene.addContent(content, 'actor');
  if (choice === 'camera') return placeCamera(content, file);
  if (choice === 'load' && actor !== null) return loadMotion(actor, content, file, scene.partName(actor), true);
  return false;
}

/**
 * A camera file read for the two "make it the scene's camera" routes below (Edit this camera, the follow panel's
 * offer): decoded with the version read (a Save over it checks no other program changed it); an unreadable one is
 * said in a notice and gives null.
 */
async function readCameraSource(source: Source): Promise<{ content: DocumentContent; file: string } | null> {
  const got = await bytesOf(source);
  if (!got) return null;
  const file = fileNameOf('path' in source ? source.path : source.name);
  const read = decodeDocument(file, got.bytes, got.path);
  if (!read.ok) {
    useNotifyStore().error(read.error);
    return null;
  }
  return { content: { ...read.value, stamp: got.stamp ?? null, realPath: got.realPath ?? null }, file };
}

/**
 * "Edit this camera" (a reference camera shown with the preview's Camera…, which takes no keys): the file becomes
 * the scene's camera document, as Open… → "Use as the scene's camera" makes it (added, or loaded onto the camera
 * document when the scene has one), one undo step; K and the Key panel then edit its keys. Resolves to whether it did.
 */
export async function makeSceneCamera(source: Source): Promise<boolean> {
  const read = await readCameraSource(source);
  if (!read) return false;
  const { content, file } = read;
  const scene = useSceneStore();
  const cam = scene.cameraEntry;
  if (cam) return loadMotion(cam.id, content, file, cam.fileName);
  return scene.addRead(content, 'camera');
}

/**
 * "Use FILE as the scene's camera" where the answer is already given (the follow panel offers it for the reference
 * camera shown with Camera…, nufollow §5): the file read and placed as Open… → "Use as the scene's camera" places
 * it (added as the camera document, or loaded onto the one there), one undo step. A file open already shows its tab.
 */
export async function useAsSceneCamera(path: string): Promise<boolean> {
  const scene = useSceneStore();
  const read = await readCameraSource({ path });
  if (!read) return false;
  const { content, file } = read;
  const owner = content.path ? useWorkspaceStore().ownerOf(content.path, null, content.realPath ?? null) : null;
  if (owner) {
    scene.showOwner(owner.id, file);
    return true;
  }
  // Bone or morph keys too: not a camera motion, so Open…'s question decides what it is.
  if (!isCameraMotion(content.info)) return (await openOntoScene({ path })) ?? false;
  return placeCamera(content, file);
}

/**
 * A camera motion made the scene's camera (added, or loaded onto the camera document). With a follow set it
 * still applies to the new keys: said, with "Turn follow off" on the notice (nufollow §3: a baked camera checked
 * this way counted the bone twice, and only the load was said).
 */
async function placeCamera(content: DocumentContent, file: string): Promise<boolean> {
  const scene = useSceneStore();
  const cam = scene.cameraEntry;
  const done = cam ? await loadMotion(cam.id, content, file, cam.fileName) : scene.addContent(content, 'camera');
  const f = scene.cameraFollow;
  const a = f ? scene.actors.find((e) => e.id === f.actorId) : undefined;
  if (done && f && a) {
    useNotifyStore().offer('warning', { key: 'follow.stillOn', params: { bone: f.bone, actor: scene.actorLabel(a) || scene.partName(a.id) } }, { label: 'follow.turnOff', run: () => void scene.setCameraFollow(null) }, 0);
  }
  return done;
}

/**
 * The question for a motion whose file document `ownerId` has open (see the file comment): "Show actor NAME"
 * (first, Enter), "Reload from disk" when another program changed the file since, "Add a copy as a new actor"
 * (not for a camera motion); `ask` puts it (Open…: with "open it on its own", `alone`, which it then does) and
 * what was chosen is done. Resolves to whether something was done.
 */
async function askAboutOwned(
  ownerId: number,
  content: DocumentContent,
  file: string,
  ask: (message: NoticeText, buttons: ConfirmRequest['buttons']) => Promise<string>,
  alone?: () => boolean,
): Promise<boolean> {
  const scene = useSceneStore();
  const owner = useWorkspaceStore().get(ownerId);
  if (!owner) return false;
  const ownerPart = scene.entries.find((e) => e.id === ownerId);
  const isCamera = ownerPart?.kind === 'camera';
  const ownerText = isCamera ? { key: 'scene.ownerCamera' as const } : { key: 'scene.ownerActor' as const, params: { name: scene.partName(ownerId) } };
  // Another program wrote the file since the document read or saved it: the question says so and offers the
  // version on disk (Show keeps the one open).
  const changed = stampDiffers(owner.stamp, content.stamp);
  const buttons: ConfirmRequest['buttons'] = [
    isCamera ? { choice: 'show', label: 'scene.showCamera' } : { choice: 'show', label: 'scene.showActor', params: { name: scene.partName(ownerId) } },
    ...(changed ? [{ choice: 'reload' as const, label: 'scene.reloadFromDisk' as const }] : []),
    ...(isCameraMotion(content.info) ? [] : [{ choice: 'copy' as const, label: 'scene.motionAddCopy' as const }]),
  ];
  const message = { key: changed ? ('scene.motionOpenAskChanged' as const) : ('scene.motionOpenAsk' as const), params: { file, owner: ownerText } };
  const choice = await ask(message, buttons);
  if (choice === 'open' && alone) return alone();
  if (choice === 'show') {
    scene.showOwner(ownerId, file);
    return true;
  }
  if (choice === 'reload') return reloadOwner(ownerId, content, file, ownerText);
  // A copy of the document that is open (its edits too), as the button says, not of the file as it is now.
  if (choice === 'copy') return scene.addCopy(copyOf(owner), ownerId);
  return false;
}

/**
 * + Actor with a motion whose file is open already (stores/scene.ts addDocument): the question Open… asks
 * (Show, Reload from disk, Add a copy as a new actor), less "open it on its own": four dancers on one dance
 * are made with + Actor, which only showed the tab before.
 */
export function askOwnedForAdd(ownerId: number, content: DocumentContent): Promise<boolean> {
  return askAboutOwned(ownerId, content, content.fileName, (message, buttons) =>
    useConfirmStore().ask({ title: { key: 'scene.openOntoTitle' }, message, buttons: [...buttons, { choice: 'cancel', label: 'close.cancel' }] }),
  );
}

/**
 * Whether the file read now (`now`) is another version than the one the open document holds (`held`: read or
 * last written). Size, modification time and inode are compared, and the bytes' hash when both stamps carry
 * one (main adds it only to a stamp taken within RACY_MS of the write, electron/services/file-io.ts). No stamp
 * on either side (a dropped file, a save with no stamp back): nothing to compare, so not changed.
 */
export function stampDiffers(held: FileStamp | null | undefined, now: FileStamp | null | undefined): boolean {
  if (!held || !now) return false;
  if (String(held.size) !== String(now.size) || held.mtimeNs !== now.mtimeNs || held.ino !== now.ino) return true;
  return !!held.sha256 && !!now.sha256 && held.sha256 !== now.sha256;
}

/** The open document's content as a new document with no file: its keys now, edits included. */
function copyOf(d: DocumentContent): DocumentContent {
  return documentContent(d.doc, { name: d.fileName, format: d.format, diagnostics: d.diagnostics });
}

/**
 * Reload from disk: the document `id` becomes the file as it is now (`content`), unedited, keeping its file, as
 * one undo step (Undo gives back the version that was open, with its unsaved mark). Unsaved edits are asked
 * about first: Reload discards them (Undo still has them) or Cancel keeps them.
 */
async function reloadOwner(id: number, content: DocumentContent, file: string, owner: NoticeText): Promise<boolean> {
  const scene = useSceneStore();
  const ws = useWorkspaceStore();
  if (ws.get(id)?.dirty) {
    const sure = await useConfirmStore().ask({
      title: { key: 'scene.reloadTitle' },
      message: { key: 'scene.reloadDirtyAsk', params: { file, owner } },
      buttons: [
        { choice: 'reload', label: 'scene.reloadDiscard' },
        { choice: 'cancel', label: 'close.cancel' },
      ],
    });
    if (sure !== 'reload') return false;
  }
  if (!(await scene.reload(id, content, `reload ${file}`))) return false;
  useNotifyStore().success({ key: 'scene.reloaded', params: { file, owner } });
  return true;
}

/**
 * `doc` with the model-name field of `own` (the actor's document): its bytes as stored when the two fields
 * are the same length, else its name fitted to `doc`'s field (a version-0001 file's is 10 bytes).
 */
function withModelNameOf(doc: VmdDocument, own: VmdDocument): VmdDocument {
  const modelName = own.modelName.length === doc.modelName.length ? own.modelName : fitNameField(decodeName(own.modelName), doc.modelName.length).field;
  return { ...doc, modelName };
}

/**
 * The files a relink names: their names, or, when the names are the same (idle.vmd moved to another folder),
 * each with its folder ("moved/idle.vmd" in place of "motions/idle.vmd"), else the notice named one file twice.
 */
function relinkNames(now: string, missing: string): { name: string; missing: string } {
  const name = basenamePath(now), was = basenamePath(missing);
  if (name.toLowerCase() !== was.toLowerCase()) return { name, missing: was };
  const withFolder = (p: string, base: string) => {
    const dir = basenamePath(dirnamePath(p));
    return dir ? `${dir}/${base}` : base;
  };
  return { name: withFolder(now, name), missing: withFolder(missing, was) };
}

/**
 * Loads `content` onto document `id` as one undo step and says so. `keepModel` (an actor): the header keeps
 * the document's own model name, and the notice says the one the file named when they differ. A document with
 * no file of its own (its file was missing when the scene opened, or never saved) becomes the file loaded, as
 * it is (scene.relink): the relink of a moved or renamed motion, with nothing to save.
 */
async function loadMotion(id: number, content: DocumentContent, file: string, shown: string, keepModel = false): Promise<boolean> {
  const scene = useSceneStore();
  if (content.path && scene.relinkable(id)) {
    const missing = scene.entries.find((e) => e.id === id)?.missing;
    if (!(await scene.relink(id, content, `load motion ${file}`))) return false;
    useWorkspaceStore().editNotice(
      'success',
      missing
        ? { key: 'scene.motionRelinked', params: { actor: shown, ...relinkNames(content.path, missing) } }
        : { key: 'scene.motionLinked', params: { name: file, actor: shown } },
    );
    return true;
  }
  const own = useWorkspaceStore().get(id)?.doc;
  const loaded = keepModel && own ? { ...content, doc: withModelNameOf(content.doc, own) } : content;
  const done = await scene.loadOnto(id, loaded, `load motion ${file}`);
  if (!done) return false;
  const text = motionLoadedText(file, shown, useWorkspaceStore().get(id)?.fileName ?? '');
  const from = decodeName(content.doc.modelName).trim(), kept = decodeName(loaded.doc.modelName).trim();
  const none = { key: 'scene.modelNameNone' as const };
  // Said as long as a warning: the file's header named another model, which the saved file will not.
  if (from !== kept) useWorkspaceStore().editNotice('success', text, { key: 'scene.motionLoadedModel', params: { from: from || none, model: kept || none } }, NOTICE_TIMEOUT_MS.warning);
  else useWorkspaceStore().editNotice('success', text);
  return true;
}

/**
 * "Loaded walk.vmd onto Miku: its motion is replaced (Undo gives it back; Save writes it to dance.vmd)", or,
 * for a document with no file (`file` ''), "… Save asks for its name)".
 */
export function motionLoadedText(name: string, actor: string, file: string): NoticeText {
  return file ? { key: 'scene.motionLoaded', params: { name, actor, file } } : { key: 'scene.motionLoadedNoFile', params: { name, actor } };
}

/**
 * Applies `pose` to actor `id`'s motion at `frame` (made active): one undo step, "apply pose FILE at N". The
 * names the model (the preview's, the actor's) lacks are left out and listed in the notice. Returns what
 * it did, or null when refused (said by the history's notice).
 */
export function applyPoseToActor(id: number, pose: VpdPose, file: string, frame: number): PoseApplied | null {
  const scene = useSceneStore();
  scene.activate(id);
  if (useWorkspaceStore().activeId !== id) return null;
  const preview = usePreviewStore();
  const outline = preview.modelOutline;
  // The figure (no model) takes every name: it has no morphs, and bones it lacks are still the motion's keys.
  const knownBones = preview.model && outline ? outline.groups.flatMap((g) => g.bones) : null;
  const knownMorphs = preview.model && outline ? outline.morphs.map((m) => m.name) : null;
  let applied: PoseApplied | null = null;
  const r = useHistoryStore().run((doc, tracks) => {
    // In English, as every edit's label; the undo button reads the file and frame back out of it in the UI's
    // language (editor/edit-labels.ts: 「ポーズ適用 01.vpd（フレーム 60）」).
    const out = applyPose(doc, tracks, pose, frame, { label: `apply pose ${file} at ${frame}`, knownBones, knownMorphs });
    if (out.ok) applied = out.value;
    return out;
  });
  if (!r || !applied) return null;
  const a: PoseApplied = applied;
  // The keys written are the selection, ready to move or adjust, as after a paste (and as the step's redo selects
  // them): the pass applied wave45.vpd and the Key panel said "No key selected".
  const doc = useWorkspaceStore().doc;
  if (doc) {
    const sets = touchedAfterApply(doc, r.diff);
    for (const kind of EDIT_KINDS) sets[kind]?.truncate(doc[kind].count);
    useSelectionStore().selectSets(sets);
  }
  const text = { key: 'scene.poseApplied' as const, params: { name: file, actor: scene.partName(id), frame, bones: a.bones, morphs: a.morphs } };
  const missing = [...a.missingBones, ...a.missingMorphs, ...a.skipped];
  // A list to read: it stays as long as a warning does.
  if (missing.length) useWorkspaceStore().editNotice('success', text, { key: 'scene.poseMissing', params: { n: missing.length, names: missing.join(', ') } }, NOTICE_TIMEOUT_MS.warning);
  else useWorkspaceStore().editNotice('success', text);
  return a;
}
