// The notice a finished folder batch leaves: its counts, and when outputs were there already (kept, not
// a dry run), how many and how to replace them, in the UI's language; all skipped is not a green success.
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import type { BatchFileResult, BatchSummary, FileDone } from '../../../shared/batch/types';
import type { CodecError } from '../../../shared/vmd/errors';
import { useBatchStore } from '../../../renderer/src/stores/batch';
import { noticeLines, useNotifyStore } from '../../../renderer/src/stores/notify';

const file = (i: number, r: FileDone | { ok: false; error: CodecError }): BatchFileResult =>
  ({ input: `/in/${i}.vmd`, output: `/out/${i}.vmd`, ms: 1, ...('error' in r ? r : { ok: true, value: r }) });
const summary = (results: BatchFileResult[]): BatchSummary => ({
  jobId: 'j', total: results.length, cancelled: false, ms: 5, results,
  ok: results.filter((r) => r.ok && !r.value.skipped).length,
  failed: results.filter((r) => !r.ok).length,
  skipped: results.filter((r) => r.ok && r.value.skipped).length,
});

describe('a finished batch says why files were skipped', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('every output existed: an info notice with the count and the Overwrite option named, in both languages', () => {
    useBatchStore().finish(summary([1, 2, 3].map((i) => file(i, { skipped: true, report: { skipped: 'output exists' } }))));
    const n = useNotifyStore().items.at(-1)!;
    expect(n.kind).toBe('info');
    expect(noticeLines(n, 'en')).toMatchObject({ message: 'Done: 0 ok, 0 failed, 3 skipped', detail: 'Outputs kept because they already exist: 3. Tick “Overwrite existing outputs” to replace them' });
    expect(noticeLines(n, 'ja').detail).toBe('3 件は出力が既にあるため残しました。置き換えるには「既存の出力を上書き」をオンにしてください');
  });

  it('some written, one failed, a dry run skipped: the kind follows the failure, dry-run skips are not called existing', () => {
    useBatchStore().finish(summary([
      file(1, {}),
      file(2, { skipped: true, report: { skipped: 'output exists' } }),
      file(3, { ok: false, error: { code: 'E_VMD_MAGIC', message: 'not a VMD file' } }),
      file(4, { skipped: true, report: { dryRun: true } }),
    ]));
    const n = useNotifyStore().items.at(-1)!;
    expect(n.kind).toBe('warning');
    expect(noticeLines(n, 'en').detail).toBe('Outputs kept because they already exist: 1. Tick “Overwrite existing outputs” to replace them');
    useBatchStore().finish(summary([file(1, {}), file(2, { skipped: true, report: { dryRun: true } })]));
    const m = useNotifyStore().items.at(-1)!;
    expect(m.kind).toBe('success');
    expect(noticeLines(m, 'en').detail ?? '').toBe('');
  });
});
