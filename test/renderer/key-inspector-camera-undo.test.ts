// Typed camera values and the undo history (nucamera finding 10): a keystroke is no step, a value committed is
// one step named by its field and values ("Camera distance -45 → -30"), a value committed again unchanged (Enter on
// the same value, "-30.0" for -30) adds none, and Undo takes back exactly the last value.
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount, type VueWrapper } from '@vue/test-utils';
import { useWorkspaceStore } from '../../renderer/src/stores/workspace';
import { useSceneStore } from '../../renderer/src/stores/scene';
import { useSelectionStore } from '../../renderer/src/stores/selection';
import { useHistoryStore } from '../../renderer/src/stores/history';
import { setQuietApi } from '../helpers/quiet-api';
import { typeField } from '../helpers/type-field';
import KeyInspector from '../../renderer/src/editor/KeyInspector.vue';
import { buildFixture } from '../helpers/vmd-fixtures';
import { editLabel } from '../../shared/i18n/edit-labels';
import { t } from '../../shared/i18n/strings';

setQuietApi();

const FILE = buildFixture({ cameras: [{ frame: 0, distance: -45, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 }] });

/** The camera record's distance (+4) and target Y (+12), from the VMD layout. */
const view = () => new DataView(useWorkspaceStore().doc!.camera.bytes.buffer, useWorkspaceStore().doc!.camera.bytes.byteOffset);

async function settle(w: VueWrapper) {
  await w.vm.$nextTick();
  await w.vm.$nextTick();
}

describe('key inspector: typed camera values in the history', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    useSceneStore().openBytes('camera.vmd', FILE, null);
  });

  it('one committed value is one named step; keystrokes and an unchanged value add none', async () => {
    useSelectionStore().select([{ kind: 'camera', record: 0 }]);
    const w = mount(KeyInspector);
    await settle(w);
    const history = useHistoryStore();
    const start = history.depth;
    // Keystrokes (input events) before the commit: nothing is recorded.
    const el = w.get('[data-testid="inspector-distance"]');
    for (const text of ['-', '-3', '-30']) {
      (el.element as HTMLInputElement).value = text;
      await el.trigger('input');
    }
    expect(history.depth).toBe(start);
    await typeField(w, 'inspector-distance', '-30');
    expect(view().getFloat32(4, true)).toBe(-30);
    expect(history.depth).toBe(start + 1);
    expect(history.undoLabel).toBe('camera distance -45 → -30');
    expect(editLabel(history.undoLabel, (k, p) => t(k, 'en', p))).toBe('Camera distance -45 → -30');
    expect(editLabel(history.undoLabel, (k, p) => t(k, 'ja', p))).toBe('カメラ距離 -45 → -30');
    // The same value again (as typed, or written another way): no step.
    await typeField(w, 'inspector-distance', '-30.0');
    expect(history.depth).toBe(start + 1);
    await typeField(w, 'inspector-target-y', '12');
    expect(history.depth).toBe(start + 2);
    expect(history.undoLabel).toBe('camera target Y 10 → 12');
    expect(editLabel(history.undoLabel, (k, p) => t(k, 'en', p))).toBe('Camera target Y 10 → 12');
    await typeField(w, 'inspector-fov', '+5');
    expect(history.undoLabel).toBe('camera FOV 30 → 35');
    expect(editLabel(history.undoLabel, (k, p) => t(k, 'en', p))).toBe('Camera FOV 30° → 35°');
    // Undo takes back the last value only.
    history.undo();
    history.undo();
    expect(view().getFloat32(12, true)).toBe(10);
    expect(view().getFloat32(4, true)).toBe(-30);
  });
});
