// The Whole Motion dialog's Preview for Reduce: the same fit as Apply, shown before it is applied
// (key counts before → after and the largest played error), and nothing is committed. Here (happy-dom has
// no Worker) the fit runs through the fitting client's main-thread fallback; Apply commits the previewed
// result without running the fit again.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount } from '@vue/test-utils';
import { setQuietApi } from '../../helpers/quiet-api';
import { useBatchStore } from '../../../renderer/src/stores/batch';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useFitPreviewStore } from '../../../renderer/src/stores/fit-preview';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import FitPreview from '../../../renderer/src/components/FitPreview.vue';
import { fitClient } from '../../../renderer/src/fit/fit-client';
import { corpusDir, corpusPresent } from '../../helpers/corpus';

setQuietApi();

/** Drink.vmd open, the Whole Motion dialog on Reduce for the open document at 0.05 units / 0.5°. */
function reduceDrink() {
  const bytes = new Uint8Array(readFileSync(path.join(corpusDir, 'mc-mmd-rust/default_anim/Drink.vmd')));
  useSceneStore().openBytes('Drink.vmd', bytes, null);
  const batch = useBatchStore();
  batch.target = 'document';
  batch.op = 'reduce';
  batch.forms.reduce = { ...batch.forms.reduce, 'pos-tol': 0.05, 'rot-tol': 0.5 };
  return batch;
}

describe.skipIf(!corpusPresent)('Preview before Reduce', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('shows the counts and the largest error of the fit it would apply, and commits nothing', async () => {
    const batch = reduceDrink();
    const w = mount(FitPreview);
    const runs = fitClient().counts.main;
    await w.get('[data-testid="fit-preview-run"]').trigger('click');
    const fit = useFitPreviewStore();
    await vi.waitFor(() => expect(fit.result).not.toBeNull());
    await w.vm.$nextTick();
    const text = w.get('[data-testid="fit-preview-summary"]').text();
    const m = /keys ([\d,]+) → ([\d,]+); largest error \(played back\) ([\d.e-]+) units, ([\d.e-]+)°/.exec(text);
    expect(m).not.toBeNull();
    expect(m![1]).toBe('6,006'); // grouped by thousands, as the app shows counts
    expect(Number(m![2].replace(/,/g, ''))).toBeLessThan(6006 / 4);
    expect(Number(m![3])).toBeLessThanOrEqual(0.05);
    expect(Number(m![4])).toBeLessThanOrEqual(0.5);
    expect(useHistoryStore().canUndo).toBe(false);
    // The preview is in the shared store the curve pane draws from, with the same counts.
    expect(fit.result!.report.extra.keysAfter).toBe(Number(m![2]));
    expect(fit.result!.before).toBe(useHistoryStore().current()!.tracks);
    // Apply gives what the preview said (the previewed document itself: no second run), and the preview is cleared.
    const previewed = fit.result!.output;
    expect(fitClient().counts.main).toBe(runs + 1);
    expect(await batch.applyToDocument()).toBe(true);
    expect(fitClient().counts.main).toBe(runs + 1);
    expect(useHistoryStore().current()!.doc.bone.count).toBe(Number(m![2]));
    expect(useHistoryStore().current()!.doc).toBe(previewed);
    await w.vm.$nextTick();
    expect(fit.result).toBeNull();
  });

  it('clears the shared preview when the options change or the dialog closes', async () => {
    const batch = reduceDrink();
    const fit = useFitPreviewStore();
    const w = mount(FitPreview);
    await w.get('[data-testid="fit-preview-run"]').trigger('click');
    await vi.waitFor(() => expect(fit.result).not.toBeNull());
    batch.forms.reduce = { ...batch.forms.reduce, 'pos-tol': 0.1 };
    await w.vm.$nextTick();
    expect(fit.result).toBeNull();
    await w.get('[data-testid="fit-preview-run"]').trigger('click');
    await vi.waitFor(() => expect(fit.result).not.toBeNull());
    w.unmount();
    expect(fit.result).toBeNull();
  });

  it('a changed option while the preview runs cancels it: no result, nothing running', async () => {
    const batch = reduceDrink();
    const fit = useFitPreviewStore();
    const w = mount(FitPreview);
    await w.get('[data-testid="fit-preview-run"]').trigger('click');
    expect(fit.running?.task).toBe('preview');
    await w.vm.$nextTick();
    expect(w.get('[data-testid="fit-progress"]').attributes('data-task')).toBe('preview');
    expect((w.get('[data-testid="fit-preview-run"]').element as HTMLButtonElement).disabled).toBe(true);
    batch.forms.reduce = { ...batch.forms.reduce, 'pos-tol': 0.1 };
    await w.vm.$nextTick();
    expect(fit.running).toBeNull();
    // The run finishes on this thread (it cannot be stopped there), and its result is dropped.
    await new Promise((r) => setTimeout(r, 0));
    await vi.waitFor(() => expect(w.find('[data-testid="fit-progress"]').exists()).toBe(false));
    await new Promise((r) => setTimeout(r, 50));
    expect(fit.result).toBeNull();
    expect(useHistoryStore().canUndo).toBe(false);
  });

  it('Apply without a current preview runs the fit once and commits it as one undo step', async () => {
    const batch = reduceDrink();
    const runs = fitClient().counts.main;
    const original = useHistoryStore().current()!.doc;
    expect(await batch.applyToDocument()).toBe(true);
    expect(fitClient().counts.main).toBe(runs + 1);
    expect(useHistoryStore().current()!.doc).not.toBe(original);
    expect(useHistoryStore().current()!.doc.bone.count).toBeLessThan(original.bone.count / 4);
    expect(useHistoryStore().undoStack.length).toBe(1);
  });
});
