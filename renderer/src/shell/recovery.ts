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
  });
  await offerRecovery();
}

function itemOf(c: RecoveryCopy, locale: string): NoticeText {
  const time = new Date(c.savedAt).toLocaleString(locale === 'ja' ? 'ja-JP' : 'en-US');
  const where: NoticeText = c.path ?? { key: 'recovery.untitled' };
  return c.actor ? { key: 'recovery.itemActor', params: { name: c.name, actor: c.actor, where, time, keys: c.keys } } : { key: 'recovery.item', params: { name: c.name, where, time, keys: c.keys } };
}

/** Lists the copies gone sessions left and asks what to do with them. Resolves once answered (or when there are none). */
export async function offerRecovery(): Promise<void> {
  const api = useApi();
  const notify = useNotifyStore();
  const r = await api.listRecovery();
  if (!r.ok) return void notify.error(r.error);
  for (const line of r.value.notices) notify.warning({ key: 'recovery.ignored', params: { line } });
  // The scene file's own copies are not offered here (only documents).
  const copies = r.value.copies.filter((c) => c.kind !== 'scene');
  if (copies.length === 0) return;
  const locale = useSettingsStore().locale;
  const confirm = useConfirmStore();
  const choice = await confirm.ask({
    title: { key: 'recovery.title', params: { n: copies.length } },
    message: { key: 'recovery.message' },
    items: copies.map((c) => itemOf(c, locale)),
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

/** Opens each copy as an unsaved document (the first replaces the empty window, the others join as actors or the camera). */
export async function recover(copies: readonly RecoveryCopy[]): Promise<void> {
  const api = useApi();
  const notify = useNotifyStore();
  const ws = useWorkspaceStore();
  const scene = useSceneStore();
  const names: string[] = [];
  const done: { copy: RecoveryCopy; id: number }[] = [];
  // Oldest first: the order they were kept in.
  for (const c of [...copies].reverse()) {
    const r = await api.readRecoveryCopy(c.session, c.doc);
    if (!r.ok) {
      notify.error({ ...r.error, message: `${c.name}: ${r.error.message}` });
      continue;
    }
    const fileName = c.format === 'vpd' && !/\.vpd$/i.test(c.name) ? `${c.name}.vpd` : c.name;
    const d = decodeDocument(fileName, r.value.bytes, c.path);
    if (!d.ok) {
      notify.error(d.error);
      continue;
    }
    // Its file, and the version of it the document was read as: Save checks it is still that version.
    const content = { ...d.value, fileName: c.name, stamp: c.stamp ?? null, realPath: null, saved: null };
    // A file already open here (opened before answering): the copy joins untitled, never a second owner of the file.
    if (content.path && ws.ownerOf(content.path)) content.path = null;
    if (!ws.isOpen) scene.openRead(content);
    else if (!scene.addContent(content, c.kind === 'camera' ? 'camera' : 'auto')) continue;
    const id = ws.activeId;
    if (id === null) continue;
    ws.markUnsaved(id);
    names.push(c.name);
    done.push({ copy: c, id });
  }
  if (names.length) notify.success({ key: 'recovery.recovered', params: { n: names.length, names: names.join(', ') } });
  // This page keeps its own copies of them now, even with Autosave Off (else, once the gone session's copies were
  // removed, the recovered documents would exist only in this page); the gone session's copy of each goes only once
  // this page's copy of it is written. One whose copy could not be written keeps the old one (offered again later).
  const held = await useAutosaveStore().keepNow(done.map((x) => x.id));
  for (const { copy: c, id } of done) {
    if (!held.has(id)) continue;
    const x = await api.discardRecovery(c.session, c.doc);
    if (!x.ok) notify.error(x.error);
  }
}
