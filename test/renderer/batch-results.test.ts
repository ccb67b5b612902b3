// The batch report file by file (issue 30 §4): each file's status, keys before → after for a fit, kept /
// added / dropped for an edit, and a failed file's error — in the UI's language.
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount } from '@vue/test-utils';
import BatchResults from '../../renderer/src/components/BatchResults.vue';
import { useSettingsStore } from '../../renderer/src/stores/settings';
import type { BatchSummary } from '../../shared/batch/types';

const summary: BatchSummary = {
  jobId: 'j', total: 3, ok: 2, failed: 1, skipped: 0, cancelled: false, ms: 10,
  results: [
    { input: '/in/a.vmd', output: '/out/a.vmd', ok: true, ms: 1, value: { report: { kept: 600, added: 489, dropped: 1000, keysBefore: 2089, keysAfter: 1089 } } },
    { input: '/in/b.vmd', output: '/out/b.vmd', ok: true, ms: 1, value: { report: { kept: 10, added: 0, dropped: 2 } } },
    { input: '/in/c.vmd', output: null, ok: false, ms: 1, error: { code: 'E_VMD_TRUNCATED', message: 'bone block cut short', offset: 54 } },
  ],
};

describe('BatchResults', () => {
  beforeEach(() => setActivePinia(createPinia()));
  it('lists every file with its keys or its error', () => {
    const w = mount(BatchResults, { props: { summary } });
    const rows = w.findAll('[data-testid="batch-result"]');
    expect(rows.map((r) => r.attributes('data-status'))).toEqual(['ok', 'ok', 'failed']);
    expect(rows[0].get('[data-testid="batch-result-keys"]').text()).toBe('2089 → 1089');
    expect(rows[1].get('[data-testid="batch-result-keys"]').text()).toBe('kept 10, added 0, dropped 2');
    // A damaged file leads with a plain sentence; the reader's own line is the cell's tooltip.
    expect(rows[2].text()).toContain('E_VMD_TRUNCATED: The file is cut short or damaged: it ends too early (at byte 54)');
    expect(rows[2].get('td.error').attributes('title')).toBe('bone block cut short');
    expect(rows[0].text()).toContain('a.vmd');
    const s = useSettingsStore();
    s.settings = { ...s.settings, locale: 'ja' };
    return w.vm.$nextTick().then(() => {
      expect(w.findAll('[data-testid="batch-result"]')[1].text()).toContain('維持 10');
      // The failed file's error in Japanese too, as the "failed files" table below it says it (it was
      // the main process's English line: "E_VMD_MAGIC: not a VMD file: …" above "VMD ファイルではありません").
      const failed = w.findAll('[data-testid="batch-result"]')[2].text();
      expect(failed).toContain('E_VMD_TRUNCATED');
      expect(failed).toContain('ファイルが途中で切れているか壊れています');
      expect(failed).not.toContain('bone block cut short');
    });
  });
});
