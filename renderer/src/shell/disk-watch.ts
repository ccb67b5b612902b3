/**
 * A file changed by another program while the window was in the background is told when the window gets the
 * focus back, as text editors do (Notepad++, VS Code): each open document that has a file and the version it
 * read or wrote (its stamp) is compared with the file on disk now (main's fileStamp: size, modification time
 * and inode from a stat, nothing read). A changed file asks once per version: "Reload from disk" (the
 * document becomes the file as it is, one undo step; unsaved edits are said to be discarded, Undo gives them
 * back) or "Keep the version open here" (Save then asks before writing over the other program's file, as
 * file-io.ts refuses it). A file gone from disk is said once, in a notice, and its document (or the scene) counts
 * as unsaved from then on, so Save writes it there again and closing asks. Before this, a change was noticed
 * only when the file was opened again (shell/pose-apply.ts) or saved. The open scene file is checked too, first
 * (checkSceneFile).
 */
import { useApi } from '../api';
import type { FileStamp } from '../../../shared/ipc/contract';
import { useConfirmStore } from '../stores/confirm';
import { useNotifyStore } from '../stores/notify';
import { useSceneStore } from '../stores/scene';
import { useWorkspaceStore } from '../stores/workspace';
import { stampDiffers } from './pose-apply';
import { basenamePath } from '../../../shared/scene/scene-path';

/** What has been told per document id: the version on disk asked about, or 'gone'. */
const told = new Map<number, string>();
/** What has been told of the open scene file: its path and the version on disk asked about, or 'gone'. */
let sceneTold: string | null = null;
let checking: Promise<void> | null = null;
/** The focus came back while a check ran: the file may have changed after that check read it, so one more runs. */
let again = false;

const versionOf = (s: FileStamp) => `${s.size}:${s.mtimeNs}:${s.ino}`;

/**
 * Compares every open document's file with the disk and asks about each one changed (one question at a
 * time, in tab order). Nothing is asked while another question is open (the next focus asks). Resolves when
 * done; a check already running is the one returned.
 */
export function checkOpenFiles(): Promise<void> {
  // A focus during a check: that check may have read a file before another program wrote it, so another check
  // follows it (one, however many focuses came meanwhile). Before, that focus was dropped and the change was only
  // asked about at the next one.
  if (checking) {
    again = true;
    return checking;
  }
  // Best effort: a check that fails (a bridge without the request, a closed connection) tells nothing; Save's own
  // check of the file on disk still holds.
  checking = run()
    .catch(() => undefined)
    .finally(() => {
      checking = null;
      if (again) {
        again = false;
        void checkOpenFiles();
      }
    });
  return checking;
}

async function run(): Promise<void> {
  const ws = useWorkspaceStore();
  const scene = useSceneStore();
  const confirm = useConfirmStore();
  const notify = useNotifyStore();
  // The scene file first: reloaded, it reads every document again (theirs need no question then).
  if (await checkSceneFile()) return;
  for (const id of [...ws.ids]) {
    if (confirm.current) return;
    const d = ws.get(id);
    if (!d?.path || !d.stamp) continue;
    const held = d.stamp;
    const r = await useApi().fileStamp(d.path);
    // Refused (a path main does not grant) or unreadable: nothing to tell; Save says what is wrong.
    if (!r.ok || ws.get(id) !== d || d.stamp !== held) continue;
    const file = d.fileName;
    const owner = scene.ownerText(id);
    if (r.value === null) {
      if (told.get(id) === 'gone') continue;
      told.set(id, 'gone');
      // No version of it is on disk now: it counts as unsaved (the title's *, the close question), so Save writes
      // it there again as the notice says. Before, a saved document stayed clean and Save said "no unsaved changes".
      ws.markUnsaved(id);
      notify.warning({ key: 'scene.diskGone', params: { file, owner } });
      continue;
    }
    if (!stampDiffers(held, r.value)) {
      told.delete(id);
      continue;
    }
    const version = versionOf(r.value);
    if (told.get(id) === version) continue;
    told.set(id, version);
    const dirty = d.dirty;
    const choice = await confirm.ask({
      title: { key: 'scene.diskChangedTitle' },
      message: { key: dirty ? 'scene.diskChangedDirty' : 'scene.diskChanged', params: { file, owner } },
      buttons: [
        { choice: 'reload', label: dirty ? 'scene.reloadDiscard' : 'scene.reloadFromDisk' },
        { choice: 'cancel', label: 'scene.diskKeep' },
      ],
    });
    if (choice !== 'reload' || ws.get(id) !== d) continue;
    const now = await ws.read(d.path);
    if (!now.ok) {
      notify.error(now.error);
      continue;
    }
    if (await scene.reload(id, now.value, `reload ${file}`)) notify.success({ key: 'scene.reloaded', params: { file, owner } });
  }
}

/**
 * The open scene file (a .vmdscene another program wrote: a text editor, a second window, a sync tool) is checked as
 * the documents are: changed, "The scene NAME was changed by another program. Reload it?" (Reload opens it again as
 * it is now, every document read again, the scene's unsaved changes dropped, which the question says when there are
 * any; Keep leaves the window's scene, and Save then asks before writing over the other program's file, as
 * saveTo does); gone, said once in a notice. Resolves to whether it was reloaded.
 */
async function checkSceneFile(): Promise<boolean> {
  const scene = useSceneStore();
  const held = scene.sceneFileStamp();
  const p = scene.path;
  if (!p || !held || useConfirmStore().current) return false;
  const r = await useApi().fileStamp(p);
  // Refused or unreadable, or the window moved on meanwhile (another scene, a save): nothing to tell.
  if (!r.ok || scene.path !== p || scene.sceneFileStamp() !== held) return false;
  const name = basenamePath(p);
  if (r.value === null) {
    if (sceneTold !== `${p}\0gone`) {
      // Unsaved until written again, as a document whose file is gone (Save writes it back, closing asks).
      scene.markSceneFileGone();
      useNotifyStore().warning({ key: 'scene.sceneDiskGone', params: { name } });
    }
    sceneTold = `${p}\0gone`;
    return false;
  }
  if (!stampDiffers(held, r.value)) {
    sceneTold = null;
    return false;
  }
  const version = `${p}\0${versionOf(r.value)}`;
  if (sceneTold === version) return false;
  sceneTold = version;
  const choice = await useConfirmStore().ask({
    title: { key: 'scene.diskChangedTitle' },
    message: { key: scene.anyDirty ? 'scene.sceneDiskChangedDirty' : 'scene.sceneDiskChanged', params: { name } },
    buttons: [
      { choice: 'reload', label: 'scene.sceneReload' },
      { choice: 'cancel', label: 'scene.sceneKeep' },
    ],
  });
  if (choice !== 'reload' || scene.path !== p) return false;
  if (!(await scene.reloadScene())) return false;
  // The documents are as on disk now: what was told of them is past.
  told.clear();
  sceneTold = null;
  return true;
}

/**
 * Checks when the window gets the focus back or its page becomes visible again (another program's window was
 * in front). Returns the function that stops it.
 */
export function watchDiskChanges(win: Window = window): () => void {
  const onFocus = () => void checkOpenFiles();
  const onVisible = () => {
    if (win.document.visibilityState === 'visible') void checkOpenFiles();
  };
  win.addEventListener('focus', onFocus);
  win.document.addEventListener('visibilitychange', onVisible);
  return () => {
    win.removeEventListener('focus', onFocus);
    win.document.removeEventListener('visibilitychange', onVisible);
  };
}

/** Forgets what was told (tests, and a scene closed). */
export function resetDiskWatch(): void {
  told.clear();
  sceneTold = null;
  again = false;
}
