/**
 * The key inspector on self-shadow keys (issue 13), mounted on a hand-written camera file: one key shows
 * its mode (a select: off / mode 1 / mode 2) and its distance; several keys show a mode or distance they
 * disagree on as mixed (—); choosing a mode or typing a distance sets it on every selected key, one undo
 * step each, and undo gives back the original bytes. No Simplify for self-shadow keys (no curves).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount, type VueWrapper } from '@vue/test-utils';
import { writeVmd } from '../../shared/vmd';
import { useWorkspaceStore } from '../../renderer/src/stores/workspace';
import { useSceneStore } from '../../renderer/src/stores/scene';
import { useHistoryStore } from '../../renderer/src/stores/history';
import { useSelectionStore } from '../../renderer/src/stores/selection';
import { useTimeStore } from '../../renderer/src/stores/time';
import { setQuietApi } from '../helpers/quiet-api';
import KeyInspector from '../../renderer/src/editor/KeyInspector.vue';
import { buildFixture } from '../helpers/vmd-fixtures';

setQuietApi();

const FILE = buildFixture({
  cameras: [{ frame: 0, distance: -45, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 }],
  shadows: [{ frame: 0, mode: 1, distance: 0.01125 }, { frame: 10, mode: 2, distance: 0.05 }, { frame: 20, mode: 1, distance: 0.05 }],
});
/** Self-shadow record i in a written file with one camera key: header 50, counts, 61 camera bytes, light and shadow counts. */
const at = (i: number) => 50 + 4 + 4 + 4 + 61 + 4 + 4 + 9 * i;
const modes = () => [0, 1, 2].map((i) => writeVmd(useWorkspaceStore().doc!)[at(i) + 4]);
const distances = () => {
  const b = writeVmd(useWorkspaceStore().doc!);
  return [0, 1, 2].map((i) => new DataView(b.buffer, b.byteOffset).getFloat32(at(i) + 5, true));
};

async function settle(w: VueWrapper) {
  await w.vm.$nextTick();
  await w.vm.$nextTick();
}

describe('key inspector on self-shadow keys', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    useSceneStore().openBytes('cam.vmd', FILE, null);
  });

  it('one key: its mode in a select of three, its distance as MMD’s panel shows it (stored 0.05: range 5000)', async () => {
    useSelectionStore().select([{ kind: 'shadow', record: 1 }]);
    // The playhead on the key, as a click on it puts it: off the playhead the panel works at the playhead (key-inspector-pose.test.ts).
    useTimeStore().seek(10);
    const w = mount(KeyInspector);
    await settle(w);
    expect(w.get('[data-testid="inspector-name"]').text()).toBe('Self-shadow');
    const select = w.get('[data-testid="inspector-shadow-mode"]').element as HTMLSelectElement;
    expect([...select.options].map((o) => [o.value, o.textContent?.trim()])).toEqual([['0', 'Off'], ['1', 'Mode 1'], ['2', 'Mode 2']]);
    expect(select.value).toBe('2');
    expect((w.get('[data-testid="inspector-shadow-distance"]').element as HTMLInputElement).value).toBe('5000');
    expect((w.get('[data-testid="inspector-frame"]').element as HTMLInputElement).value).toBe('10');
    expect(w.find('[data-testid="inspector-pos-x"]').exists()).toBe(false);
  });

  it('three keys: mode and distance mixed; a mode chosen and a distance typed reach every key, one undo step each', async () => {
    useSelectionStore().select([0, 1, 2].map((record) => ({ kind: 'shadow' as const, record })));
    const w = mount(KeyInspector);
    await settle(w);
    expect(w.get('[data-testid="inspector-multi"]').text()).toContain('3');
    expect(w.find('[data-testid="inspector-simplify"]').exists()).toBe(false);
    const select = w.get('[data-testid="inspector-shadow-mode"]');
    expect((select.element as HTMLSelectElement).dataset.mixed).toBe('true');
    expect((select.element as HTMLSelectElement).value).toBe('');
    const dist = w.get('[data-testid="inspector-shadow-distance"]').element as HTMLInputElement;
    expect(dist.dataset.mixed).toBe('true');
    expect(dist.placeholder).toBe('—');

    await select.setValue('0');
    await settle(w);
    expect(modes()).toEqual([0, 0, 0]);
    expect(useHistoryStore().undoStack).toHaveLength(1);
    expect((select.element as HTMLSelectElement).dataset.mixed).toBe('false');

    dist.value = '7000';
    await w.get('[data-testid="inspector-shadow-distance"]').trigger('change');
    await settle(w);
    expect(distances()).toEqual([0, 1, 2].map(() => Math.fround(0.03)));
    expect(modes()).toEqual([0, 0, 0]);
    expect(useHistoryStore().undoStack).toHaveLength(2);

    expect(useHistoryStore().undo()).toBe(true);
    expect(useHistoryStore().undo()).toBe(true);
    expect(writeVmd(useWorkspaceStore().doc!)).toEqual(FILE);
  });
});
