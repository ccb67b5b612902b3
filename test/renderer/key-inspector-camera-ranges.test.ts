// The key inspector on camera and self-shadow keys: a self-shadow range past MMD's 0–9999 stops at the end
// and says so (12000 once stored −0.02 in silence), and a FOV typed 45.6 is stored 46 and says so, as the
// light colour's clamp does (key-inspector-light.test.ts). Bytes are read from the record, offsets from the
// VMD layout (self-shadow distance at +5, FOV at +56 of the 61-byte camera record).
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount, type VueWrapper } from '@vue/test-utils';
import { useWorkspaceStore } from '../../renderer/src/stores/workspace';
import { useSceneStore } from '../../renderer/src/stores/scene';
import { noticeLines, useNotifyStore } from '../../renderer/src/stores/notify';
import { useSelectionStore } from '../../renderer/src/stores/selection';
import { useTimeStore } from '../../renderer/src/stores/time';
import { setQuietApi } from '../helpers/quiet-api';
import { typeField } from '../helpers/type-field';
import KeyInspector from '../../renderer/src/editor/KeyInspector.vue';
import { buildFixture } from '../helpers/vmd-fixtures';

setQuietApi();

const FILE = buildFixture({
  cameras: [{ frame: 0, distance: -45, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 }],
  shadows: [{ frame: 90, mode: 0, distance: 0.01125 }],
});

const doc = () => useWorkspaceStore().doc!;
const shadowDistance = () => new DataView(doc().shadow.bytes.buffer, doc().shadow.bytes.byteOffset).getFloat32(5, true);
const fov = () => new DataView(doc().camera.bytes.buffer, doc().camera.bytes.byteOffset).getUint32(56, true);
const field = (w: VueWrapper, id: string) => (w.get(`[data-testid="${id}"]`).element as HTMLInputElement).value;
const warnings = () => useNotifyStore().items.filter((n) => n.kind === 'warning').map((n) => noticeLines(n, 'en').message);

async function settle(w: VueWrapper) {
  await w.vm.$nextTick();
  await w.vm.$nextTick();
}

describe('key inspector: self-shadow range and FOV as MMD keeps them', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    useSceneStore().openBytes('camera.vmd', FILE, null);
  });

  it('a range of 12000 is stored as 9999 (0.00001), shown 9999, with a notice; 5000 says nothing', async () => {
    useSelectionStore().select([{ kind: 'shadow', record: 0 }]);
    // The playhead on the key, as a click on it puts it: off the playhead the panel works at the playhead (key-inspector-pose.test.ts).
    useTimeStore().seek(90);
    const w = mount(KeyInspector);
    await settle(w);
    expect(field(w, 'inspector-shadow-distance')).toBe('8875');
    await typeField(w, 'inspector-shadow-distance', '5000');
    expect(shadowDistance()).toBe(Math.fround(0.05));
    expect(warnings()).toEqual([]);
    await typeField(w, 'inspector-shadow-distance', '12000');
    expect(shadowDistance()).toBe(Math.fround(0.00001));
    expect(shadowDistance()).toBeGreaterThan(0);
    expect(field(w, 'inspector-shadow-distance')).toBe('9999');
    expect(warnings()).toEqual(['Self-shadow range is 0–9999 as in MMD: “12000” became 9999']);
  });

  it('a range of 1234.5 is stored as the whole 1235 (0.1 − 1235 / 100000), shown 1235, with a notice; +0.4 is +0 (nulight 6)', async () => {
    useSelectionStore().select([{ kind: 'shadow', record: 0 }]);
    useTimeStore().seek(90);
    const w = mount(KeyInspector);
    await settle(w);
    await typeField(w, 'inspector-shadow-distance', '1234.5');
    expect(shadowDistance()).toBe(Math.fround(0.1 - 1235 / 100000));
    expect(field(w, 'inspector-shadow-distance')).toBe('1235');
    expect(warnings()).toEqual(['Self-shadow range is a whole number (0–9999) in MMD: “1234.5” became 1235']);
    await typeField(w, 'inspector-shadow-distance', '+0.4');
    expect(shadowDistance()).toBe(Math.fround(0.1 - 1235 / 100000));
    expect(warnings()[1]).toBe('Self-shadow range is a whole number (0–9999) in MMD: “+0.4” became +0');
  });

  it('a FOV of 45.6 is stored 46 and says so; 40 says nothing', async () => {
    useSelectionStore().select([{ kind: 'camera', record: 0 }]);
    const w = mount(KeyInspector);
    await settle(w);
    await typeField(w, 'inspector-fov', '40');
    expect(fov()).toBe(40);
    expect(warnings()).toEqual([]);
    await typeField(w, 'inspector-fov', '45.6');
    expect(fov()).toBe(46);
    expect(field(w, 'inspector-fov')).toBe('46');
    expect(warnings()).toEqual(['FOV is a whole number (1–179) in MMD: “45.6” became 46']);
  });
});
