/**
 * Recovery at start: when a window or page that is gone (crashed, killed, closed without saving) left copies of its
 * unsaved documents (stores/autosave.ts, electron/services/recovery-service.ts), one question lists them (name, file,
 * when kept, keys) with Recover, Discard… (asked again: the copies are deleted) and Later (kept, asked next start).
 *
 * Recover opens each as an unsaved document that keeps its file and the version of that file it was read as: its
 * Save writes over the file only when the file on disk is still that version (else the usual "changed on disk"
 * question: Overwrite keeping the other as .bak, Save As…, Cancel), and keeps the file it replaces as a .bak (first
 * save after an open). That is the safest choice that still saves where the person expects: nothing on disk is
 * replaced without the usual checks. A copy of a document that had no file opens untitled; Save asks for a name.
 * Once they are open and this page has kept its own copies of them (with Autosave Off too: written once, then
 * removed when saved or closed), the gone session's copies are removed.
 *
 * A scene's layout copy (the scene file Save Scene would have written, its edited and never-saved documents named by
 * their copies: shared/scene/recovery-layout.ts) opens first, as the scene it was: its actors on their models with
 * their motions (an edited one from its copy, unsaved; an unedited one read from its file), the camera, the music and
 * its offset, over its scene file (or untitled). A window holds one scene: the newest layout is recovered, and a
 * second gone session's scene (another window's) is left for the next start.
 */
import { useApi } from '../api';
import { decodeDocument } from '../stores/workspace';
import { useWorkspaceStore } from '../stores/workspace';
import { useSceneStore } from '../stores/scene';
import { useConfirmStore } from '../stores/confirm';
import { useNotifyStore, type NoticeText } from '../stores/notify';
import { useSettingsStore } from '../stores/settings';
import { useAutosaveStore } from '../stores/autosave';
import type { RecoveryCopy } from '../../../shared/ipc/recovery-types';
import type { DocumentContent } from '../stores/workspace';
import { readRecoveryLayout, SCENE_COPY_DOC } from '../../../shared/scene/recovery-layout';

/** Begins autosave for this page (its recovery session), then asks about what gone sessions left. */
export async function startAutosaveAndOfferRecovery(): Promise<void> {
  const scene = useSceneStore();
  await useAutosaveStore().start({
    actorOf: (id) => {
      // The actor it danced as ("Miku", "#2"); a camera's document is named by its file already.
      const e = scene.entries.find((x) => x.id === id);
      const name = e?.kind === 'actor' ? scene.partName(id) : '';
      return name && name !== useWorkspaceStore().get(id)?.fileName ? name : null;
    },
    layout: () => scene.recoveryLayout(),
  });
  await offerRecovery();
}

function itemOf(c: RecoveryCopy, locale: string): NoticeText {
  const time = new Date(c.savedAt).toLocaleString(locale === 'ja' ? 'ja-JP' : 'en-US');
  const where: NoticeText = c.path ?? { key: 'recovery.untitled' };
  // A scene's layout: its actors counted (the copy's `keys` holds them).
  if (c.kind === 'scene') return { key: 'recovery.itemScene', params: { name: c.path ? c.name : { key: 'scene.untitled' }, where, time, actors: c.keys } };
  return c.actor ? { key: 'recovery.itemActor', params: { name: c.name, actor: c.actor, where, time, keys: c.keys } } : { key: 'recovery.item', params: { name: c.name, where, time, keys: c.keys } };
}

/** Lists the copies gone sessions left and asks what to do with them. Resolves once answered (or when there are none). */
export async function offerRecovery(): Promise<void> {
  const api = useApi();
  const notify = useNotifyStore();
  const r = await api.listRecovery();
  if (!r.ok) return void notify.error(r.error);
  for (const line of r.value.notices) notify.warning({ key: 'recovery.ignored', params: { line } });
  const copies = r.value.copies;
  if (copies.length === 0) return;
  const locale = useSettingsStore().locale;
  const confirm = useConfirmStore();
  // A scene among them is said in the title and the message, and listed first.
  const scenes = copies.filter((c) => c.kind === 'scene');
  const docs = copies.filter((c) => c.kind !== 'scene');
  const title: NoticeText = scenes.length ? (docs.length ? { key: 'recovery.titleScene', params: { n: docs.length } } : { key: 'recovery.titleSceneOnly' }) : { key: 'recovery.title', params: { n: docs.length } };
  const choice = await confirm.ask({
    title,
    message: { key: scenes.length ? 'recovery.messageScene' : 'recovery.message' },
    items: [...scenes, ...docs].map((c) => itemOf(c, locale)),
    buttons: [
      { choice: 'recover', label: 'recovery.recover' },
      { choice: 'discard', label: 'recovery.discard' },
      { choice: 'cancel', label: 'recovery.later' },
    ],
  });
  if (choice === 'recover') return recover(copies);
  if (choice !== 'discard') return;
  const sure = await confirm.ask({
    title: { key: 'recovery.discardTitle' },
    message: { key: 'recovery.discardAsk', params: { n: copies.length } },
    buttons: [
      { choice: 'discard', label: 'recovery.discardYes' },
      { choice: 'cancel', label: 'close.cancel' },
    ],
  });
  if (sure !== 'discard') return offerRecovery();
  for (const s of new Set(copies.map((c) => c.session))) {
    const d = await api.discardRecovery(s);
    if (!d.ok) notify.error(d.error);
  }
}

/** A document's copy as an unsaved document's content (its file and the version of it it was read as), or null (said). */
async function contentOfCopy(c: RecoveryCopy): Promise<DocumentContent | null> {
  const notify = useNotifyStore();
  const r = await useApi().readRecoveryCopy(c.session, c.doc);
  if (!r.ok) {
    notify.error({ ...r.error, message: `${c.name}: ${r.error.message}` });
    return null;
  }
  const fileName = c.format === 'vpd' && !/\.vpd$/i.test(c.name) ? `${c.name}.vpd` : c.name;
  const d = decodeDocument(fileName, r.value.bytes, c.path);
  if (!d.ok) {
    notify.error(d.error);
    return null;
  }
  // Its file, and the version of it the document was read as: Save checks it is still that version.
  const content = { ...d.value, fileName: c.name, stamp: c.stamp ?? null, realPath: null, saved: null };
  // A file already open here (opened before answering): the copy joins untitled, never a second owner of the file.
  if (content.path && useWorkspaceStore().ownerOf(content.path)) content.path = null;
  return content;
}

/**
 * Opens the newest scene layout among `copies` (with the document copies it names), then each other copy as an
 * unsaved document (the first replaces the empty window, the others join as actors or the camera). Copies of another
 * gone session's scene stay for the next start.
 */
export async function recover(copies: readonly RecoveryCopy[]): Promise<void> {
  const api = useApi();
  const notify = useNotifyStore();
  const ws = useWorkspaceStore();
  const scene = useSceneStore();
  const names: string[] = [];
  const done: { copy: RecoveryCopy; id: number }[] = [];
  // Listed newest first: the newest scene is the one recovered; other scenes' sessions wait.
  const layoutCopy = copies.find((c) => c.kind === 'scene') ?? null;
  const waiting = new Set(copies.filter((c) => c.kind === 'scene' && c !== layoutCopy).map((c) => c.session));
  const used = new Set<RecoveryCopy>();
  let layoutOpened = false;
  if (layoutCopy) {
    used.add(layoutCopy);
    const r = await api.readRecoveryCopy(layoutCopy.session, layoutCopy.doc);
    const read = r.ok ? readRecoveryLayout(r.value.bytes, layoutCopy.path) : r;
    if (!read.ok) notify.error({ ...read.error, message: `${layoutCopy.name}: ${read.error.message}` });
    else {
      const { scene: layout, actorCopies, cameraCopy } = read.value;
      // Each document the layout names by its copy, from that copy (by actor, the camera after them).
      const named = new Map<number, string>(actorCopies);
      if (cameraCopy) named.set(layout.actors.length, cameraCopy);
      const given = new Map<number, DocumentContent>();
      const givenCopy = new Map<number, RecoveryCopy>();
      for (const [index, doc] of named) {
        const c = copies.find((x) => x.session === layoutCopy.session && x.doc === doc && x.kind !== 'scene');
        if (!c) continue;
        used.add(c);
        const content = await contentOfCopy(c);
        if (!content) continue;
        given.set(index, content);
        givenCopy.set(index, c);
      }
      if (!(await scene.openRecovered(layout, layoutCopy.path, layoutCopy.stamp ?? null, given))) return;
      layoutOpened = true;
      const ids = [...scene.actors.map((e) => e.id), ...(scene.cameraEntry ? [scene.cameraEntry.id] : [])];
      for (const [index, c] of givenCopy) {
        if (ids[index] === undefined) continue;
        names.push(c.name);
        done.push({ copy: c, id: ids[index] });
      }
    }
  }
  // Oldest first: the order they were kept in.
  for (const c of [...copies].reverse()) {
    if (used.has(c) || c.kind === 'scene' || waiting.has(c.session)) continue;
    const content = await contentOfCopy(c);
    if (!content) continue;
    if (!ws.isOpen) scene.openRead(content);
    else if (!scene.addContent(content, c.kind === 'camera' ? 'camera' : 'auto')) continue;
    const id = ws.activeId;
    if (id === null) continue;
    ws.markUnsaved(id);
    names.push(c.name);
    done.push({ copy: c, id });
  }
  if (layoutCopy && layoutOpened) {
    const sceneName: NoticeText = layoutCopy.path ? layoutCopy.name : { key: 'scene.untitled' };
    notify.success({ key: 'recovery.recoveredScene', params: { scene: sceneName, n: names.length, names: names.join(', ') || '—' } });
  } else if (names.length) notify.success({ key: 'recovery.recovered', params: { n: names.length, names: names.join(', ') } });
  // This page keeps its own copies of them now, even with Autosave Off (else, once the gone session's copies were
  // removed, the recovered documents would exist only in this page); the gone session's copy of each goes only once
  // this page's copy of it is written. One whose copy could not be written keeps the old one (offered again later).
  const held = await useAutosaveStore().keepNow(done.map((x) => x.id), layoutOpened);
  for (const { copy: c, id } of done) {
    if (!held.has(id)) continue;
    const x = await api.discardRecovery(c.session, c.doc);
    if (!x.ok) notify.error(x.error);
  }
  // The scene's layout goes once this page keeps its own (the scene as recovered, or as changed since).
  if (layoutCopy && layoutOpened && held.has(SCENE_COPY_DOC)) {
    const x = await api.discardRecovery(layoutCopy.session, layoutCopy.doc);
    if (!x.ok) notify.error(x.error);
  }
}
