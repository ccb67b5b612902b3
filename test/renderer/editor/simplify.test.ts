// Simplify on selected keys in the key inspector: the button opens the Simplify panel with the
// tolerance fields and the preview's figures (nothing applied yet); Enter applies exactly the preview
// as one undo step, Esc (in the panel, or from the editor's keymap) and a change of selection cancel;
// the curve pane's overlay of a Simplify preview spans the selected keys' frames.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount } from '@vue/test-utils';
import { buildTracks, writeVmd } from '../../../shared/vmd';
import { setQuietApi } from '../../helpers/quiet-api';
import { runKeyAction } from '../../../renderer/src/shell/keymap';
import { previewOverlay, useFitPreviewStore } from '../../../renderer/src/stores/fit-preview';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { useSelectionStore } from '../../../renderer/src/stores/selection';
import { useSimplifyStore } from '../../../renderer/src/stores/simplify';
import KeyInspector from '../../../renderer/src/editor/KeyInspector.vue';
import { playedErrors } from '../../helpers/motion-error';
import { openAndSelect, readBack } from '../stores/simplify-fixture';

setQuietApi();

const mounted: { unmount(): void }[] = [];

async function openPanel() {
  const original = openAndSelect();
  const w = mount(KeyInspector, { attachTo: document.body });
  mounted.push(w);
  await w.vm.$nextTick();
  await w.get('[data-testid="inspector-simplify"]').trigger('click');
  await w.vm.$nextTick();
  await vi.runAllTimersAsync();
  await w.vm.$nextTick();
  return { w, original };
}

describe('Simplify panel', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    vi.useFakeTimers();
  });
  afterEach(() => {
    // Unmounted, so no panel keeps a keymap handler bound.
    for (const w of mounted.splice(0)) w.unmount();
    vi.useRealTimers();
    document.body.innerHTML = '';
  });

  it('opens with the tolerances and the preview figures, and Enter applies it as one undo step', async () => {
    const { w, original } = await openPanel();
    const panel = w.get('[data-testid="simplify-panel"]');
    expect(panel.attributes('data-state')).toBe('ready');
    expect(w.get('[data-testid="simplify-opt-pos-tol"]').element).toBe(document.activeElement);
    expect((w.get('[data-testid="simplify-opt-pos-tol"]').element as HTMLInputElement).value).toBe('0.01');
    expect((w.get('[data-testid="simplify-opt-rot-tol"]').element as HTMLInputElement).value).toBe('0.1');
    expect((w.get('[data-testid="simplify-opt-morph-tol"]').element as HTMLInputElement).value).toBe('0.005');
    const hist = useHistoryStore();
    expect(hist.canUndo).toBe(false);
    const text = w.get('[data-testid="simplify-summary"]').text();
    const m = /keys (\d+) → (\d+); largest error \(played back\) ([\d.e-]+) units/.exec(text);
    expect(m, text).not.toBeNull();
    expect(Number(m![1])).toBe(122);
    const after = Number(m![2]);
    expect(after).toBeLessThan(100);

    await w.get('[data-testid="simplify-opt-pos-tol"]').trigger('keydown', { key: 'Enter' });
    await w.vm.$nextTick();
    expect(hist.depth).toBe(1);
    const doc = hist.current()!.doc;
    expect(doc.bone.count).toBe(after);
    const t = buildTracks(doc).bones;
    expect(t.start[t.index.get('左腕')! + 1] - t.start[t.index.get('左腕')!]).toBe(61);
    expect(playedErrors(readBack(original), doc).position).toBeLessThanOrEqual(0.01 + 1e-6);
    expect(w.find('[data-testid="simplify-panel"]').exists()).toBe(false);
    expect(hist.undo()).toBe(true);
    expect(Buffer.from(writeVmd(hist.current()!.doc))).toEqual(Buffer.from(original));
  });

  it('typing a tolerance recomputes the figures', async () => {
    const { w } = await openPanel();
    const before = w.get('[data-testid="simplify-summary"]').text();
    await w.get('[data-testid="simplify-opt-pos-tol"]').setValue('0.2');
    expect(w.get('[data-testid="simplify-panel"]').attributes('data-state')).toBe('pending');
    await vi.runAllTimersAsync();
    await w.vm.$nextTick();
    expect(w.get('[data-testid="simplify-panel"]').attributes('data-state')).toBe('ready');
    const now = w.get('[data-testid="simplify-summary"]').text();
    const n = (s: string) => Number(/→ (\d+)/.exec(s)![1]);
    expect(n(now)).toBeLessThan(n(before));
    await w.get('[data-testid="simplify-opt-pos-tol"]').setValue('0');
    await vi.runAllTimersAsync();
    await w.vm.$nextTick();
    expect(w.get('[data-testid="simplify-error-pos-tol"]').text()).toBe('Must be greater than 0');
    expect(w.get('[data-testid="simplify-apply"]').attributes('disabled')).toBeDefined();
  });

  it('Esc in the panel, Esc from the keymap, Cancel and a new selection all drop the preview and change nothing', async () => {
    const cases: [string, (w: Awaited<ReturnType<typeof openPanel>>['w']) => Promise<void>][] = [
      ['Esc in a field', (w) => w.get('[data-testid="simplify-opt-rot-tol"]').trigger('keydown', { key: 'Escape' })],
      ['Esc through the keymap', async () => void runKeyAction('dropHandle', { key: 'Escape', ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, target: document.body })],
      ['Cancel', (w) => w.get('[data-testid="simplify-cancel"]').trigger('click')],
      ['another selection', async () => useSelectionStore().select([{ kind: 'bone', record: 70 }], 'add')],
    ];
    for (const [what, act] of cases) {
      setActivePinia(createPinia());
      const { w, original } = await openPanel();
      expect(useFitPreviewStore().result, what).not.toBeNull();
      await act(w);
      await w.vm.$nextTick();
      expect(useSimplifyStore().state, what).toBe('closed');
      expect(useFitPreviewStore().result, what).toBeNull();
      expect(w.find('[data-testid="simplify-panel"]').exists(), what).toBe(false);
      expect(useHistoryStore().canUndo, what).toBe(false);
      expect(Buffer.from(writeVmd(useHistoryStore().current()!.doc)), what).toEqual(Buffer.from(original));
    }
  });

  it('the pane overlays the original and the result over the selected frames', async () => {
    await openPanel();
    const r = useFitPreviewStore().result!;
    const o = previewOverlay(r, 'bone', 'センター', 0, 41)!;
    expect([o.from, o.to]).toEqual([10, 50]);
    // One sample per frame 10..50: the original is sin(f/8) there (stored as float32).
    for (const i of [0, 13, 40]) expect(o.original[i]).toBeCloseTo(Math.sin((10 + i) / 8), 5);
    // The result keeps the ends and plays within the tolerance in between.
    expect(o.result[0]).toBeCloseTo(o.original[0], 6);
    expect(o.result[40]).toBeCloseTo(o.original[40], 6);
    for (let i = 0; i < 41; i++) expect(Math.abs(o.result[i] - o.original[i])).toBeLessThanOrEqual(0.01 + 1e-6);
    expect(o.result.some((v, i) => v !== o.original[i])).toBe(true);
    // The result's keys in the span are marked: its ends and what is kept between, as fractions of 10..50.
    const t = buildTracks(useSimplifyStore().preview!.doc).bones, c = t.index.get('センター')!;
    const kept = Array.from(t.frames.subarray(t.start[c], t.start[c + 1])).filter((f) => f >= 10 && f <= 50);
    expect(kept.length).toBeLessThan(41);
    expect(Array.from(o.keys!)).toEqual(kept.map((f) => (f - 10) / 40));
    expect(o.keys![0]).toBe(0);
    expect(o.keys!.at(-1)).toBe(1);
  });
});
