// A curve handle that has the arrow keys says so (new-user pass: after a handle drag the arrows edited the
// curve, x1 35→37, instead of stepping frames, and Delete removed the key, documented only in F1): while a
// handle is selected with keys to move, a hint line under the square names the arrows, Delete and Esc (en,
// ja); a press outside the pane (the timeline, the preview) gives the keys back.
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount } from '@vue/test-utils';
import { buildVmd, writeVmd } from '../../../shared/vmd';
import { editorStrings } from '../../../shared/i18n/editor-strings';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useSelectionStore } from '../../../renderer/src/stores/selection';
import { useCurveEditorStore } from '../../../renderer/src/stores/curve-editor';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { setQuietApi } from '../../helpers/quiet-api';
import CurveEditor from '../../../renderer/src/editor/CurveEditor.vue';
import { useTimeStore } from '../../../renderer/src/stores/time';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { createTimelineView } from '../../../renderer/src/editor/timeline-view';
import { useTimelineNav } from '../../../renderer/src/editor/use-timeline-nav';
import { useEditorActions } from '../../../renderer/src/editor/use-editor-actions';
import { BONE } from '../../../shared/vmd';

setQuietApi();

/** Two keys of センター, at 0 and 10. */
const twoKeys = () =>
  writeVmd(
    buildVmd({
      bones: [
        { name: 'センター', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
        { name: 'センター', frame: 10, position: [0, 1, 0], rotation: [0, 0, 0, 1] },
      ],
    }),
  );

describe('a curve handle with the arrow keys', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('shows the hint line while it has them; a press outside the pane gives them back', async () => {
    useSceneStore().openBytes('dance.vmd', twoKeys(), null);
    const sel = useSelectionStore(), curve = useCurveEditorStore();
    const outside = document.createElement('div');
    document.body.appendChild(outside);
    const w = mount(CurveEditor, { attachTo: document.body });
    const hint = () => w.find('[data-testid="curve-handle-hint"]');
    sel.select([{ kind: 'bone', record: 1 }]);
    await w.vm.$nextTick();
    expect(hint().exists()).toBe(false);
    curve.handle = 1; // as a press on the handle leaves it
    await w.vm.$nextTick();
    expect(hint().text()).toBe(editorStrings.en['curve.handleHint']);
    expect(hint().text()).toContain('Esc');
    expect(hint().text()).toContain('Delete');
    const settings = useSettingsStore();
    settings.settings = { ...settings.settings, locale: 'ja' };
    await w.vm.$nextTick();
    expect(hint().text()).toBe(editorStrings.ja['curve.handleHint']);
    // A press elsewhere (the timeline): the keys go back, the hint with them.
    outside.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    await w.vm.$nextTick();
    expect(curve.handle).toBe(0);
    expect(hint().exists()).toBe(false);
    // No key selected: a handle has nothing to move, so no hint.
    curve.handle = 2;
    sel.clear();
    await w.vm.$nextTick();
    expect(hint().exists()).toBe(false);
    w.unmount();
    outside.remove();
  });

  it('on a first key, the handle hint takes the bottom line alone (the first-key note sat under it)', async () => {
    useSceneStore().openBytes('dance.vmd', twoKeys(), null);
    const sel = useSelectionStore(), curve = useCurveEditorStore();
    const w = mount(CurveEditor, { attachTo: document.body });
    sel.select([{ kind: 'bone', record: 0 }]);
    await w.vm.$nextTick();
    const note = () => w.find('[data-testid="curve-first-key"]');
    expect(note().text()).toBe(editorStrings.en['curve.firstKey']);
    curve.handle = 1;
    await w.vm.$nextTick();
    expect(w.find('[data-testid="curve-handle-hint"]').exists()).toBe(true);
    expect(note().exists()).toBe(false);
    curve.handle = 0;
    await w.vm.$nextTick();
    expect(note().exists()).toBe(true);
    w.unmount();
  });

  it('moving to another key drops the handle: ] from the clicked key gives ←/→ back to the frames (curve-polish pass)', async () => {
    useSceneStore().openBytes('dance.vmd', twoKeys(), null);
    const sel = useSelectionStore(), curve = useCurveEditorStore(), time = useTimeStore();
    const nav = useTimelineNav(createTimelineView());
    const w = mount(CurveEditor, { attachTo: document.body });
    sel.select([{ kind: 'bone', record: 0 }]);
    sel.setActiveTrack({ kind: 'bone', track: 0 });
    time.seek(0);
    await w.vm.$nextTick();
    curve.handle = 1; // handle 1 of key 0 clicked
    await w.vm.$nextTick();
    // A nudge keeps its key, and the handle with it.
    expect(useEditorActions().nudgeHandle(1, 0)).toBe(true);
    await w.vm.$nextTick();
    expect(curve.handle).toBe(1);
    const key10 = () => [...useWorkspaceStore().doc!.bone.bytes.subarray(BONE.SIZE + BONE.INTERPOLATION, BONE.SIZE + BONE.INTERPOLATION + BONE.INTERPOLATION_LENGTH)];
    const before = key10();
    // ]: key 10 becomes the selection; the handle picked on key 0 is not key 10's.
    expect(nav.jumpKey(1, 'active')).toBe(true);
    await w.vm.$nextTick();
    expect(sel.active).toEqual({ kind: 'bone', record: 1 });
    expect(curve.handle).toBe(0);
    expect(w.find('[data-testid="curve-handle-hint"]').exists()).toBe(false);
    // So a nudge now does nothing to key 10's curves (→ steps the frame: keymap 'handle' rows are off).
    expect(useEditorActions().nudgeHandle(1, 0)).toBe(false);
    expect(key10()).toEqual(before);
    w.unmount();
  });
});
