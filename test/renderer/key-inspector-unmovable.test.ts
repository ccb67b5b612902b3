/**
 * Position on a bone the model does not let move (new-user pass nuscratch, finding 2: 右腕 keyed, X = 3 typed in the
 * Key panel, and the whole arm slid out of the shoulder; the preview's Move handle refuses that bone, the panel did
 * not). As MMD greys 移動 for a bone without 移動可能 (PMX flag 0x0004), the Position fields are off for it, with a
 * tooltip saying why; rotation stays; a position typed over keys of several bones leaves the fixed ones alone. Keys
 * as read are not changed. The model's flags come through the outline (model-outline.ts, from a model's bones).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount, type VueWrapper } from '@vue/test-utils';
import { buildVmd, writeVmd, BONE } from '../../shared/vmd';
import { BONE_FLAG, type ModelBone, type ModelData } from '../../shared/pmx/model-types';
import { useWorkspaceStore } from '../../renderer/src/stores/workspace';
import { useSceneStore } from '../../renderer/src/stores/scene';
import { useHistoryStore } from '../../renderer/src/stores/history';
import { useSelectionStore } from '../../renderer/src/stores/selection';
import { useTimeStore } from '../../renderer/src/stores/time';
import { usePreviewStore } from '../../renderer/src/stores/preview';
import { modelOutline } from '../../renderer/src/model/model-outline';
import { setQuietApi } from '../helpers/quiet-api';
import KeyInspector from '../../renderer/src/editor/KeyInspector.vue';
import { typeField } from '../helpers/type-field';

setQuietApi();

/** A model of two bones: センター movable (0x0004 set), 右腕 turn-only. */
function outline() {
  const bone = (name: string, flags: number) => ({ name, nameEn: '', position: [0, 0, 0], parent: -1, layer: 0, flags, tailBone: -1 }) as unknown as ModelBone;
  const R = BONE_FLAG.ROTATABLE, M = BONE_FLAG.TRANSLATABLE;
  expect(M).toBe(0x0004);
  return modelOutline({ bones: [bone('センター', R | M), bone('右腕', R)], morphs: [], displayFrames: [], rigidBodies: [] } as unknown as ModelData);
}

/** Records: 0 右腕 @0 at (1, 2, 3) (a file may hold that), 1 センター @0. */
function open(): Uint8Array {
  const bytes = writeVmd(
    buildVmd({
      bones: [
        { name: '右腕', frame: 0, position: [1, 2, 3], rotation: [0, 0, 0, 1] },
        { name: 'センター', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
      ],
    }),
  );
  useSceneStore().openBytes('m.vmd', bytes, null);
  usePreviewStore().setOutline(outline());
  useTimeStore().seek(0);
  return bytes;
}

const input = (w: VueWrapper, id: string) => w.get(`[data-testid="${id}"]`).element as HTMLInputElement;
const pos = (r: number) => [0, 1, 2].map((c) => useWorkspaceStore().doc!.bone.view.getFloat32(r * BONE.SIZE + BONE.POSITION + 4 * c, true));

describe('Position of a bone the model does not let move', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('右腕 (no 移動可能): the Position fields are off with the reason; its key keeps the position it was read with', async () => {
    open();
    useSelectionStore().select([{ kind: 'bone', record: 0 }], 'replace');
    const w = mount(KeyInspector);
    await w.vm.$nextTick();
    for (const c of 'xyz') expect(input(w, `inspector-pos-${c}`).disabled).toBe(true);
    expect(input(w, 'inspector-pos-x').value).toBe('1');
    expect(input(w, 'inspector-pos-x').closest('.row')!.getAttribute('title')).toBe('This bone cannot be moved in the model (not 移動可能), as in MMD');
    for (const c of 'xyz') expect(input(w, `inspector-rot-${c}`).disabled).toBe(false);
    expect(pos(0)).toEqual([1, 2, 3]);
    w.unmount();
  });

  it('センター (移動可能): on, and a typed X is its key’s', async () => {
    open();
    useSelectionStore().select([{ kind: 'bone', record: 1 }], 'replace');
    const w = mount(KeyInspector);
    await w.vm.$nextTick();
    expect(input(w, 'inspector-pos-x').disabled).toBe(false);
    expect(input(w, 'inspector-pos-x').closest('.row')!.getAttribute('title')).toBeNull();
    await typeField(w, 'inspector-pos-x', '3');
    expect(pos(1)).toEqual([3, 0, 0]);
    w.unmount();
  });

  it('keys of both selected: on, and a typed X moves センター only', async () => {
    open();
    useSelectionStore().select([{ kind: 'bone', record: 0 }, { kind: 'bone', record: 1 }], 'replace');
    const w = mount(KeyInspector);
    await w.vm.$nextTick();
    expect(input(w, 'inspector-pos-x').disabled).toBe(false);
    await typeField(w, 'inspector-pos-x', '3');
    expect(useHistoryStore().depth).toBe(1);
    expect(pos(0)).toEqual([1, 2, 3]);
    expect(pos(1)).toEqual([3, 0, 0]);
    w.unmount();
  });

  it('a picked 右腕 without keys, and Ja: off too, the reason in Japanese', async () => {
    useSceneStore().newMotion('New motion.vmd', 'Gene');
    usePreviewStore().setOutline(outline());
    usePreviewStore().setPicked({ name: '右腕', tracked: false, rotatable: true, movable: false });
    const { useSettingsStore } = await import('../../renderer/src/stores/settings');
    useSettingsStore().settings.locale = 'ja';
    const w = mount(KeyInspector);
    await w.vm.$nextTick();
    expect(input(w, 'inspector-pos-x').disabled).toBe(true);
    expect(input(w, 'inspector-pos-x').closest('.row')!.getAttribute('title')).toBe('このボーンはモデルで移動できません（移動可能ではありません）。MMD と同じです');
    w.unmount();
  });
});
