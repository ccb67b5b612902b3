// The Bake physics dialog's plot: it shows the baked bone that moves most among those one can see (the bake's
// `seen`: bones deforming vertices or displayed), not a helper weight (錘) with no vertices that swings more
// (Gene × wavefile 0–300 plotted 前クローク2_2錘, 93 units below the cloak), and labels its x axis with the
// range's first and last frames, in English and Japanese.
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount } from '@vue/test-utils';
import { setQuietApi } from '../../helpers/quiet-api';
import PhysicsBakeDialog from '../../../renderer/src/components/PhysicsBakeDialog.vue';
import { useBakeStore } from '../../../renderer/src/stores/physics-bake';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { buildVmd } from '../../../shared/vmd';
import type { PhysicsBakeReport } from '../../../shared/physics/bake';

setQuietApi();

const q = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`);
const ID: [number, number, number, number] = [0, 0, 0, 1];
const turnX = (deg: number): [number, number, number, number] => [Math.sin((deg * Math.PI) / 360), 0, 0, Math.cos((deg * Math.PI) / 360)];
const key = (name: string, frame: number, deg: number) => ({ name, frame, position: [0, 0, 0] as [number, number, number], rotation: deg ? turnX(deg) : ID });

describe('Bake physics plot: which bone, and its frames', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    document.body.innerHTML = '';
  });

  it('plots the seen bone that moves most, not a weight bone that moves more; the axis says frames 10 and 40', async () => {
    const input = buildVmd({ bones: [key('センター', 0, 0)] });
    // The bake: the cloak turns 10°, its weight (no vertices, not displayed) 60°.
    const output = buildVmd({ bones: [key('センター', 0, 0), key('クローク', 10, 0), key('クローク', 25, 10), key('クローク', 40, 0), key('クローク錘', 10, 0), key('クローク錘', 25, 60), key('クローク錘', 40, 0)] });
    const report: PhysicsBakeReport = { from: 10, to: 40, bones: ['クローク', 'クローク錘'], namesTooLong: [], ikNamesTooLong: [], ikOff: [], rawKeys: 62, keptKeys: 6, replacedKeys: 0, physicsOffKeys: 0, resimulated: false, resimulatedAuto: false, edgeKeys: 0, maxPositionError: 0.001, maxRotationErrorDeg: 0.01, worst: null, maxPositionErrorSeen: 0, maxRotationErrorDegSeen: 0, worstSeen: null, simulatedFrom: 0, settleFrames: 0 };
    const s = useSettingsStore();
    s.settings = { ...s.settings, locale: 'en' };
    const bake = useBakeStore();
    bake.open = true;
    const w = mount(PhysicsBakeDialog, { attachTo: document.body });
    bake.result = { input, output, report, seen: ['クローク'], modelPath: '/m/Gene_light.pmx', via: 'worker' };
    await w.vm.$nextTick();
    expect(q('bake-plot-caption')!.textContent).toContain('クローク (the baked bone that moves most)');
    expect(q('bake-plot-caption')!.textContent).not.toContain('錘');
    expect(q('bake-plot-from')!.textContent).toBe('frame 10');
    expect(q('bake-plot-to')!.textContent).toBe('frame 40');
    s.settings = { ...s.settings, locale: 'ja' };
    await w.vm.$nextTick();
    expect(q('bake-plot-from')!.textContent).toBe('10 フレーム');
    expect(q('bake-plot-to')!.textContent).toBe('40 フレーム');
    // With no bone one can see among the baked (a model of helper bones only), the plot still shows one.
    bake.result = { input, output, report, seen: [], modelPath: '/m/Gene_light.pmx', via: 'worker' };
    await w.vm.$nextTick();
    expect(q('bake-plot-caption')!.textContent).toContain('クローク錘');
    w.unmount();
  });
});
