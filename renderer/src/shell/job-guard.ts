/**
 * A job a dialog runs over the scene (a video rendering, a physics bake, a Whole Motion edit fitting or applying,
 * a merge reading its files) works on the documents as they were when it started. The app's commands still
 * run over its dialog (Ctrl+S saves; the native menu and the keys reach them), but those that would change or
 * take away what it works on (Close, Close Scene, Undo, Redo, Open…, New, Open Recent, a drop, another job's
 * dialog) are refused while it runs, with a notice naming the job: before, Ctrl+W during a render closed the
 * motion and the video went on with the rest pose, reported as written; Ctrl+Z during a Reduce undid the step
 * below it and the Reduce's result was thrown away without a word (new-user pass nuchaos, findings 2–4, 6).
 */
import { watch } from 'vue';
import type { CommandId } from './key-names';
import { useBakeStore } from '../stores/physics-bake';
import { useIkBakeStore } from '../stores/ik-bake';
import { useBatchStore } from '../stores/batch';
import { useConfirmStore } from '../stores/confirm';
import { useFitPreviewStore } from '../stores/fit-preview';
import { useMergeStore } from '../stores/merge';
import { useMocapStore } from '../stores/mocap';
import { useNotifyStore, type NoticeText } from '../stores/notify';
import { useSceneStore } from '../stores/scene';
import { useSettingsStore } from '../stores/settings';
import { useWorkspaceStore } from '../stores/workspace';
import { useVideoExportStore } from '../stores/video-export';

/** Commands that change or take away what a running job works on (or open another job's dialog over it). */
export const HELD_BY_JOB: ReadonlySet<CommandId> = new Set<CommandId>([
  'open',
  'openRecent',
  'openScene',
  'newMotion',
  'closeDocument',
  'closeScene',
  'undo',
  'redo',
  'mergeWith',
  'wholeMotion',
  'batch',
  'bakePhysics',
  'bakeIk',
  'fitToModel',
  'exportVideo',
]);

/** The job running now, in words ("A video is rendering"), or null. */
export function runningJob(): NoticeText | null {
  const video = useVideoExportStore();
  if (video.running || video.preparing) return { key: 'job.video' };
  if (useBakeStore().running) return { key: 'job.bake' };
  if (useIkBakeStore().running) return { key: 'job.ikBake' };
  const batch = useBatchStore();
  if (batch.applying) return { key: 'job.wholeMotion', params: { op: { key: `batch.op.${batch.op}` } } };
  if (useMergeStore().applying) return { key: 'job.merge' };
  return null;
}

/**
 * Any job the window runs, in words: one on the open documents (runningJob), or one on files — a folder batch, a
 * capture being converted — which the held commands need not wait for, but which a second job must not start over
 * and closing the window would cut off halfway. Null when none runs.
 */
export function windowJob(): NoticeText | null {
  const held = runningJob();
  if (held) return held;
  if (useBatchStore().running) return { key: 'job.batch' };
  if (useMocapStore().running) return { key: 'job.capture' };
  return null;
}

/**
 * True (and a notice naming the job: cancel it first, or wait) when a job runs; the caller then does nothing.
 * Ctrl+S is not held (saving the documents as they are harms no job). `anyJob`: a folder batch or a capture's
 * conversion counts too (a new job's start: a second folder Batch run, a capture's Import: fixnotdone 4).
 */
export function refusedWhileJob(o: { anyJob?: boolean } = {}): boolean {
  const job = o.anyJob ? windowJob() : runningJob();
  if (!job) return false;
  useNotifyStore().warning({ key: 'job.refused', params: { job } });
  return true;
}

/**
 * A folder Batch run (the dialog's Start, "Run again, overwriting"): not over another job (a video rendering, a bake,
 * a fit, another folder batch, a capture converting), refused with the job's notice as Close and Undo are (new-user
 * fix fixnotdone 4: a second run started freely beside the first). Resolves to whether it started.
 */
export function startFolderBatch(how: 'start' | 'rerunOverwriting' = 'start'): Promise<boolean> {
  if (refusedWhileJob({ anyJob: true })) return Promise.resolve(false);
  const batch = useBatchStore();
  return how === 'start' ? batch.start() : batch.rerunOverwriting();
}

/** Waits until `done()` holds, at most `ms` (a job that does not end on its cancel is not waited for past it). */
function until(done: () => boolean, ms: number): Promise<void> {
  if (done()) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = watch(done, (d) => d && end());
    const timer = setTimeout(end, ms);
    function end() {
      clearTimeout(timer);
      stop();
      resolve();
    }
  });
}

/** How long Stop and Close waits for the stopped job to end before the window closes anyway. */
const STOP_WAIT_MS = 10_000;

/**
 * Before the window closes (main hands its close here: commands.ts saveAndClose) while a job runs: "A video is
 * rendering. Stop it and close?", Stop and Close / Cancel. Stop cancels every job (the render's partial file is
 * removed as its own Cancel removes it) and waits for them to end. Before, a render with nothing unsaved closed with
 * the window mid-frame; with something unsaved the close was refused with a notice (fixnotdone 3). True when the
 * window may go on closing (no job, or stopped).
 */
export async function askStopJobForClose(): Promise<boolean> {
  const job = windowJob();
  if (!job) return true;
  const choice = await useConfirmStore().ask({
    title: { key: 'job.closeTitle' },
    message: { key: 'job.closeAsk', params: { job } },
    buttons: [
      { choice: 'stop', label: 'job.stopAndClose' },
      { choice: 'cancel', label: 'close.cancel' },
    ],
  });
  if (choice !== 'stop') return false;
  useVideoExportStore().cancel();
  useBakeStore().cancel();
  // A Whole Motion fit: its compute resolves as cancelled and nothing is committed.
  useFitPreviewStore().cancel();
  const batch = useBatchStore();
  if (batch.running) await batch.cancel();
  const mocap = useMocapStore();
  if (mocap.running) await mocap.cancel();
  // A merge reading its files has no Cancel: it ends on its own.
  await until(() => windowJob() === null, STOP_WAIT_MS);
  return true;
}

/**
 * Tells main whether a job runs (DocumentState.busy, through the scene store's report), so that closing the desktop
 * window asks even with nothing unsaved (electron/close-guard.ts). Returns the watch's stop.
 */
export function reportJobs(): () => void {
  return watch(() => windowJob() !== null, (busy) => useSceneStore().setJobBusy(busy), { immediate: true });
}

/**
 * Whether the browser's leave-page prompt is due when the tab is closed or reloaded: something unsaved, or a job
 * running (leaving ends it: a render stopped halfway, a bake or a fit thrown away), which before went without a
 * word. Never under Electron: a prevented unload there would keep the window open without a question (main hands
 * the close to the in-app question, commands.ts saveAndClose).
 */
export function holdsUnload(): boolean {
  if (useSettingsStore().appInfo?.mode === 'electron') return false;
  return useWorkspaceStore().dirty || useSceneStore().anyDirty || runningJob() !== null;
}
