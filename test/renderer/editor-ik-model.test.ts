// The 表示・IK key panel lists every IK bone of the model shown (low-poly miku: ﾈｸﾀｲＩＫ, 左髪ＩＫ, 右髪ＩＫ besides the
// four leg IKs), as MMD's 表示・IK panel does; a name the key does not list shows its state in force (on) and ticking
// it writes it into the key; Register on the row writes all of them. Before, the panel listed only the key's own
// names (Drink.vmd's four leg IKs), so the hair and necktie IKs could not be switched.
// Expected keys are written out by hand from Drink.vmd's one key (frame 0, the four leg IKs off) and miku's IK bones;
// the saved records are read field by field here.
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount } from '@vue/test-utils';
import { decodeName, type VmdDocument } from '../../shared/vmd';
import { useWorkspaceStore } from '../../renderer/src/stores/workspace';
import { useSceneStore } from '../../renderer/src/stores/scene';
import { useHistoryStore } from '../../renderer/src/stores/history';
import { usePreviewStore } from '../../renderer/src/stores/preview';
import { useSelectionStore } from '../../renderer/src/stores/selection';
import { useTimeStore } from '../../renderer/src/stores/time';
import { useEditorActions } from '../../renderer/src/editor/use-editor-actions';
import { modelOutline } from '../../renderer/src/model/model-outline';
import { setQuietApi } from '../helpers/quiet-api';
import KeyInspector from '../../renderer/src/editor/KeyInspector.vue';
import { corpusModel, corpusPresent, readCorpus } from '../helpers/corpus';

setQuietApi();

type Item = [string, number];

/** Display/IK record i of the document, field by field: frame u32 | visible u8 | n u32 | n × (name 20 | on u8). */
function ikAt(doc: VmdDocument, i: number): { frame: number; visible: number; iks: Item[] } {
  const rec = doc.ik.bytes.subarray(doc.ik.offsets[i], doc.ik.offsets[i + 1]);
  const v = new DataView(rec.buffer, rec.byteOffset, rec.byteLength);
  const n = v.getUint32(5, true);
  return { frame: v.getUint32(0, true), visible: rec[4], iks: Array.from({ length: n }, (_, j): Item => [decodeName(rec, 9 + 21 * j, 20), rec[9 + 21 * j + 20]]) };
}

const LEGS_OFF: Item[] = [['右足ＩＫ', 0], ['右つま先ＩＫ', 0], ['左足ＩＫ', 0], ['左つま先ＩＫ', 0]];

describe.skipIf(!corpusPresent)('the 表示・IK key panel on low-poly miku with Drink.vmd', () => {
  beforeEach(() => setActivePinia(createPinia()));

  function open() {
    useSceneStore().openBytes('Drink.vmd', readCorpus('mc-mmd-rust/default_anim/Drink.vmd').slice(), null);
    usePreviewStore().modelOutline = modelOutline(corpusModel('mmd-viewer-js/model/low_miku/miku.pmd'));
    return { doc: () => useWorkspaceStore().doc!, sel: useSelectionStore(), hist: useHistoryStore(), actions: useEditorActions() };
  }

  it('lists the key’s IK bones, then the model’s others (on); ticking one off writes it into the key', async () => {
    const { doc, sel, hist } = open();
    expect(ikAt(doc(), 0)).toEqual({ frame: 0, visible: 1, iks: LEGS_OFF });
    sel.select([{ kind: 'ik', record: 0 }]);
    const insp = mount(KeyInspector);
    await insp.vm.$nextTick();
    const boxes = () => insp.findAll('[data-testid^="inspector-ik-"]');
    expect(boxes().map((b) => b.attributes('data-name'))).toEqual(['右足ＩＫ', '右つま先ＩＫ', '左足ＩＫ', '左つま先ＩＫ', 'ﾈｸﾀｲＩＫ', '左髪ＩＫ', '右髪ＩＫ']);
    expect(boxes().map((b) => (b.element as HTMLInputElement).checked)).toEqual([false, false, false, false, true, true, true]);
    const hair = boxes()[5];
    (hair.element as HTMLInputElement).checked = false;
    await hair.trigger('change');
    expect(hist.depth).toBe(1);
    expect(ikAt(doc(), 0)).toEqual({ frame: 0, visible: 1, iks: [...LEGS_OFF, ['左髪ＩＫ', 0]] });
    await insp.vm.$nextTick();
    expect(boxes().map((b) => [b.attributes('data-name'), (b.element as HTMLInputElement).checked])).toEqual([
      ['右足ＩＫ', false], ['右つま先ＩＫ', false], ['左足ＩＫ', false], ['左つま先ＩＫ', false], ['左髪ＩＫ', false], ['ﾈｸﾀｲＩＫ', true], ['右髪ＩＫ', true],
    ]);
    expect(hist.undo()).toBe(true);
    expect(ikAt(doc(), 0)).toEqual({ frame: 0, visible: 1, iks: LEGS_OFF });
    insp.unmount();
  });

  it('Register on the 表示・IK row writes every IK bone of the model', () => {
    const { doc, sel, actions } = open();
    sel.setActiveTrack({ kind: 'ik', track: 0 });
    useTimeStore().seek(30);
    expect(actions.insertKeyAtCursor()).toBe(true);
    expect(sel.active).toEqual({ kind: 'ik', record: 1 });
    expect(ikAt(doc(), 1)).toEqual({ frame: 30, visible: 1, iks: [...LEGS_OFF, ['ﾈｸﾀｲＩＫ', 1], ['左髪ＩＫ', 1], ['右髪ＩＫ', 1]] });
  });

  it('the 表示・IK row active with no key at the playhead: the state in force with its checkboxes, a tick registers a key', async () => {
    const { doc, sel, hist } = open();
    sel.setActiveTrack({ kind: 'ik', track: 0 });
    useTimeStore().seek(30);
    const insp = mount(KeyInspector);
    await insp.vm.$nextTick();
    // Before: "No key selected" and no checkbox.
    expect(insp.get('[data-testid="inspector-name"]').text()).toBe('Display · IK');
    expect(insp.get('[data-testid="inspector-ik-note"]').text()).toBe('No key at this frame — the state in force here; ticking registers one');
    expect((insp.get('[data-testid="inspector-display"]').element as HTMLInputElement).checked).toBe(true);
    const boxes = () => insp.findAll('[data-testid^="inspector-ik-"]').filter((b) => b.attributes('data-name'));
    expect(boxes().map((b) => [b.attributes('data-name'), (b.element as HTMLInputElement).checked])).toEqual([
      ['右足ＩＫ', false], ['右つま先ＩＫ', false], ['左足ＩＫ', false], ['左つま先ＩＫ', false], ['ﾈｸﾀｲＩＫ', true], ['左髪ＩＫ', true], ['右髪ＩＫ', true],
    ]);
    expect(doc().ik.count).toBe(1);
    const right = boxes()[6];
    (right.element as HTMLInputElement).checked = false;
    await right.trigger('change');
    expect(hist.depth).toBe(1);
    expect(doc().ik.count).toBe(2);
    expect(ikAt(doc(), 1)).toEqual({ frame: 30, visible: 1, iks: [...LEGS_OFF, ['ﾈｸﾀｲＩＫ', 1], ['左髪ＩＫ', 1], ['右髪ＩＫ', 0]] });
    expect(sel.refs).toEqual([{ kind: 'ik', record: 1 }]);
    // At frame 0, with nothing selected: its key is there, not selected: said, and Select it selects it.
    sel.clear();
    sel.setActiveTrack({ kind: 'ik', track: 0 });
    useTimeStore().seek(0);
    await insp.vm.$nextTick();
    const note = insp.get('[data-testid="inspector-ik-note"]');
    expect(note.text()).toContain('This row has a key at this frame (not selected)');
    await insp.get('[data-testid="inspector-select-here"]').trigger('click');
    expect(sel.refs).toEqual([{ kind: 'ik', record: 0 }]);
    insp.unmount();
  });

  it('a 表示・IK key selected at another frame than the playhead, which has a key: said so, Select it, a tick edits that key', async () => {
    const { doc, sel, hist, actions } = open();
    sel.setActiveTrack({ kind: 'ik', track: 0 });
    useTimeStore().seek(40);
    expect(actions.insertKeyAtCursor()).toBe(true);
    expect(doc().ik.count).toBe(2);
    sel.select([{ kind: 'ik', record: 0 }]);
    const insp = mount(KeyInspector);
    await insp.vm.$nextTick();
    const line = insp.get('[data-testid="inspector-off-frame"]');
    expect(line.attributes('data-key-here')).toBe('true');
    expect(line.text()).toContain('Selected key at 0 · playhead at 40 — this track has a key at this frame (not selected); typing or ticking edits it');
    expect(line.text()).not.toContain('registers');
    // Ticking 左足ＩＫ on edits the key at 40 (no third key).
    const left = insp.findAll('[data-testid^="inspector-ik-"]').find((b) => b.attributes('data-name') === '左足ＩＫ')!;
    (left.element as HTMLInputElement).checked = true;
    await left.trigger('change');
    expect(hist.depth).toBe(2);
    expect(doc().ik.count).toBe(2);
    expect(ikAt(doc(), 1).iks.find(([n]) => n === '左足ＩＫ')).toEqual(['左足ＩＫ', 1]);
    expect(ikAt(doc(), 0)).toEqual({ frame: 0, visible: 1, iks: LEGS_OFF });
    // Select it: the key at the playhead.
    sel.select([{ kind: 'ik', record: 0 }]);
    await insp.vm.$nextTick();
    await insp.get('[data-testid="inspector-select-here"]').trigger('click');
    expect(sel.refs).toEqual([{ kind: 'ik', record: 1 }]);
    insp.unmount();
  });
});
