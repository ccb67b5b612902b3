/**
 * A bridge for the Batch window's tests: every call answers ok; startBatch records its job and answers
 * job-1, job-2, … in order; setSettings answers the settings patched; listRecent an empty list; `on…`
 * subscriptions do nothing. (A stand-in for main's services, which the electron tests run for real.)
 */
import type { BatchJob } from '../../shared/batch/types';
import { DEFAULT_SETTINGS, okValue, type VmdStudioApi } from '../../shared/ipc/contract';

export function fakeBatchApi(): { api: VmdStudioApi; jobs: BatchJob[] } {
  const jobs: BatchJob[] = [];
  const api = new Proxy({} as Record<string, unknown>, {
    get(_t, name: string) {
      if (name.startsWith('on')) return () => () => {};
      return async (...args: unknown[]) => {
        if (name === 'startBatch') {
          jobs.push(args[0] as BatchJob);
          return okValue({ jobId: `job-${jobs.length}` });
        }
        if (name === 'setSettings') return okValue({ ...DEFAULT_SETTINGS, ...(args[0] as object) });
        if (name === 'listRecent') return okValue([]);
        return okValue(undefined);
      };
    },
  });
  return { api: api as unknown as VmdStudioApi, jobs };
}
