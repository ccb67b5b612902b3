// Enter in a Key panel field or a curve value field commits and gives the keyboard back to the timeline
// (a camera maker's report: after typing x1 = 40 and Enter, `]` did nothing until the track list was
// clicked, as the number field kept the focus and the app runs no editor key while a field has it).
// Escape puts the shown value back and leaves too. Expected values are the typed ones.
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount, type VueWrapper } from '@vue/test-utils';
import { buildVmd, withBlocks, blockFromRecords, encodeCameraRecord, writeVmd, cameraKey } from '../../../shared/vmd';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useSelectionStore } from '../../../renderer/src/stores/selection';
import { useTimeStore } from '../../../renderer/src/stores/time';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { useCurveEditorStore } from '../../../renderer/src/stores/curve-editor';
import { setQuietApi } from '../../helpers/quiet-api';
import KeyInspector from '../../../renderer/src/editor/KeyInspector.vue';
import CurveEditor from '../../../renderer/src/editor/CurveEditor.vue';

setQuietApi();

function open() {
  const keys = [
    { frame: 0, distance: -45, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 },
    { frame: 30, distance: -20, target: [0, 10, 0], rotation: [0, 0, 0], fov: 40 },
  ];
  useSceneStore().openBytes('camera.vmd', writeVmd(withBlocks(buildVmd({}), { camera: blockFromRecords('camera', keys.map(encodeCameraRecord)) })), null);
  useSelectionStore().select([{ kind: 'camera', record: 1 }]);
  // The playhead on the key, as a click on it puts it: off the playhead the panel works at the playhead (key-inspector-pose.test.ts).
  useTimeStore().seek(30);
}

async function settle(w: VueWrapper) {
  await w.vm.$nextTick();
  await w.vm.$nextTick();
}

/** Focuses the field, types `text` and presses `key` on it, as a user does. */
async function typeAndPress(w: VueWrapper, id: string, text: string, key: 'Enter' | 'Escape') {
  const el = w.get(`[data-testid="${id}"]`).element as HTMLInputElement;
  el.focus();
  el.dispatchEvent(new FocusEvent('focus'));
  expect(document.activeElement).toBe(el);
  el.value = text;
  el.dispatchEvent(new Event('input'));
  el.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
  await settle(w);
  return el;
}

describe('Enter in a panel field gives the keyboard back', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('Key panel: Enter commits the typed distance once and leaves the field; Escape puts it back and leaves', async () => {
    open();
    const w = mount(KeyInspector, { attachTo: document.body });
    await settle(w);
    const el = await typeAndPress(w, 'inspector-distance', '-60', 'Enter');
    expect(cameraKey(useWorkspaceStore().doc!.camera, 1).distance).toBe(-60);
    expect(useHistoryStore().undoStack).toHaveLength(1);
    expect(document.activeElement).not.toBe(el);
    // An offset typed then Enter: added once. A browser fires change when a changed field loses focus; that
    // change, fired here from the blur as Chromium does, is not a second commit.
    el.addEventListener('blur', () => el.dispatchEvent(new Event('change')), { once: true });
    await typeAndPress(w, 'inspector-distance', '+5', 'Enter');
    expect(cameraKey(useWorkspaceStore().doc!.camera, 1).distance).toBe(-55);
    expect(useHistoryStore().undoStack).toHaveLength(2);
    // Enter on a field nobody changed: nothing written, the keyboard back all the same.
    const fov = await typeAndPress(w, 'inspector-fov', '40', 'Enter');
    expect(useHistoryStore().undoStack).toHaveLength(2);
    expect(document.activeElement).not.toBe(fov);
    // Escape: the typed text is dropped, the shown value comes back, the field is left.
    const esc = await typeAndPress(w, 'inspector-fov', '90', 'Escape');
    expect(esc.value).toBe('40');
    expect(cameraKey(useWorkspaceStore().doc!.camera, 1).fov).toBe(40);
    expect(useHistoryStore().undoStack).toHaveLength(2);
    expect(document.activeElement).not.toBe(esc);
    w.unmount();
  });

  it('curve pane: Enter in x1 commits it, leaves the field and gives the keys back to the timeline', async () => {
    open();
    const curve = useCurveEditorStore();
    const w = mount(CurveEditor, { attachTo: document.body });
    await settle(w);
    curve.focus = 'curve';
    const el = await typeAndPress(w, 'curve-x1', '40', 'Enter');
    expect(document.activeElement).not.toBe(el);
    expect(curve.focus).toBe('timeline');
    expect((w.get('[data-testid="curve-x1"]').element as HTMLInputElement).value).toBe('40');
    expect(useHistoryStore().undoStack).toHaveLength(1);
    const esc = await typeAndPress(w, 'curve-y1', '99', 'Escape');
    expect(document.activeElement).not.toBe(esc);
    expect(esc.value).toBe('20');
    expect(useHistoryStore().undoStack).toHaveLength(1);
    w.unmount();
  });
});
