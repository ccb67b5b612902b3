// The batch report file by file (issue 30 §4): each file's status, keys before → after for a fit, kept /
// added / dropped for an edit, and a failed file's error — in the UI's language. One list: each file once,
// by its path under the input folder, failures first, each error said once (no file name again, no code first).
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount } from '@vue/test-utils';
import BatchResults from '../../renderer/src/components/BatchResults.vue';
import { useSettingsStore } from '../../renderer/src/stores/settings';
import type { BatchSummary } from '../../shared/batch/types';
import { buildVmd } from '../../shared/vmd';
import { shift } from '../../shared/motion-ops';

const summary: BatchSummary = {
  jobId: 'j', total: 3, ok: 2, failed: 1, skipped: 0, cancelled: false, ms: 10,
  results: [
    { input: '/in/a.vmd', output: '/out/a.vmd', ok: true, ms: 1, value: { report: { kept: 600, added: 489, dropped: 1000, keysBefore: 2089, keysAfter: 1089 } } },
    { input: '/in/b.vmd', output: '/out/b.vmd', ok: true, ms: 1, value: { report: { kept: 10, added: 0, dropped: 2 } } },
    { input: '/in/c.vmd', output: null, ok: false, ms: 1, error: { code: 'E_VMD_TRUNCATED', message: 'bone block cut short', offset: 54, file: '/in/c.vmd' } },
  ],
};

describe('BatchResults', () => {
  beforeEach(() => setActivePinia(createPinia()));
  it('lists every file with its keys or its error, failures first', () => {
    const w = mount(BatchResults, { props: { summary, op: 'mirror', root: '/in' } });
    const rows = w.findAll('[data-testid="batch-result"]');
    expect(rows.map((r) => r.attributes('data-status'))).toEqual(['failed', 'ok', 'ok']);
    expect(rows[1].get('[data-testid="batch-result-keys"]').text()).toBe('2089 → 1089');
    expect(rows[2].get('[data-testid="batch-result-keys"]').text()).toBe('kept 10, added 0, dropped 2');
    // A damaged file leads with a plain sentence; its name is the row's, not said again; the code and the
    // reader's own line are the row's tooltip.
    expect(rows[0].get('[data-testid="batch-result-error"]').text()).toBe('The file is cut short or damaged: it ends too early (at byte 54)');
    expect(rows[0].get('[data-testid="batch-result-file"]').text()).toBe('c.vmd');
    expect(rows[0].attributes('title')).toBe('/in/c.vmd\nE_VMD_TRUNCATED: bone block cut short (at byte 54)');
    expect(w.get('[data-testid="batch-results-title"]').text()).toBe('Files (3, 1 failed, listed first)');
    const s = useSettingsStore();
    s.settings = { ...s.settings, locale: 'ja' };
    return w.vm.$nextTick().then(() => {
      expect(w.findAll('[data-testid="batch-result"]')[2].text()).toContain('維持 10');
      const failed = w.findAll('[data-testid="batch-result"]')[0].text();
      expect(failed).toContain('ファイルが途中で切れているか壊れています');
      expect(failed).not.toContain('E_VMD_TRUNCATED');
      expect(failed).not.toContain('bone block cut short');
    });
  });

  it('names files by their path under the input folder: same-named files in two sub-folders are told apart', async () => {
    const two: BatchSummary = {
      jobId: 'j', total: 3, ok: 1, failed: 2, skipped: 0, cancelled: false, ms: 1,
      results: [
        { input: '/in/sub/A) ミク.vmd', output: '/out/sub/A) ミク.vmd', ok: true, ms: 1, value: {} },
        { input: '/in/A) ミク.vmd', output: null, ok: false, ms: 1, error: { code: 'E_FILE_EMPTY', message: 'the file is empty (0 bytes)', file: '/in/A) ミク.vmd' } },
        { input: '/in/other/A) ミク.vmd', output: null, ok: false, ms: 1, error: { code: 'E_FILE_EMPTY', message: 'the file is empty (0 bytes)', file: '/in/other/A) ミク.vmd' } },
      ],
    };
    const w = mount(BatchResults, { props: { summary: two, op: 'mirror', root: '/in/' } });
    const names = () => w.findAll('[data-testid="batch-result-file"]').map((r) => r.text());
    expect(names()).toEqual(['A) ミク.vmd', 'other/A) ミク.vmd', 'sub/A) ミク.vmd']);
    // Each failure once, and said without its name: "empty.vmd failed E_FILE_EMPTY: empty.vmd: the file is empty".
    for (const e of w.findAll('[data-testid="batch-result-error"]')) expect(e.text()).toBe('the file is empty (0 bytes)');
    // "Failed only" leaves the failures.
    await w.get('[data-testid="batch-only-failed"]').setValue(true);
    expect(names()).toEqual(['A) ミク.vmd', 'other/A) ミク.vmd']);
  });

  it("a refusal naming a CLI option names the dialog's control instead (shift −5: the Cut keys checkbox)", async () => {
    const out = shift(buildVmd({ morphs: [{ name: 'あ', frame: 2, weight: 1 }] }), { by: -5 });
    if (out.ok) throw new Error('shift −5 of a key at 2 must refuse');
    const s: BatchSummary = { jobId: 'j', total: 1, ok: 0, failed: 1, skipped: 0, cancelled: false, ms: 1, results: [{ input: '/in/a.vmd', output: null, ok: false, ms: 1, error: { ...out.error, file: '/in/a.vmd' } }] };
    const w = mount(BatchResults, { props: { summary: s, op: 'shift', root: '/in' } });
    const text = () => w.get('[data-testid="batch-result-error"]').text();
    expect(text()).toBe('Shifting by -5 moves the key at frame 2 before frame 0: tick “Cut keys that land before frame 0” to cut off what lands before it');
    const settings = useSettingsStore();
    settings.settings = { ...settings.settings, locale: 'ja' };
    await w.vm.$nextTick();
    expect(text()).toContain('「0 フレームより前のキーを切り捨てる」にチェックを入れてください');
    expect(text()).not.toContain('--clip');
  });
});
