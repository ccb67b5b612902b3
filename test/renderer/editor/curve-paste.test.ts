// Paste curve as MMD does it (new-user pass: a rotation curve copied, only X ticked, Paste curve left X as
// it was, with no notice and no undo step): the curve shown when copied goes onto every ticked channel; a
// paste that changes nothing says so; with only a key of another kind selected the button is greyed and
// its title says why (before: enabled, and a click said "Nothing selected to apply this to").
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount } from '@vue/test-utils';
import { buildVmd, getBoneCurves, writeVmd, BONE } from '../../../shared/vmd';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import { editorStrings } from '../../../shared/i18n/editor-strings';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useSelectionStore } from '../../../renderer/src/stores/selection';
import { useCurveEditorStore } from '../../../renderer/src/stores/curve-editor';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { useNotifyStore } from '../../../renderer/src/stores/notify';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { useEditorActions } from '../../../renderer/src/editor/use-editor-actions';
import { setQuietApi } from '../../helpers/quiet-api';
import CurveEditor from '../../../renderer/src/editor/CurveEditor.vue';

setQuietApi();

// Records: 0–1 センター, 2–3 上半身, 4 a morph key.
function open() {
  const doc = buildVmd({
    bones: [
      { name: 'センター', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
      { name: 'センター', frame: 10, position: [0, 1, 0], rotation: [0, 0.3826834, 0, 0.9238795] },
      { name: '上半身', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
      { name: '上半身', frame: 20, position: [0, 1, 0], rotation: [0, 0.3826834, 0, 0.9238795] },
    ],
    morphs: [{ name: '笑い', frame: 5, weight: 0.5 }],
  });
  useSceneStore().openBytes('dance.vmd', writeVmd(doc), null);
}
const curvesOf = (record: number) => getBoneCurves((useWorkspaceStore().doc as VmdDocument).bone.bytes, record * BONE.SIZE + BONE.INTERPOLATION);

describe('Paste curve', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('pastes the curve shown when copied onto each ticked channel, says when nothing changed, greys for a morph key', async () => {
    open();
    const sel = useSelectionStore(), curve = useCurveEditorStore(), hist = useHistoryStore(), notify = useNotifyStore();
    const actions = useEditorActions();
    const w = mount(CurveEditor, { attachTo: document.body });
    const paste = () => w.get('[data-testid="curve-paste"]');
    // Key 1's rotation gets its own curve; copy it with Rotation shown.
    sel.select([{ kind: 'bone', record: 1 }]);
    await w.vm.$nextTick();
    await w.get('[data-testid="curve-channel-r"]').trigger('click');
    expect(actions.setCurve([37, 21, 107, 107])).toBe(true);
    expect(curvesOf(1)[3]).toEqual([37, 21, 107, 107]);
    await w.get('[data-testid="curve-copy"]').trigger('click');
    // Another key, only X ticked (the copy ticked Rotation alone, the channel it came from).
    sel.select([{ kind: 'bone', record: 3 }]);
    await w.vm.$nextTick();
    const before = curvesOf(3);
    expect(curve.pasteChannels.slice(0, 4)).toEqual([false, false, false, true]);
    await w.get('[data-testid="paste-ch-r"]').setValue(false);
    await w.get('[data-testid="paste-ch-x"]').setValue(true);
    expect(curve.pasteChannels.slice(0, 4)).toEqual([true, false, false, false]);
    const depth = hist.depth;
    expect(paste().attributes('disabled')).toBeUndefined();
    await paste().trigger('click');
    expect(curvesOf(3)[0]).toEqual([37, 21, 107, 107]);
    expect(curvesOf(3).slice(1)).toEqual(before.slice(1));
    expect(hist.depth).toBe(depth + 1);
    // Again: nothing to change, no step, and a notice saying so.
    const notices = notify.items.length;
    await paste().trigger('click');
    expect(hist.depth).toBe(depth + 1);
    expect(notify.items.length).toBe(notices + 1);
    expect(JSON.stringify(notify.items[notify.items.length - 1])).toContain('curve.pasteUnchanged');
    // Only the morph key selected: greyed, the reason in its title (English, then Japanese).
    sel.select([{ kind: 'morph', record: 0 }]);
    await w.vm.$nextTick();
    expect(paste().attributes('disabled')).toBeDefined();
    expect(paste().attributes('title')).toBe(editorStrings.en['editor.refusal.noBoneKeyForCurve']);
    const settings = useSettingsStore();
    settings.settings = { ...settings.settings, locale: 'ja' };
    await w.vm.$nextTick();
    expect(paste().attributes('title')).toBe(editorStrings.ja['editor.refusal.noBoneKeyForCurve']);
    w.unmount();
  });

  it('a copied curve ticks its own channel alone under Paste on (copied with Overlay on: every channel); Paste then leaves the others', async () => {
    open();
    const sel = useSelectionStore(), curve = useCurveEditorStore();
    const w = mount(CurveEditor, { attachTo: document.body });
    const ticks = () => ['x', 'y', 'z', 'r'].map((k) => (w.get(`[data-testid="paste-ch-${k}"]`).element as HTMLInputElement).checked);
    sel.select([{ kind: 'bone', record: 1 }]);
    await w.vm.$nextTick();
    expect(ticks()).toEqual([true, true, true, true]); // nothing copied yet
    await w.get('[data-testid="curve-channel-r"]').trigger('click');
    expect(useEditorActions().setCurve([53, 0, 74, 127])).toBe(true);
    await w.get('[data-testid="curve-copy"]').trigger('click');
    await w.vm.$nextTick();
    expect(ticks()).toEqual([false, false, false, true]);
    // Onto センター's other key and 上半身's: their X, Y, Z curves stay as they were.
    const was = [curvesOf(0), curvesOf(3)];
    sel.select([{ kind: 'bone', record: 0 }, { kind: 'bone', record: 3 }]);
    await w.vm.$nextTick();
    await w.get('[data-testid="curve-paste"]').trigger('click');
    expect(curvesOf(0)).toEqual([...was[0].slice(0, 3), [53, 0, 74, 127]]);
    expect(curvesOf(3)).toEqual([...was[1].slice(0, 3), [53, 0, 74, 127]]);
    // Y shown, copied with Overlay on: every channel's own, so every box.
    curve.overlay = true;
    await w.get('[data-testid="curve-channel-y"]').trigger('click');
    await w.get('[data-testid="curve-copy"]').trigger('click');
    await w.vm.$nextTick();
    expect(ticks()).toEqual([true, true, true, true]);
    w.unmount();
  });
});
