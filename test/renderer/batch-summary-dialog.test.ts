// The Batch dialog's finished summary after a new user's pass (2026-12): a cancelled run says how many files
// were not processed and its bar is not full; a dry run is said as one even when every output exists; a folder
// of poses only says nothing was processed (warning tone) and why; warnings are counted; kept outputs offer
// "Run again, overwriting"; the poses not taken are named; the progress says "Starting…" and names no file
// once all are done; the output inside the input is pointed out before the run. English and Japanese.
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { nextTick } from 'vue';
import type { BatchFileResult, BatchJob, BatchSummary } from '../../shared/batch/types';
import { DEFAULT_SETTINGS, okValue, type VmdStudioApi } from '../../shared/ipc/contract';
import { setApi } from '../../renderer/src/api';
import { fakeBatchApi } from '../helpers/batch-api';
import BatchDialog from '../../renderer/src/components/BatchDialog.vue';
import { useBatchStore } from '../../renderer/src/stores/batch';
import { noticeLines, useNotifyStore } from '../../renderer/src/stores/notify';
import { useSettingsStore } from '../../renderer/src/stores/settings';

const fakeApi = fakeBatchApi;

const written = (i: number, report: Record<string, unknown> = {}): BatchFileResult => ({ input: `/in/${i}.vmd`, output: `/out/${i}.vmd`, ms: 1, ok: true, value: { report } });
const exists = (i: number): BatchFileResult => ({ input: `/in/${i}.vmd`, output: `/out/${i}.vmd`, ms: 1, ok: true, value: { skipped: true, report: { skipped: 'output exists' } } });
const sum = (results: BatchFileResult[], extra: Partial<BatchSummary> = {}): BatchSummary => ({
  jobId: 'job-1', total: results.length, cancelled: false, ms: 5, results,
  ok: results.filter((r) => r.ok && !r.value.skipped).length,
  failed: results.filter((r) => !r.ok).length,
  skipped: results.filter((r) => r.ok && r.value.skipped).length,
  ...extra,
});

describe('Batch dialog summary', () => {
  let fake: ReturnType<typeof fakeApi>;
  beforeEach(() => {
    setActivePinia(createPinia());
    fake = fakeApi();
    setApi(fake.api);
  });
  async function finished(s: BatchSummary, op: 'mirror' | 'trim' = 'mirror') {
    const batch = useBatchStore();
    batch.open = true;
    batch.op = op;
    batch.ranOp = op;
    batch.inputDir = '/in';
    batch.outputDir = '/out';
    batch.ranInputDir = '/in';
    const w = mount(BatchDialog);
    batch.jobId = 'job-1';
    batch.finish(s);
    await nextTick();
    const text = (id: string) => w.get(`[data-testid="${id}"]`).text();
    const notice = () => useNotifyStore().items.at(-1)!;
    return { w, batch, text, notice };
  }
  const ja = async () => {
    useSettingsStore().setLocale('ja');
    await nextTick();
  };

  it('cancelled: how many were processed and how many not, and the bar shows the share done', async () => {
    const { w, text, notice } = await finished(sum([written(1), written(2)], { total: 12, cancelled: true }));
    expect(text('batch-summary')).toBe('Cancelled: 2 files processed, 10 not processed');
    expect((w.get('[data-testid="batch-bar"]').element as HTMLProgressElement).value).toBeCloseTo(2 / 12);
    expect(notice().kind).toBe('warning');
    await ja();
    expect(text('batch-summary')).toBe('中止しました: 2 件を処理、10 件は未処理');
  });

  it('a dry run is said as one when every output exists, rows and notice alike', async () => {
    const { text, notice } = await finished(sum([exists(1), exists(2)], { dryRun: true }));
    expect(text('batch-summary')).toBe('Dry run, nothing written: 0 would be written, 0 failed, 2 would be skipped (output exists)');
    expect(noticeLines(notice(), 'en').message).toBe('Dry run, nothing written: 0 would be written, 0 failed, 2 would be skipped (output exists)');
    await ja();
    expect(text('batch-summary')).toBe('試行のみ（何も書き込んでいません）: 書き込み予定 0、失敗 0、スキップ予定（出力あり）2');
  });

  it('a folder of poses only: nothing processed, in a warning, with why and the poses named', async () => {
    const { w, text, notice } = await finished(sum([], { notTaken: 7, notTakenFiles: ['/in/p1.vpd', '/in/p2.vpd', '/in/sub/p3.vpd', '/in/p4.vpd', '/in/p5.vpd', '/in/p6.vpd', '/in/p7.vpd'] }));
    expect(text('batch-summary')).toBe('Nothing processed: the folder has no file this operation takes (.vmd motions)');
    expect(w.get('[data-testid="batch-summary"]').classes()).toContain('warns');
    expect(notice().kind).toBe('warning');
    expect(text('batch-not-taken-names')).toBe('Not processed: p1.vpd, p2.vpd, sub/p3.vpd, p4.vpd, p5.vpd and 2 more');
    await ja();
    expect(text('batch-summary')).toBe('何も処理していません: フォルダにこの操作の対象ファイル（.vmd モーション）がありません');
    expect(text('batch-not-taken-names')).toBe('処理しなかったファイル: p1.vpd, p2.vpd, sub/p3.vpd, p4.vpd, p5.vpd ほか 2 件');
  });

  it('warnings: "done with warnings" counted in the summary and the notice, which is a warning', async () => {
    const { text, notice } = await finished(sum([written(1, { warnings: ['--from 5000 is after the last key'] }), written(2)]), 'trim');
    expect(text('batch-summary')).toBe('Done with warnings: 2 ok (1 with warnings), 0 failed, 0 skipped');
    expect(text('batch-warned')).toBe('1 file with warnings (⚠ in the list)');
    expect(notice().kind).toBe('warning');
    await ja();
    expect(text('batch-summary')).toBe('完了（警告あり）: 成功 2（うち警告 1）、失敗 0、スキップ 0');
  });

  it('outputs kept because they exist: "Run again, overwriting" ticks Overwrite and starts the same job', async () => {
    const { w, batch } = await finished(sum([exists(1), exists(2)]));
    const button = w.get('[data-testid="batch-rerun-overwrite"]');
    expect(button.text()).toBe('Run again, overwriting');
    await button.trigger('click');
    await nextTick();
    expect(batch.overwrite).toBe(true);
    expect(fake.jobs.map((j) => [j.inputDir, j.outputDir, j.overwrite])).toEqual([['/in', '/out', true]]);
    await ja();
    batch.finish(sum([exists(1)], { jobId: 'job-1' }));
    batch.jobId = 'job-1';
    await nextTick();
    expect(w.get('[data-testid="batch-rerun-overwrite"]').text()).toBe('上書きしてもう一度実行');
  });

  it("names the folders left out as an earlier run's outputs", async () => {
    const { text } = await finished(sum([written(1)], { earlierOutputs: ['/in/反転済み', '/in/反転済み2'] }));
    expect(text('batch-earlier-outputs')).toBe("2 folders left out as outputs of an earlier run (inside the input folder, each file a same-named copy of an input): 反転済み, 反転済み2");
    await ja();
    expect(text('batch-earlier-outputs')).toBe('以前の実行の出力とみられるフォルダ 2 件を除外しました（入力フォルダ内にあり、どのファイルも入力と同じ名前の複製）: 反転済み, 反転済み2');
  });

  it('no kept output, no such button', async () => {
    const { w } = await finished(sum([written(1)]));
    expect(w.find('[data-testid="batch-rerun-overwrite"]').exists()).toBe(false);
  });

  it('progress: "Starting…" before the first file, several files at once counted, no name once all are done', async () => {
    const batch = useBatchStore();
    batch.open = true;
    batch.inputDir = '/in';
    batch.outputDir = '/out';
    const w = mount(BatchDialog);
    batch.jobId = 'job-1';
    batch.progress = { jobId: 'job-1', done: 0, total: 12, failed: 0, currentFile: null, running: 0, bytesDone: 0, bytesTotal: 100, elapsedMs: 0 };
    await nextTick();
    expect(w.get('[data-testid="batch-starting"]').text()).toBe('Starting…');
    batch.progress = { ...batch.progress, done: 3, currentFile: '/in/ダンス その5.vmd', running: 4 };
    await nextTick();
    expect(w.find('[data-testid="batch-starting"]').exists()).toBe(false);
    expect(w.get('[data-testid="batch-current"]').text()).toBe('Processing: ダンス その5.vmd and 3 more at once');
    batch.progress = { ...batch.progress, done: 12, currentFile: '/in/ダンス その9.vmd', running: 0 };
    await nextTick();
    expect(w.find('[data-testid="batch-current"]').exists()).toBe(false);
    await ja();
    batch.progress = { ...batch.progress, done: 0, currentFile: null };
    await nextTick();
    expect(w.get('[data-testid="batch-starting"]').text()).toBe('開始しています…');
  });

  it('an output folder inside the input folder, sub-folders included, is pointed out before the run', async () => {
    const batch = useBatchStore();
    batch.open = true;
    batch.inputDir = '/m/モーション集';
    batch.outputDir = '/m/モーション集/反転済み2';
    batch.recursive = true;
    const w = mount(BatchDialog);
    await nextTick();
    expect(w.get('[data-testid="batch-output-inside"]').text()).toContain('The output folder is inside the input folder');
    batch.outputDir = '/m/モーション集2';
    await nextTick();
    expect(w.find('[data-testid="batch-output-inside"]').exists()).toBe(false);
  });
});
