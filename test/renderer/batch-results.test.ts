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
    expect(rows[1].get('[data-testid="batch-result-keys"]').text()).toBe('keys 2,089 → 1,089');
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

// A new user's pass (2026-12): warnings never shown, a dry run's rows said "skipped", an existing output said
// a bare "skipped", figures without labels, and a written file could not be opened from the list.
describe('BatchResults: what each row says', () => {
  beforeEach(() => setActivePinia(createPinia()));
  const one = (op: BatchSummary['results'][number], extra: Partial<BatchSummary> = {}): BatchSummary =>
    ({ jobId: 'j', total: 1, ok: 1, failed: 0, skipped: 0, cancelled: false, ms: 1, results: [op], ...extra });

  it("shows a file's warnings under its row, each with ⚠", () => {
    const w = mount(BatchResults, { props: { summary: one({ input: '/in/a.vmd', output: '/out/a.vmd', ok: true, ms: 1, value: { report: { edit: 'trim', kept: 0, added: 1, dropped: 0, warnings: ["--from 5000 is after the motion's last key (frame 30): no key is kept"] } } }), op: 'trim', root: '/in' } });
    expect(w.findAll('[data-testid="batch-result-warning"]').map((x) => x.text())).toEqual(["⚠ --from 5000 is after the motion's last key (frame 30): no key is kept"]);
  });

  // New-user pass nujp 1: every speed row of a Japanese batch said "⚠ 2 bone keys landed on a frame already taken…".
  it("a coded warning is said in the UI's language; one without a code as written", async () => {
    const report = { edit: 'speed', kept: 10, added: 0, dropped: 0, warnings: ['2 bone keys landed on a frame already taken and were left out (the first in the file kept)', 'an English line'], warningCodes: [{ code: 'W_SPEED_COLLISIONS', message: '2 bone keys landed on a frame already taken and were left out (the first in the file kept)', params: { n: 2, kind: 'bone' } }] };
    const w = mount(BatchResults, { props: { summary: one({ input: '/in/a.vmd', output: '/out/a.vmd', ok: true, ms: 1, value: { report } }), op: 'speed', root: '/in' } });
    expect(w.findAll('[data-testid="batch-result-warning"]').map((x) => x.text())).toEqual(['⚠ 2 bone keys landed on a frame already taken and were left out (the first in the file kept)', '⚠ an English line']);
    const s = useSettingsStore();
    s.settings = { ...s.settings, locale: 'ja' };
    await w.vm.$nextTick();
    expect(w.findAll('[data-testid="batch-result-warning"]').map((x) => x.text())).toEqual(['⚠ ボーンのキー 2 個が既にキーのあるフレームに重なったため除外しました（ファイル内で先のキーを使用）', '⚠ an English line']);
  });

  it('a dry run says "would write" and "would skip (exists)", en and ja; an existing output "skipped: output exists"', async () => {
    const dry = one({ input: '/in/a.vmd', output: '/out/a.vmd', ok: true, ms: 1, value: { skipped: true, report: { edit: 'mirror', kept: 3, changed: 1, dryRun: true } } }, { dryRun: true, ok: 0, skipped: 2, total: 2 });
    dry.results.push({ input: '/in/b.vmd', output: '/out/b.vmd', ok: true, ms: 1, value: { skipped: true, report: { skipped: 'output exists' } } });
    const w = mount(BatchResults, { props: { summary: dry, op: 'mirror', root: '/in' } });
    const statuses = () => w.findAll('[data-testid="batch-result-status"]').map((x) => x.text());
    expect(statuses()).toEqual(['would write', 'would skip (exists)']);
    const s = useSettingsStore();
    s.settings = { ...s.settings, locale: 'ja' };
    await w.vm.$nextTick();
    expect(statuses()).toEqual(['書き込み予定', 'スキップ予定（出力あり）']);
    s.settings = { ...s.settings, locale: 'en' };
    const real = one({ input: '/in/b.vmd', output: '/out/b.vmd', ok: true, ms: 1, value: { skipped: true, report: { skipped: 'output exists' } } }, { ok: 0, skipped: 1 });
    const w2 = mount(BatchResults, { props: { summary: real, op: 'mirror', root: '/in' } });
    expect(w2.get('[data-testid="batch-result-status"]').text()).toBe('skipped: output exists');
  });

  it('labels the figures by operation, numbers in the locale: a fit with its largest error, mirror, export-bvh', async () => {
    const fit = one({ input: '/in/r.vmd', output: '/out/r.vmd', ok: true, ms: 1, value: { report: { edit: 'reduce', kept: 1, added: 0, dropped: 0, keysBefore: 15439, keysAfter: 13545, maxPositionError: 0.0123, maxRotationErrorDeg: 0.456, maxMorphError: 0 } } });
    expect(mount(BatchResults, { props: { summary: fit, op: 'reduce', root: '/in' } }).get('[data-testid="batch-result-keys"]').text()).toBe('keys 15,439 → 13,545; largest error (played back) 0.012 units, 0.46°, morph 0.0');
    const mir = one({ input: '/in/m.vmd', output: '/out/m.vmd', ok: true, ms: 1, value: { report: { edit: 'mirror', kept: 1070, added: 0, dropped: 0, changed: 120, morphsSwapped: ['まば左 ⇄ まば右', '困り左 ⇄ 困り右'] } } });
    expect(mount(BatchResults, { props: { summary: mir, op: 'mirror', root: '/in' } }).get('[data-testid="batch-result-keys"]').text()).toBe('1,070 keys, 120 changed; 2 morph pairs swapped');
    const bvh = one({ input: '/in/b.vmd', output: '/out/b.bvh', ok: true, ms: 1, value: { report: { edit: 'export-bvh', frames: 301, joints: 51, missingBones: 159 } } });
    const w = mount(BatchResults, { props: { summary: bvh, op: 'export-bvh', root: '/in' } });
    expect(w.get('[data-testid="batch-result-keys"]').text()).toBe('301 frames, 51 joints; 159 bones of the motion not in the BVH');
    const s = useSettingsStore();
    s.settings = { ...s.settings, locale: 'ja' };
    await w.vm.$nextTick();
    expect(w.get('[data-testid="batch-result-keys"]').text()).toBe('301 フレーム、関節 51、BVH にないモーションのボーン 159');
  });

  it("a written file's name opens it (the output, as Open… opens it); a failed one's does not", async () => {
    const w = mount(BatchResults, { props: { summary, op: 'mirror', root: '/in' } });
    const rows = w.findAll('[data-testid="batch-result"]');
    expect(rows[0].get('[data-testid="batch-result-file"]').element.tagName).toBe('SPAN');
    const link = rows[1].get('[data-testid="batch-result-file"]');
    expect(link.attributes('title')).toBe('Open a.vmd in the editor (as Open… does)');
    await link.trigger('click');
    expect(w.emitted('open')).toEqual([['/out/a.vmd']]);
  });
});

describe('a camera motion refused by retarget (batch or the app)', () => {
  it('is said as the other bone operations say it, the operation named in the detail, en and ja', async () => {
    const { describeError } = await import('../../renderer/src/stores/notify');
    const e = { code: 'E_CAMERA_MOTION' as const, message: "a camera motion (2 camera keys, no bone keys): retarget works on a model's motion", params: { kind: 'camera', camera: 2, light: 0, op: 'retarget' } };
    expect(describeError(e, 'en')).toEqual({ message: "This is a camera motion (camera keys: 2, bone keys: none): this works on a model's motion, not a camera's", detail: "E_CAMERA_MOTION: Retarget to another model works on a model's motion (one with bone keys): make one active first, in its scene tab" });
    expect(describeError(e, 'ja').detail).toContain('別のモデルへ合わせる（リターゲット）');
  });

  // A read-only output under Overwrite showed "No permission to read or write the file" (ファイルを読み書きする権限が
  // ありません) with the CLI's English "--overwrite does not replace it" as its detail: now the batch's own sentence,
  // naming the output (Japanese) and the folder (English); the code and the CLI's line stay in the tooltip.
  it('an output the batch could not write is said as such, naming where, in either language', async () => {
    const s: BatchSummary = {
      jobId: 'j', total: 2, ok: 0, failed: 2, skipped: 0, cancelled: false, ms: 1,
      results: [
        { input: '/in/a.vmd', output: null, ok: false, ms: 1, error: { code: 'E_IO_DENIED', message: 'the file is read-only, so --overwrite does not replace it (make it writable first)', file: '/out/反転/a.vmd', problem: 'readOnly' } },
        { input: '/in/b.vmd', output: null, ok: false, ms: 1, error: { code: 'E_IO_DENIED', message: 'the folder /out/locked cannot be written (read-only or permission denied)', file: '/out/locked/b.vmd' } },
      ],
    };
    const w = mount(BatchResults, { props: { summary: s, op: 'mirror', root: '/in' } });
    const texts = () => w.findAll('[data-testid="batch-result-error"]').map((e) => e.text());
    expect(texts()).toEqual([
      'Cannot write the output in /out/反転: a.vmd there is read-only, so Overwrite does not replace it (make it writable first)',
      'Cannot write the output: the folder /out/locked cannot be written (read-only or permission denied)',
    ]);
    expect(w.findAll('[data-testid="batch-result"]')[0].attributes('title')).toBe('/in/a.vmd\nE_IO_DENIED: the file is read-only, so --overwrite does not replace it (make it writable first)');
    const settings = useSettingsStore();
    settings.settings = { ...settings.settings, locale: 'ja' };
    await w.vm.$nextTick();
    expect(texts()).toEqual([
      '出力先に書き込めません: /out/反転/a.vmd（読み取り専用のファイルは「上書き」でも置き換えません。書き込めるようにしてください）',
      '出力先に書き込めません: /out/locked（読み取り専用か、書き込む権限がありません）',
    ]);
    // An input that could not be read keeps the general line (it is not the output's).
    const input: BatchSummary = { ...s, total: 1, failed: 1, results: [{ input: '/in/c.vmd', output: null, ok: false, ms: 1, error: { code: 'E_IO_DENIED', message: 'permission denied', file: '/in/c.vmd' } }] };
    const w2 = mount(BatchResults, { props: { summary: input, op: 'mirror', root: '/in' } });
    expect(w2.get('[data-testid="batch-result-error"]').text()).toBe('ファイルを読み書きする権限がありません');
  });
});
