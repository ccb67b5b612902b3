/**
 * The key inspector with many keys selected, mounted on a hand-built motion: fields the keys disagree
 * on show as mixed (—), a typed number sets the field on every selected key, +5 adds to each, a bad
 * entry changes nothing and says why; each edit is one undo step. Expected floats are worked out here.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount } from '@vue/test-utils';
import { buildVmd, writeVmd, BONE } from '../../shared/vmd';
import { useWorkspaceStore } from '../../renderer/src/stores/workspace';
import { useSceneStore } from '../../renderer/src/stores/scene';
import { useHistoryStore } from '../../renderer/src/stores/history';
import { noticeLines, useNotifyStore } from '../../renderer/src/stores/notify';
import { useSelectionStore } from '../../renderer/src/stores/selection';
import { useTimeStore } from '../../renderer/src/stores/time';
import { setQuietApi } from '../helpers/quiet-api';
import KeyInspector from '../../renderer/src/editor/KeyInspector.vue';
import { usePreviewStore } from '../../renderer/src/stores/preview';
import { typeField } from '../helpers/type-field';


/**
 * Sets the physics-off marker of bone record `r` in a written file with bones first (header 30 + model
 * 20 + count 4): MMD writes 99 and 15 in bytes 2 and 3 of the interpolation block of a physics-off key.
 */
export function setPhysics(file: Uint8Array, r: number, on: boolean): Uint8Array {
  const out = file.slice();
  const at = 54 + r * BONE.SIZE + BONE.INTERPOLATION;
  if (!on) {
    out[at + 2] = 99;
    out[at + 3] = 15;
  }
  return out;
}

setQuietApi();

function open(): Uint8Array {
  const doc = buildVmd({
    bones: [
      { name: 'センター', frame: 0, position: [1, 2, 3], rotation: [0, 0, 0, 1] },
      { name: 'センター', frame: 10, position: [1, 5, 3], rotation: [0, 0, 0, 1] },
      { name: 'センター', frame: 20, position: [1, -4, 3], rotation: [0, 0, 0, 1] },
      { name: '左腕', frame: 0, position: [9, 9, 9], rotation: [0, 0, 0, 1] },
    ],
  });
  const bytes = setPhysics(writeVmd(doc), 2, false);
  useSceneStore().openBytes('m.vmd', bytes, null);
  return bytes;
}

const pos = (r: number) => [0, 1, 2].map((c) => useWorkspaceStore().doc!.bone.view.getFloat32(r * BONE.SIZE + BONE.POSITION + 4 * c, true));

const type = typeField;

describe('key inspector with many keys', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('物理 ON/OFF shows only for bones physics drives in the shown model (as MMD); a key with physics off shows it anyway', async () => {
    open();
    // The shown model: 左腕 is driven by a rigid body, センター is not.
    usePreviewStore().setOutline({ groups: [{ name: '', bones: ['センター', '左腕'] }], morphs: [], physicsBones: ['左腕'] });
    const sel = useSelectionStore();
    const w = mount(KeyInspector);
    const shown = async (records: number[]) => {
      sel.select(records.map((record) => ({ kind: 'bone' as const, record })));
      // The playhead on the key, as a click on it puts it: off the playhead the panel works at the playhead (key-inspector-pose.test.ts).
      useTimeStore().seek(useWorkspaceStore().doc!.bone.view.getUint32(records[0] * BONE.SIZE + BONE.FRAME, true));
      await w.vm.$nextTick();
      await w.vm.$nextTick();
      return w.find('[data-testid="inspector-physics"]').exists();
    };
    // センター's key at 0 (physics on, the default): no field.
    expect(await shown([0])).toBe(false);
    // 左腕's key: the field.
    expect(await shown([3])).toBe(true);
    // センター's key at 20 has physics off (as a bake writes it): shown, so it can be turned back on.
    expect(await shown([2])).toBe(true);
    // センター's keys at 0 and 10 with 左腕's: one physics bone among them, shown.
    expect(await shown([0, 1, 3])).toBe(true);
    // No model (no physics bones): a default key shows none.
    usePreviewStore().setOutline(null);
    expect(await shown([3])).toBe(false);
    w.unmount();
  });

  it('shows mixed fields as —, sets a typed value on all, offsets each by +5, one undo step each', async () => {
    const original = open();
    const sel = useSelectionStore();
    sel.select([0, 1, 2].map((record) => ({ kind: 'bone' as const, record })));
    const w = mount(KeyInspector);
    await w.vm.$nextTick();
    const input = (id: string) => w.get(`[data-testid="${id}"]`).element as HTMLInputElement;
    expect(w.get('[data-testid="inspector-multi"]').text()).toContain('3');
    // X and Z are shared; Y differs; so do the frames and the physics flag.
    expect(input('inspector-pos-x').value).toBe('1');
    expect(input('inspector-pos-z').value).toBe('3');
    expect(input('inspector-pos-y').value).toBe('');
    expect(input('inspector-pos-y').placeholder).toBe('—');
    expect(input('inspector-pos-y').dataset.mixed).toBe('true');
    expect(input('inspector-pos-x').dataset.mixed).toBe('false');
    expect(input('inspector-frame').placeholder).toBe('—');
    expect(input('inspector-physics').indeterminate).toBe(true);

    await type(w, 'inspector-pos-y', '+5');
    expect([0, 1, 2].map((r) => pos(r)[1])).toEqual([7, 10, 1]);
    expect(pos(3)).toEqual([9, 9, 9]);
    expect(useHistoryStore().depth).toBe(1);
    expect(input('inspector-pos-y').value).toBe(''); // still mixed: the typed "+5" does not stay in the field

    await type(w, 'inspector-pos-y', '-2.5');
    expect([0, 1, 2].map((r) => pos(r)[1])).toEqual([-2.5, -2.5, -2.5]);
    expect(input('inspector-pos-y').value).toBe('-2.5');
    expect(input('inspector-pos-y').dataset.mixed).toBe('false');
    expect(useHistoryStore().depth).toBe(2);

    // Junk changes nothing and says how to type a value.
    await type(w, 'inspector-pos-x', 'abc');
    expect(pos(0)[0]).toBe(1);
    expect(useHistoryStore().depth).toBe(2);
    expect(input('inspector-pos-x').value).toBe('1');
    expect(noticeLines(useNotifyStore().items.at(-1)!, 'en').message).toBe('Not a number: “abc” (type 5 to set, +5 or -=5 to add, *0.5 or /2 to scale)');

    // Two undos: the file as opened.
    useHistoryStore().undo();
    useHistoryStore().undo();
    expect(writeVmd(useWorkspaceStore().doc!)).toEqual(original);
    w.unmount();
  });

  // New-user pass numorph 8: "*0.5" was "Not a number". A position scales (Y 2, 5, -4 → 1, 2.5, -2: one undo step); a
  // rotation does not, and the notice says where a scale works.
  it('scales each selected key by *0.5 in a position field; refuses a scale in a rotation field, saying where it works', async () => {
    open();
    useSelectionStore().select([0, 1, 2].map((record) => ({ kind: 'bone' as const, record })));
    const w = mount(KeyInspector);
    await w.vm.$nextTick();
    await type(w, 'inspector-pos-y', '*0.5');
    expect([0, 1, 2].map((r) => pos(r)[1])).toEqual([1, 2.5, -2]);
    expect(pos(0)).toEqual([1, 1, 3]);
    expect(useHistoryStore().depth).toBe(1);
    await type(w, 'inspector-rot-x', '×0.5');
    expect(useHistoryStore().depth).toBe(1);
    expect(noticeLines(useNotifyStore().items.at(-1)!, 'en').message).toBe('“×0.5” scales a morph weight or a bone position only (a rotation, a frame or a camera, light or shadow value has no scale here): type 5 to set, +5 or -=5 to add');
    w.unmount();
  });

  it('tones down five selected morph keys by *0.5 (weights 1, 0.8, 0, 0.5, 0.3 → 0.5, 0.4, 0, 0.25, 0.15), one undo step', async () => {
    const weights = [1, 0.8, 0, 0.5, 0.3];
    useSceneStore().openBytes('f.vmd', writeVmd(buildVmd({ morphs: weights.map((weight, i) => ({ name: 'まばたき', frame: 10 * i, weight })) })), null);
    useSelectionStore().select(weights.map((_, record) => ({ kind: 'morph' as const, record })));
    const w = mount(KeyInspector);
    await w.vm.$nextTick();
    await type(w, 'inspector-weight', '*0.5');
    const doc = useWorkspaceStore().doc!;
    expect(weights.map((_, r) => doc.morph.view.getFloat32(r * 23 + 19, true))).toEqual([0.5, 0.4, 0, 0.25, 0.15].map(Math.fround));
    expect(useHistoryStore().depth).toBe(1);
    w.unmount();
  });

  it('a relative frame entry moves every selected key by that much', async () => {
    open();
    const sel = useSelectionStore();
    sel.select([{ kind: 'bone', record: 0 }, { kind: 'bone', record: 2 }]);
    const w = mount(KeyInspector);
    await w.vm.$nextTick();
    await type(w, 'inspector-frame', '+3');
    const frames = [0, 1, 2].map((r) => useWorkspaceStore().doc!.bone.view.getUint32(r * BONE.SIZE + BONE.FRAME, true));
    expect(frames).toEqual([3, 10, 23]);
    w.unmount();
  });
});

describe('key inspector with keys of several kinds', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('one bone key and one morph key: the banner says two are selected and which take the edits', async () => {
    const doc = buildVmd({
      bones: [{ name: '右肩', frame: 505, position: [0, 0, 0], rotation: [0, 0, 0, 1] }],
      morphs: [{ name: 'あ', frame: 505, weight: 0.5 }],
    });
    useSceneStore().openBytes('m.vmd', writeVmd(doc), null);
    const sel = useSelectionStore();
    sel.select([{ kind: 'bone', record: 0 }, { kind: 'morph', record: 0 }]);
    sel.active = { kind: 'bone', record: 0 };
    // The playhead on the key, as a click on it puts it: off the playhead the panel works at the playhead (key-inspector-pose.test.ts).
    useTimeStore().seek(505);
    const w = mount(KeyInspector);
    await w.vm.$nextTick();
    expect(w.get('[data-testid="inspector-multi"]').text()).toBe('2 keys selected, of several kinds — edits here apply to the 1 of this kind');
  });
});
