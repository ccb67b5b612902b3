/**
 * Closing the desktop window while a job runs (fixnotdone 3): main hands the close to the page when something is
 * unsaved or a job runs (DocumentState.busy, reported by job-guard.ts reportJobs). The page asks "A video is
 * rendering. Stop it and close?": Stop and Close cancels the job and, with nothing unsaved, closes; Cancel keeps
 * both. Before, a render with nothing unsaved closed with the window mid-frame, and main was never told of the job.
 * And a second folder Batch run or a capture's Import while a job runs is refused with the job's notice
 * (fixnotdone 4), as Close and Undo are.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, okValue, type DocumentState, type VmdStudioApi } from '../../../shared/ipc/contract';
import { setApi } from '../../../renderer/src/api';
import { runCommand } from '../../../renderer/src/shell/commands';
import { reportJobs } from '../../../renderer/src/shell/job-guard';
import { useConfirmStore } from '../../../renderer/src/stores/confirm';
import { renderText } from '../../../renderer/src/stores/notify';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { useVideoExportStore } from '../../../renderer/src/stores/video-export';
import { corpusDir } from '../../helpers/corpus';

const STAND = path.join(corpusDir, 'gene/motion/stand.vmd');

function fakeApi() {
  const calls: { name: string; args: unknown[] }[] = [];
  const api = new Proxy({} as Record<string, unknown>, {
    get(_t, name: string) {
      return async (...args: unknown[]) => {
        calls.push({ name, args });
        if (name === 'openFile') {
          const p = args[0] as string;
          return okValue({ path: p, name: path.basename(p), bytes: new Uint8Array(readFileSync(STAND)) });
        }
        if (name === 'listRecent') return okValue([]);
        if (name === 'setSettings') return okValue({ ...DEFAULT_SETTINGS, ...(args[0] as object) });
        return okValue(undefined);
      };
    },
  });
  return { api: api as unknown as VmdStudioApi, calls };
}

let fake: ReturnType<typeof fakeApi>;
beforeEach(async () => {
  setActivePinia(createPinia());
  fake = fakeApi();
  setApi(fake.api);
  expect(await useSceneStore().openPath('/m/walk.vmd')).toBe(true);
});

const lastState = () => fake.calls.filter((c) => c.name === 'setDocumentState').at(-1)!.args[0] as DocumentState;
const RUNNING = { done: 37, total: 151, fps: 28, etaMs: null };

describe('closing the window while a video renders, with nothing unsaved', () => {
  it('main is told a job runs (busy), and told again when it ends', async () => {
    const stop = reportJobs();
    const video = useVideoExportStore();
    expect(lastState().busy).toBeUndefined();
    video.running = RUNNING as typeof video.running;
    await vi.waitFor(() => expect(lastState()).toMatchObject({ name: 'walk.vmd', dirty: false, busy: true }));
    video.running = null;
    await vi.waitFor(() => expect(lastState().busy).toBeUndefined());
    stop();
  });

  it('asks "A video is rendering. Stop it and close?" (in Japanese too): Cancel keeps the window and the render; Stop and Close cancels it and closes', async () => {
    const video = useVideoExportStore();
    video.running = RUNNING as typeof video.running;
    const cancel = vi.spyOn(video, 'cancel');
    let closing = runCommand('saveAndClose');
    await vi.waitFor(() => expect(useConfirmStore().current).not.toBeNull());
    const q = useConfirmStore().current!;
    expect(renderText(q.message, 'en')).toBe('A video is rendering. Stop it and close?');
    expect(renderText(q.message, 'ja')).toBe('動画を書き出し中です。中止して閉じますか？');
    expect(q.buttons.map((b) => renderText({ key: b.label }, 'en'))).toEqual(['Stop and Close', 'Cancel']);
    useConfirmStore().answer('cancel');
    await closing;
    expect(cancel).not.toHaveBeenCalled();
    expect(fake.calls.map((c) => c.name)).not.toContain('closeWindow');

    closing = runCommand('saveAndClose');
    await vi.waitFor(() => expect(useConfirmStore().current).not.toBeNull());
    useConfirmStore().answer('stop');
    await vi.waitFor(() => expect(cancel).toHaveBeenCalledTimes(1));
    // The render ends on its cancel (here by hand: no real render runs): then the window closes, with no question
    // about unsaved changes (there are none).
    video.running = null;
    await closing;
    expect(useConfirmStore().current).toBeNull();
    expect(fake.calls.map((c) => c.name)).toContain('closeWindow');
  });

  it('with nothing running the close goes on as before (no job question)', async () => {
    const closing = runCommand('saveAndClose');
    await closing;
    expect(fake.calls.map((c) => c.name)).toContain('closeWindow');
    expect(useSettingsStore().appInfo).toBeNull();
  });
});

describe('a new job while one runs (fixnotdone 4)', () => {
  it('a folder Batch run during a render, or a second one during a batch, is refused with the job’s notice; none starts', async () => {
    const { useBatchStore } = await import('../../../renderer/src/stores/batch');
    const { startFolderBatch } = await import('../../../renderer/src/shell/job-guard');
    const { noticeLines, useNotifyStore } = await import('../../../renderer/src/stores/notify');
    const batch = useBatchStore();
    batch.inputDir = '/in';
    batch.outputDir = '/out';
    const video = useVideoExportStore();
    video.running = RUNNING as typeof video.running;
    expect(await startFolderBatch()).toBe(false);
    expect(noticeLines(useNotifyStore().items.at(-1)!, 'en').message).toBe('A video is rendering: cancel it first, or wait until it ends');
    video.running = null;
    // A folder batch running (its job id, no summary yet): a second run is refused naming it.
    batch.jobId = 'job-1';
    batch.summary = null;
    expect(await startFolderBatch()).toBe(false);
    expect(noticeLines(useNotifyStore().items.at(-1)!, 'en').message).toBe('A folder batch is running: cancel it first, or wait until it ends');
    expect(noticeLines(useNotifyStore().items.at(-1)!, 'ja').message).toBe('フォルダの一括処理を実行中です。先にキャンセルするか、終わるまでお待ちください');
    expect(fake.calls.map((c) => c.name)).not.toContain('startBatch');
  });

  it('a capture’s Import and Load onto the actor during a render are refused with the render’s notice; the scene keeps its one actor', async () => {
    const { importCapture, loadCaptureOnto } = await import('../../../renderer/src/shell/app-actions');
    const { noticeLines, useNotifyStore } = await import('../../../renderer/src/stores/notify');
    const video = useVideoExportStore();
    video.running = RUNNING as typeof video.running;
    for (const run of [importCapture, loadCaptureOnto]) {
      const before = useNotifyStore().items.length;
      expect(await run()).toBe(false);
      expect(useNotifyStore().items.length).toBe(before + 1);
      expect(noticeLines(useNotifyStore().items.at(-1)!, 'en').message).toBe('A video is rendering: cancel it first, or wait until it ends');
    }
    expect(useSceneStore().entries).toHaveLength(1);
    expect(fake.calls.map((c) => c.name)).not.toContain('importMocap');
  });
});
