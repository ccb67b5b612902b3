/**
 * The key inspector on light keys: the colour as MMD's 照明 panel shows it, whole numbers 0–255 (the stored
 * float × 255: MMD's default 0.602 reads 154), the direction as stored (−1…1, as MMD). A number typed is
 * rounded to a whole number and stored / 255; one beyond 0–255 stops at the end with a notice, as a rounded one does;
 * a direction beyond −1…1 stops at the end, and 0, 0, 0 is refused; a key or channel not edited keeps its bytes.
 * Expected floats are worked out here (Math.fround of n / 255).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount, type VueWrapper } from '@vue/test-utils';
import { LIGHT, lightKey } from '../../shared/vmd';
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
  lights: [
    { frame: 0, color: [0.602, 0.602, 0.602], direction: [-0.5, -1, 0.5] },
    { frame: 60, color: [1, 0.8, 0.6], direction: [0.3, -1, 0.2] },
  ],
});

const doc = () => useWorkspaceStore().doc!;
const record = (i: number) => doc().light.bytes.slice(i * LIGHT.SIZE, (i + 1) * LIGHT.SIZE);
const field = (w: VueWrapper, id: string) => (w.get(`[data-testid="${id}"]`).element as HTMLInputElement).value;
const warnings = () => useNotifyStore().items.filter((n) => n.kind === 'warning').map((n) => noticeLines(n, 'en').message);

async function settle(w: VueWrapper) {
  await w.vm.$nextTick();
  await w.vm.$nextTick();
}

describe('key inspector on light keys', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    useSceneStore().openBytes('camera.vmd', FILE, null);
  });

  it('shows the colour on MMD’s 0–255 scale (0.602 reads 154) and the direction as stored', async () => {
    useSelectionStore().select([{ kind: 'light', record: 0 }]);
    const w = mount(KeyInspector);
    await settle(w);
    expect(['r', 'g', 'b'].map((c) => field(w, `inspector-color-${c}`))).toEqual(['154', '154', '154']);
    expect(['x', 'y', 'z'].map((c) => field(w, `inspector-dir-${c}`))).toEqual(['-0.5', '-1', '0.5']);
    // The row says which scale it is on.
    expect(w.get('[data-testid="inspector-color-r"]').element.closest('.row')!.getAttribute('title')).toContain('0–255');
    useSelectionStore().select([{ kind: 'light', record: 1 }]);
    // The playhead on the key, as a click on it puts it: off the playhead the panel works at the playhead (key-inspector-pose.test.ts).
    useTimeStore().seek(60);
    await settle(w);
    // 1 × 255, 0.8 × 255 = 204, 0.6 × 255 = 153.
    expect(['r', 'g', 'b'].map((c) => field(w, `inspector-color-${c}`))).toEqual(['255', '204', '153']);
  });

  it('stores a typed 200 as 200 / 255 in that channel only; the other key keeps its bytes', async () => {
    const other = record(1);
    const g = record(0).slice(LIGHT.COLOR + 4, LIGHT.DIRECTION + 12);
    useSelectionStore().select([{ kind: 'light', record: 0 }]);
    const w = mount(KeyInspector);
    await settle(w);
    await typeField(w, 'inspector-color-r', '200');
    expect(lightKey(doc().light, 0).color[0]).toBe(Math.fround(200 / 255));
    expect(record(0).slice(LIGHT.COLOR + 4, LIGHT.DIRECTION + 12)).toEqual(g);
    expect(record(1)).toEqual(other);
    expect(field(w, 'inspector-color-r')).toBe('200');
    expect(warnings()).toEqual([]);
  });

  it('rounds a colour to a whole number as MMD’s panel and says so, as the clamp does (nulight 6)', async () => {
    useSelectionStore().select([{ kind: 'light', record: 1 }]);
    useTimeStore().seek(60);
    const w = mount(KeyInspector);
    await settle(w);
    await typeField(w, 'inspector-color-r', '127.6');
    expect(lightKey(doc().light, 1).color[0]).toBe(Math.fround(128 / 255));
    expect(field(w, 'inspector-color-r')).toBe('128');
    // G is 204: +10.4 adds 10.
    await typeField(w, 'inspector-color-g', '+10.4');
    expect(lightKey(doc().light, 1).color[1]).toBe(Math.fround(Math.fround(204 / 255) + 10 / 255));
    expect(warnings()).toEqual(['Light colour is a whole number (0–255) in MMD: “127.6” became 128', 'Light colour is a whole number (0–255) in MMD: “+10.4” became +10']);
  });

  it('keeps the direction to −1…1 as MMD’s panel and says so; refuses a direction of 0, 0, 0 (nulight 6)', async () => {
    useSelectionStore().select([{ kind: 'light', record: 1 }]);
    useTimeStore().seek(60);
    const w = mount(KeyInspector);
    await settle(w);
    await typeField(w, 'inspector-dir-x', '5');
    expect(lightKey(doc().light, 1).direction[0]).toBe(1);
    expect(field(w, 'inspector-dir-x')).toBe('1');
    // Y is −1: −0.5 more would be −1.5.
    await typeField(w, 'inspector-dir-y', '-0.5');
    expect(lightKey(doc().light, 1).direction[1]).toBe(-0.5);
    await typeField(w, 'inspector-dir-y', '-=1');
    expect(lightKey(doc().light, 1).direction[1]).toBe(-1);
    expect(warnings()).toEqual(['Light direction is −1…1 as in MMD: “5” became 1', 'Light direction is −1…1 as in MMD: “-=1” became -1']);
    // 0, 0, 0: X and Y set to 0 are fine with Z 0.2; then Z 0 would leave no direction and is refused, the key unchanged.
    await typeField(w, 'inspector-dir-x', '0');
    await typeField(w, 'inspector-dir-y', '0');
    const before = record(1);
    await typeField(w, 'inspector-dir-z', '0');
    expect(record(1)).toEqual(before);
    expect(lightKey(doc().light, 1).direction).toEqual([0, 0, Math.fround(0.2)]);
    const last = noticeLines(useNotifyStore().items.at(-1)!, 'en');
    expect(last.message).toBe('Value not applied');
    expect(String(last.detail)).toContain('A light direction of 0, 0, 0 points nowhere');
  });

  it('stops an entry beyond 0–255 at the end and says so; an offset too', async () => {
    useSelectionStore().select([{ kind: 'light', record: 1 }]);
    useTimeStore().seek(60);
    const w = mount(KeyInspector);
    await settle(w);
    await typeField(w, 'inspector-color-b', '300');
    expect(lightKey(doc().light, 1).color[2]).toBe(1);
    expect(field(w, 'inspector-color-b')).toBe('255');
    expect(warnings()).toEqual(['Light colour is 0–255 as in MMD: “300” became 255']);
    await typeField(w, 'inspector-color-r', '-5');
    expect(lightKey(doc().light, 1).color[0]).toBe(0);
    // G is 204: +100 would be 304.
    await typeField(w, 'inspector-color-g', '+100');
    expect(lightKey(doc().light, 1).color[1]).toBe(1);
    expect(warnings()).toEqual([
      'Light colour is 0–255 as in MMD: “300” became 255',
      'Light colour is 0–255 as in MMD: “-5” became 0',
      'Light colour is 0–255 as in MMD: “+100” became 255',
    ]);
  });
});
