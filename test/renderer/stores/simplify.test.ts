// The Simplify preview (stores/simplify.ts): opening computes the result of simplifying the selected
// keys and puts it in the fit-preview store (what the curve pane overlays), with counts and a largest
// error that match the motion played back (measured here with the test helper, not the app's measure);
// a tolerance change recomputes after the pause only; Apply commits exactly the previewed document as
// one undo step; Cancel, bad tolerances and a stale preview commit nothing.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { buildTracks, writeVmd } from '../../../shared/vmd';
import { DEFAULT_TOLERANCES } from '../../../shared/fit/motion-fit';
import { setQuietApi } from '../../helpers/quiet-api';
import { fitSummary, useFitPreviewStore } from '../../../renderer/src/stores/fit-preview';
import { t } from '../../../shared/i18n/strings';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { noticeLines, useNotifyStore } from '../../../renderer/src/stores/notify';
import { useSelectionStore } from '../../../renderer/src/stores/selection';
import { SIMPLIFY_DEBOUNCE_MS, SIMPLIFY_SPECS, useSimplifyStore } from '../../../renderer/src/stores/simplify';
import { playedErrors } from '../../helpers/motion-error';
import { openAndSelect, readBack } from './simplify-fixture';

setQuietApi();

/** Keys of track `name` in a document, by frame. */
function framesOf(doc: Parameters<typeof buildTracks>[0], name: string): number[] {
  const t = buildTracks(doc).bones, i = t.index.get(name)!;
  return Array.from(t.frames.subarray(t.start[i], t.start[i + 1]));
}

describe('Simplify preview', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it('takes its tolerance fields from the Reduce option table, defaults as the engine', () => {
    expect(SIMPLIFY_SPECS.map((s) => s.name)).toEqual(['pos-tol', 'rot-tol', 'morph-tol']);
    expect(SIMPLIFY_SPECS.map((s) => s.default)).toEqual([DEFAULT_TOLERANCES.position, DEFAULT_TOLERANCES.rotationDeg, DEFAULT_TOLERANCES.morph]);
    expect(SIMPLIFY_SPECS.map((s) => s.label)).toEqual(['batch.opt.pos-tol', 'batch.opt.rot-tol', 'batch.opt.morph-tol']);
  });

  it('opens with a preview of the selected span in the fit-preview store, figures as played, nothing committed', async () => {
    const original = openAndSelect();
    const s = useSimplifyStore(), fit = useFitPreviewStore(), hist = useHistoryStore();
    expect(s.start()).toBe(true);
    expect(s.state).toBe('pending');
    await vi.runAllTimersAsync();
    expect(s.state).toBe('ready');
    const p = s.preview!;
    expect(fit.result).toBe(p.fit);
    expect(p.fit.source).toBe('simplify');
    expect(p.fit.span).toEqual({ from: 10, to: 50 });
    expect(p.fit.before).toBe(hist.current()!.tracks);
    // The counts are the documents' own: 122 keys before, the previewed document's count after.
    const x = p.fit.report.extra;
    expect(x.keysBefore).toBe(122);
    expect(x.keysAfter).toBe(p.doc.bone.count);
    expect(x.keysAfter).toBeLessThan(122 - 20);
    const c = framesOf(p.doc, 'センター');
    for (const f of [0, 9, 10, 50, 51, 60]) expect(c).toContain(f);
    expect(framesOf(p.doc, '左腕')).toHaveLength(61);
    // The summary says first what happens to the keys refitted (センター 10..50: 41 before), counted here
    // from the previewed document's own keys, then the motion's totals.
    const kept = c.filter((f) => f >= 10 && f <= 50).length;
    expect(p.fit.spanKeys).toEqual({ before: 41, after: kept });
    const line = fitSummary(p.fit, (k, q) => t(k, 'en', q));
    expect(line.startsWith(`selected span 41 → ${kept} keys · keys 122 → ${x.keysAfter}; largest error`)).toBe(true);
    expect(fitSummary(p.fit, (k, q) => t(k, 'ja', q))).toMatch(new RegExp(`^選択範囲 41 → ${kept} キー · キー 122 → ${x.keysAfter}`));
    // The largest error said is the one the two motions play at (helper: every integer and half frame).
    const played = playedErrors(readBack(original), p.doc);
    expect(played.position).toBeGreaterThan(0);
    expect(x.maxPositionError).toBeCloseTo(played.position, 6);
    expect(played.position).toBeLessThanOrEqual(DEFAULT_TOLERANCES.position + 1e-6);
    expect(hist.canUndo).toBe(false);
    expect(Buffer.from(writeVmd(hist.current()!.doc))).toEqual(Buffer.from(original));
  });

  it('recomputes a changed tolerance after the pause, not before', async () => {
    const original = openAndSelect();
    const s = useSimplifyStore();
    s.start();
    await vi.runAllTimersAsync();
    const first = s.preview!;
    s.setTolerance('pos-tol', '0.1');
    expect(s.state).toBe('pending');
    await vi.advanceTimersByTimeAsync(SIMPLIFY_DEBOUNCE_MS - 1);
    expect(s.preview).toBe(first);
    // Typing on restarts the pause.
    s.setTolerance('pos-tol', '0.2');
    await vi.advanceTimersByTimeAsync(SIMPLIFY_DEBOUNCE_MS - 1);
    expect(s.preview).toBe(first);
    await vi.advanceTimersByTimeAsync(1);
    // The pause is over: the computation runs (off the thread; here on the main thread after a frame).
    expect(s.running).not.toBeNull();
    expect(s.preview).toBe(first);
    await vi.runAllTimersAsync();
    expect(s.state).toBe('ready');
    expect(s.running).toBeNull();
    const second = s.preview!;
    expect(second).not.toBe(first);
    expect(useFitPreviewStore().result).toBe(second.fit);
    expect(second.fit.report.extra.keysAfter).toBeLessThan(first.fit.report.extra.keysAfter);
    const e = playedErrors(readBack(original), second.doc).position;
    expect(e).toBeGreaterThan(DEFAULT_TOLERANCES.position);
    expect(e).toBeLessThanOrEqual(0.2 + 1e-6);
  });

  it('Apply commits exactly the previewed document as one undo step; undo gives the original bytes', async () => {
    const original = openAndSelect();
    const s = useSimplifyStore(), hist = useHistoryStore(), fit = useFitPreviewStore();
    s.start();
    await vi.runAllTimersAsync();
    const p = s.preview!;
    const previewed = Buffer.from(writeVmd(p.doc));
    expect(await s.apply()).toBe(true);
    expect(hist.depth).toBe(1);
    expect(Buffer.from(writeVmd(hist.current()!.doc))).toEqual(previewed);
    expect(hist.current()!.doc.bone.count).toBe(p.fit.report.extra.keysAfter);
    expect(s.state).toBe('closed');
    expect(fit.result).toBeNull();
    expect(useSelectionStore().count).toBe(0);
    const n = useNotifyStore().items.at(-1)!;
    expect(noticeLines(n, 'en').message).toContain(`keys 122 → ${p.fit.report.extra.keysAfter}`);
    expect(noticeLines(n, 'ja').message).toContain(`キー 122 → ${p.fit.report.extra.keysAfter}`);
    expect(hist.undo()).toBe(true);
    expect(Buffer.from(writeVmd(hist.current()!.doc))).toEqual(Buffer.from(original));
  });

  it('Apply while a recompute waits applies what the fields say', async () => {
    const original = openAndSelect();
    const s = useSimplifyStore(), hist = useHistoryStore();
    s.start();
    await vi.runAllTimersAsync();
    const atDefault = s.preview!.fit.report.extra.keysAfter;
    s.setTolerance('pos-tol', '0.2');
    const applied = s.apply();
    await vi.runAllTimersAsync();
    expect(await applied).toBe(true);
    const doc = hist.current()!.doc;
    expect(doc.bone.count).toBeLessThan(atDefault);
    expect(playedErrors(readBack(original), doc).position).toBeLessThanOrEqual(0.2 + 1e-6);
  });

  it('Cancel drops the preview and changes nothing', async () => {
    const original = openAndSelect();
    const s = useSimplifyStore(), hist = useHistoryStore(), fit = useFitPreviewStore();
    s.start();
    await vi.runAllTimersAsync();
    expect(fit.result).not.toBeNull();
    s.cancel();
    expect(s.state).toBe('closed');
    expect(s.preview).toBeNull();
    expect(fit.result).toBeNull();
    expect(await s.apply()).toBe(false);
    expect(hist.canUndo).toBe(false);
    expect(Buffer.from(writeVmd(hist.current()!.doc))).toEqual(Buffer.from(original));
    // A cancelled pending open does not compute later.
    s.start();
    s.cancel();
    await vi.runAllTimersAsync();
    expect(s.state).toBe('closed');
    expect(fit.result).toBeNull();
  });

  it('a bad tolerance shows no preview and cannot be applied', async () => {
    openAndSelect();
    const s = useSimplifyStore(), fit = useFitPreviewStore();
    s.start();
    await vi.runAllTimersAsync();
    s.setTolerance('rot-tol', '-1');
    await vi.runAllTimersAsync();
    expect(s.state).toBe('invalid');
    expect(s.errors['rot-tol']?.key).toBe('batch.err.positive');
    expect(fit.result).toBeNull();
    expect(s.canApply).toBe(false);
    expect(await s.apply()).toBe(false);
    expect(useHistoryStore().canUndo).toBe(false);
  });

  it('refuses a preview computed for another selection or document', async () => {
    openAndSelect();
    const s = useSimplifyStore(), sel = useSelectionStore(), hist = useHistoryStore();
    s.start();
    await vi.runAllTimersAsync();
    sel.select([{ kind: 'bone', record: 70 }], 'add');
    expect(await s.apply()).toBe(false);
    expect(s.state).toBe('closed');
    expect(hist.canUndo).toBe(false);
  });
});
