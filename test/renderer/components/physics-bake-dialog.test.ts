// The Bake physics dialog's words: what the bake writes is said as MMD says it (物理OFF, the "physics off" of a
// bone key), with the raw interpolation bytes 99, 15 only in the tooltip, in English and Japanese; and Cancel
// of a running bake leaves a line saying it was cancelled (the dialog went back to idle saying nothing).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { flushPromises, mount } from '@vue/test-utils';
import { memoryScene, dance } from '../stores/scene-fixtures';
import { usePreviewStore } from '../../../renderer/src/stores/preview';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { BakeClient, type BakeSettings } from '../../../renderer/src/physics/bake-client';
import { setQuietApi } from '../../helpers/quiet-api';
import PhysicsBakeDialog from '../../../renderer/src/components/PhysicsBakeDialog.vue';
import { useBakeStore } from '../../../renderer/src/stores/physics-bake';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { denseRefusal } from '../../../shared/edit-core/dense-limit';
import { markRaw } from 'vue';
import { emptyVmd } from '../../../shared/vmd';
import type { PhysicsBakeReport } from '../../../shared/physics/bake';

setQuietApi();

const q = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`);

function dialog(locale: 'en' | 'ja') {
  const s = useSettingsStore();
  s.settings = { ...s.settings, locale };
  useBakeStore().open = true;
  return mount(PhysicsBakeDialog, { attachTo: document.body });
}

describe('Bake physics dialog text', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    document.body.innerHTML = '';
  });

  it('says 物理OFF, not the raw bytes (those are in the tooltip), in English and Japanese', async () => {
    for (const locale of ['en', 'ja'] as const) {
      setActivePinia(createPinia());
      const w = dialog(locale);
      await w.vm.$nextTick();
      const p = q('bake-explain')!;
      expect(p.textContent).toContain('物理OFF');
      expect(p.textContent).not.toMatch(/99|15/);
      expect(p.getAttribute('title')).toMatch(/99.*15/);
      w.unmount();
    }
    expect(q('bake-explain')).toBeNull();
  });

  it('Cancel of a running bake leaves a "cancelled" line until the next bake or close', async () => {
    const w = dialog('en');
    const bake = useBakeStore();
    bake.running = { done: 3, total: 100 };
    await w.vm.$nextTick();
    expect(q('bake-cancelled')).toBeNull();
    q('bake-cancel')!.click();
    await w.vm.$nextTick();
    expect(bake.running).toBeNull();
    expect(q('bake-cancelled')?.textContent?.trim()).toBe('Bake cancelled: the motion is as it was');
    const s = useSettingsStore();
    s.settings = { ...s.settings, locale: 'ja' };
    await w.vm.$nextTick();
    expect(q('bake-cancelled')?.textContent?.trim()).toBe('物理焼き込みをキャンセルしました。モーションは変更されていません');
    // Closing forgets it: opened again, the dialog is idle with nothing to say.
    bake.close();
    bake.open = true;
    await w.vm.$nextTick();
    expect(q('bake-cancelled')).toBeNull();
    w.unmount();
  });
  it('a refusal that names --from/--to (a key far past the rest: E_SPAN) names the dialog\'s own fields, in English and Japanese', async () => {
    const w = dialog('en');
    const bake = useBakeStore();
    bake.failure = denseRefusal('physics-bake', 0, 2_000_000, 10, undefined, true)!;
    await w.vm.$nextTick();
    const text = () => q('bake-failure')?.textContent?.trim() ?? '';
    expect(text()).toBe('The keys run from frame 0 to 2,000,000, more frames than this works through (a key far past the rest?): trim the motion, or set “From frame” and “To frame”');
    expect(text()).not.toContain('--');
    const s = useSettingsStore();
    s.settings = { ...s.settings, locale: 'ja' };
    await w.vm.$nextTick();
    expect(text()).not.toContain('--');
    expect(text()).toContain('「開始フレーム」');
    w.unmount();
  });
});

describe('Bake physics dialog figures', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    document.body.innerHTML = '';
  });

  const report = (o: Partial<PhysicsBakeReport> = {}): PhysicsBakeReport => ({
    from: 0, to: 100, bones: ['髪1'], namesTooLong: [], ikNamesTooLong: [], ikOff: [], rawKeys: 1000, keptKeys: 710, replacedKeys: 0, physicsOffKeys: 0, resimulated: false, resimulatedAuto: false, edgeKeys: 1,
    maxPositionError: 0.009, maxRotationErrorDeg: 0.1, worst: null, maxPositionErrorSeen: 0, maxRotationErrorDegSeen: 0, worstSeen: null, simulatedFrom: 0, settleFrames: 0, ...o,
  });
  const withResult = (r: PhysicsBakeReport) => {
    const doc = emptyVmd();
    useBakeStore().result = markRaw({ input: doc, output: doc, report: r, seen: ['髪1'], modelPath: '/m/gene.pmx', via: 'worker' as const });
  };

  it('kept over half the raw keys: a line says a looser tolerance keeps fewer (en, ja); at half or less, or with a key on every frame, nothing', async () => {
    const w = dialog('en');
    withResult(report());
    await w.vm.$nextTick();
    expect(q('bake-looser')?.textContent?.trim()).toBe('Hair and cloth move on most frames: a looser tolerance (e.g. 0.05 units, 0.5°) keeps fewer keys');
    const s = useSettingsStore();
    s.settings = { ...s.settings, locale: 'ja' };
    await w.vm.$nextTick();
    expect(q('bake-looser')?.textContent?.trim()).toBe('髪や布がほぼ毎フレーム動いています。許容誤差を緩める（例: 0.05 単位、0.5°）とキーが減ります');
    withResult(report({ keptKeys: 500 }));
    await w.vm.$nextTick();
    expect(q('bake-looser')).toBeNull();
    useBakeStore().form.raw = true;
    withResult(report({ keptKeys: 1000 }));
    await w.vm.$nextTick();
    expect(q('bake-looser')).toBeNull();
    w.unmount();
  });

  it('a range from A > 0 says where the simulation started (from 0 by default, a warm-up, or restarted at A) and that physics is live after B (en, ja); from 0 nothing', async () => {
    const w = dialog('en');
    withResult(report({ from: 100, to: 200, simulatedFrom: 0 }));
    await w.vm.$nextTick();
    expect(q('bake-simulated')?.textContent?.trim()).toBe('Simulated from frame 0, as the motion plays from the start; keys written over 100–200. After 200 the bones are simulated live again');
    withResult(report({ from: 100, to: 200, simulatedFrom: 70, settleFrames: 60 }));
    await w.vm.$nextTick();
    expect(q('bake-simulated')?.textContent?.trim()).toBe('Simulated from frame 70 (a warm-up of 30 frames); keys written over 100–200. After 200 the bones are simulated live again');
    withResult(report({ from: 100, to: 200, simulatedFrom: 100, settleFrames: 60 }));
    await w.vm.$nextTick();
    expect(q('bake-simulated')?.textContent?.trim()).toBe('Physics restarted at frame 100’s pose (warm-up 0): the hair at 100 is not where playing puts it. After 200 the bones are simulated live again');
    const s = useSettingsStore();
    s.settings = { ...s.settings, locale: 'ja' };
    withResult(report({ from: 100, to: 200, simulatedFrom: 0 }));
    await w.vm.$nextTick();
    expect(q('bake-simulated')?.textContent?.trim()).toBe('0 フレームから、最初から再生したときと同じに物理演算し、100–200 にキーを書きました。200 より後は再び物理演算で動きます');
    withResult(report());
    await w.vm.$nextTick();
    expect(q('bake-simulated')).toBeNull();
    w.unmount();
  });

  it('Largest error names the worst bone one can see first, the invisible weight (錘) bone’s figure in brackets after it (en, ja)', async () => {
    const w = dialog('en');
    withResult(report({ maxPositionError: 0.0081, maxRotationErrorDeg: 0.1, worst: { bone: '後クローク1_2錘', frame: 16 }, maxPositionErrorSeen: 0.0064, maxRotationErrorDegSeen: 0.099, worstSeen: { bone: '前髪1_2', frame: 40 } }));
    await w.vm.$nextTick();
    expect(q('bake-error')?.textContent?.trim()).toBe('Largest error, played with physics off against the simulation: 0.0064 units, 0.099° (前髪1_2 at frame 40) [bones without vertices: 0.0081 units, 0.10° (後クローク1_2錘 at frame 16)]');
    const s = useSettingsStore();
    s.settings = { ...s.settings, locale: 'ja' };
    await w.vm.$nextTick();
    expect(q('bake-error')?.textContent?.trim()).toBe('物理 OFF で再生して物理演算と比べた最大誤差: 位置 0.0064, 回転 0.099°（前髪1_2, フレーム 40） ［頂点のないボーン: 位置 0.0081, 回転 0.10°（後クローク1_2錘, フレーム 16）］');
    // The worst bone is seen: named alone, as before.
    s.settings = { ...s.settings, locale: 'en' };
    withResult(report({ maxPositionError: 0.0081, worst: { bone: '前髪1_2', frame: 16 }, maxPositionErrorSeen: 0.0081, worstSeen: { bone: '前髪1_2', frame: 16 } }));
    await w.vm.$nextTick();
    expect(q('bake-error')?.textContent?.trim()).toBe('Largest error, played with physics off against the simulation: 0.0081 units, 0.10° (前髪1_2 at frame 16)');
    w.unmount();
  });

  it('a re-bake with “Simulate again…” says how many existing baked keys it replaced (en, ja); a first bake says nothing of it', async () => {
    const w = dialog('en');
    withResult(report({ replacedKeys: 40, physicsOffKeys: 31, resimulated: true }));
    await w.vm.$nextTick();
    expect(q('bake-rebaked')?.textContent?.trim()).toBe('31 existing baked keys (physics off) were replaced: the range was simulated again');
    const s = useSettingsStore();
    s.settings = { ...s.settings, locale: 'ja' };
    await w.vm.$nextTick();
    expect(q('bake-rebaked')?.textContent?.trim()).toBe('焼き込み済みのキー（物理OFF）31 個を置き換えました。範囲内はもう一度物理演算しています');
    // Decided by 'auto' (every baked bone had such keys): the line says why, and how to play them as keys.
    withResult(report({ replacedKeys: 40, physicsOffKeys: 31, resimulated: true, resimulatedAuto: true }));
    await w.vm.$nextTick();
    expect(q('bake-rebaked')?.textContent?.trim()).toBe('焼き込むボーンすべてに範囲内で物理OFF のキーがありました（前回の焼き込み）。その上をもう一度物理演算し、31 個のキーを置き換えました。キーどおりに再生するには「物理OFF のキーの上も再演算する」をオンにしてからオフにしてください');
    s.settings = { ...s.settings, locale: 'en' };
    await w.vm.$nextTick();
    expect(q('bake-rebaked')?.textContent?.trim()).toBe('Every baked bone had keys with physics off in the range (a previous bake): the range was simulated again over them, 31 keys replaced; tick and untick “Simulate again…” to play them as keys instead');
    withResult(report({ replacedKeys: 3 }));
    await w.vm.$nextTick();
    expect(q('bake-rebaked')).toBeNull();
    expect(q('bake-physics-off')).toBeNull();
    w.unmount();
  });

  it('without “Simulate again…”, keys with physics off in the range were played as keys: a line says how many and how to simulate over them (en, ja)', async () => {
    const w = dialog('en');
    withResult(report({ replacedKeys: 40, physicsOffKeys: 31, resimulated: false }));
    await w.vm.$nextTick();
    expect(q('bake-rebaked')).toBeNull();
    expect(q('bake-physics-off')?.textContent?.trim()).toBe('31 keys of the baked bones in the range switch physics off (keyed by hand, or a previous bake): they were played as keys; tick “Simulate again over keys with physics off” to simulate over them');
    const s = useSettingsStore();
    s.settings = { ...s.settings, locale: 'ja' };
    await w.vm.$nextTick();
    expect(q('bake-physics-off')?.textContent?.trim()).toBe('範囲内で焼き込むボーンのキー 31 個が物理OFF です（手で打ったキー、または前回の焼き込み）。キーどおりに再生しました。その上も物理演算するには「物理OFF のキーの上も再演算する」をオンにしてください');
    withResult(report({ replacedKeys: 1, physicsOffKeys: 1 }));
    s.settings = { ...s.settings, locale: 'en' };
    await w.vm.$nextTick();
    expect(q('bake-physics-off')?.textContent?.trim()).toMatch(/^1 key of the baked bones in the range switches physics off .*: it was played as a key;/);
    w.unmount();
  });
});

describe('Bake physics dialog: “Simulate again over keys with physics off”', () => {
  it('is undecided (–) by default, reaching the bake job as resimulate \'auto\' (before: off, so a re-bake replayed the old bake), says so in en and ja, and reaches it as resimulate when ticked', async () => {
    memoryScene([['/s/a.vmd', dance(10)]]);
    const p = usePreviewStore();
    p.setModel({ name: 'hair.pmx', path: '/m/hair.pmx', format: 'pmx', bones: 3, morphs: 0, vertices: 0, rigidBodies: 2, notes: [] });
    p.physicsState = 'on';
    p.droppedModels.set('/m/hair.pmx', new Uint8Array([1, 2, 3]));
    await useSceneStore().openPath('/s/a.vmd');
    const seen: BakeSettings[] = [];
    const spy = vi.spyOn(BakeClient.prototype, 'run').mockImplementation(async (_m, _d, settings) => {
      seen.push({ ...settings });
      return { ok: false, error: { code: 'E_CANCELLED', message: 'cancelled' } } as never;
    });
    try {
      const w = dialog('en');
      await w.vm.$nextTick();
      const box = () => q('bake-resimulate') as HTMLInputElement;
      expect(box().checked).toBe(false);
      expect(box().indeterminate).toBe(true);
      expect(box().parentElement!.textContent!.trim()).toBe('Simulate again over keys with physics off (a previous bake)');
      const s = useSettingsStore();
      s.settings = { ...s.settings, locale: 'ja' };
      await w.vm.$nextTick();
      expect(box().parentElement!.textContent!.trim()).toBe('物理OFF のキーの上も再演算する（前回の焼き込み）');
      q('bake-start')!.click();
      await flushPromises();
      box().click();
      await w.vm.$nextTick();
      expect(useBakeStore().form.resimulate).toBe(true);
      q('bake-start')!.click();
      await flushPromises();
      expect(seen.map((x) => x.resimulate)).toEqual(['auto', true]);
      // The warm-up field: empty is the engine's default (from frame 0), a number reaches the job as frames.
      expect(seen.map((x) => x.warmup)).toEqual([undefined, undefined]);
      const warm = q('bake-warmup') as HTMLInputElement;
      warm.value = '30';
      warm.dispatchEvent(new Event('input'));
      await w.vm.$nextTick();
      q('bake-start')!.click();
      await flushPromises();
      expect(seen[2].warmup).toBe(30);
      w.unmount();
    } finally {
      spy.mockRestore();
    }
  });
});
