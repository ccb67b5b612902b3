/**
 * A job a dialog runs over the scene (a video rendering, a physics bake, a Whole Motion edit fitting or applying,
 * a merge reading its files) works on the documents as they were when it started. The app's commands still
 * run over its dialog (Ctrl+S saves; the native menu and the keys reach them), but those that would change or
 * take away what it works on (Close, Close Scene, Undo, Redo, Open…, New, Open Recent, a drop, another job's
 * dialog) are refused while it runs, with a notice naming the job: before, Ctrl+W during a render closed the
 * motion and the video went on with the rest pose, reported as written; Ctrl+Z during a Reduce undid the step
 * below it and the Reduce's result was thrown away without a word (new-user pass nuchaos, findings 2–4, 6).
 */
import type { CommandId } from './key-names';
import { useBakeStore } from '../stores/physics-bake';
import { useBatchStore } from '../stores/batch';
import { useMergeStore } from '../stores/merge';
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
  'fitToModel',
  'exportVideo',
]);

/** The job running now, in words ("A video is rendering"), or null. */
export function runningJob(): NoticeText | null {
  const video = useVideoExportStore();
  if (video.running || video.preparing) return { key: 'job.video' };
  if (useBakeStore().running) return { key: 'job.bake' };
  const batch = useBatchStore();
  if (batch.applying) return { key: 'job.wholeMotion', params: { op: { key: `batch.op.${batch.op}` } } };
  if (useMergeStore().applying) return { key: 'job.merge' };
  return null;
}

/**
 * True (and a notice naming the job: cancel it first, or wait) when a job runs; the caller then does nothing.
 * Ctrl+S is not held (saving the documents as they are harms no job).
 */
export function refusedWhileJob(): boolean {
  const job = runningJob();
  if (!job) return false;
  useNotifyStore().warning({ key: 'job.refused', params: { job } });
  return true;
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
