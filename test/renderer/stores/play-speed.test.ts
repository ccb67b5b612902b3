// Slow playback (fixphys3 finding 2): ×1, ×0.5, ×0.25. The playhead advances by the chosen share of the display's
// time, tick by tick of a made-up 60 Hz clock (the playback loop's step, playStep), loops and stops as at ×1; the
// song's clock drives only at ×1 (below it the song is silent and the display clock runs at the speed); S cycles
// the speeds, and F1's reference lists it. The speed is remembered in the settings (fixtrace2 item 2): a new window
// over the same settings plays at the speed last chosen, as the preview's physics mode comes back.
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { PLAY_RATE_SETTING, PLAY_RATES, playStep, useTimeStore } from '../../../renderer/src/stores/time';
import { SHORTCUT_GROUPS } from '../../../renderer/src/shell/shortcuts';
import { t } from '../../../shared/i18n/strings';
import { setApi } from '../../../renderer/src/api';
import { DEFAULT_SETTINGS, type Settings } from '../../../shared/ipc/contract';
import { persistentSettingsApi as settingsApi } from '../../helpers/settings-api';
import { useSettingsStore } from '../../../renderer/src/stores/settings';

/** A new window over the same settings: a fresh Pinia, the settings loaded, the speed restored as App.vue does. */
async function newWindow(stored: { settings: Settings }) {
  setActivePinia(createPinia());
  setApi(settingsApi(stored));
  await useSettingsStore().load();
  const time = useTimeStore();
  time.restoreRate();
  return time;
}

/** Until the settings' requests have gone out and come back. */
const settled = () => new Promise((r) => setTimeout(r, 0));

/** Where the playhead is after `ticks` display frames of 1/60 s from frame 0 at `rate` over 0..1000, no song. */
function after(ticks: number, rate: number): number {
  let f = 0;
  for (let i = 0; i < ticks; i++) f = playStep(f, 1 / 60, rate, [0, 1000], true, null).frame;
  return f;
}

describe('slow playback', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    setApi(settingsApi({ settings: structuredClone(DEFAULT_SETTINGS) }));
  });

  it('advances half a motion frame per 60 Hz tick at ×1, a quarter at ×0.5, an eighth at ×0.25', () => {
    // One second of display (60 ticks): 30 motion frames at ×1, 15 at ×0.5, 7.5 at ×0.25.
    expect(after(60, 1)).toBeCloseTo(30, 9);
    expect(after(60, 0.5)).toBeCloseTo(15, 9);
    expect(after(60, 0.25)).toBeCloseTo(7.5, 9);
    expect(playStep(10, 1 / 60, 0.25, [0, 1000], true, null).frame).toBeCloseTo(10.125, 12);
  });

  it('loops and stops over the bounds as at ×1; the song\'s clock says the frame when given', () => {
    // 95 + 0.5 s × 30 × 0.5 = 102.5: past the end 100 of 0..100, looped to 2.5; without Loop, stopped at 100.
    expect(playStep(95, 0.5, 0.5, [0, 100], true, null)).toEqual({ frame: 2.5, stop: false });
    expect(playStep(95, 0.5, 0.5, [0, 100], false, null)).toEqual({ frame: 100, stop: true });
    expect(playStep(40, 1 / 60, 1, [0, 100], true, 41.2)).toEqual({ frame: 41.2, stop: false });
  });

  it('S cycles ×1 → ×0.5 → ×0.25 → ×1, and F1\'s reference names it', () => {
    const time = useTimeStore();
    expect(time.rate).toBe(1);
    expect(PLAY_RATES).toEqual([1, 0.5, 0.25]);
    time.cycleRate();
    expect(time.rate).toBe(0.5);
    time.cycleRate();
    expect(time.rate).toBe(0.25);
    time.cycleRate();
    expect(time.rate).toBe(1);
    const row = SHORTCUT_GROUPS.flatMap((g) => g.rows).find((r) => r.action === 'playSpeed');
    expect(row?.keys).toEqual([['S']]);
    expect(t(row!.label as never, 'en')).toContain('×0.25');
    expect(t(row!.label as never, 'ja')).toContain('再生速度');
  });

  it('the speed chosen is remembered: a new window over the same settings plays at it; none or a stray value is ×1', async () => {
    const stored = { settings: structuredClone(DEFAULT_SETTINGS) };
    let time = await newWindow(stored);
    expect(time.rate).toBe(1);
    time.cycleRate();
    await settled();
    expect(stored.settings.ui[PLAY_RATE_SETTING]).toBe(0.5);
    time = await newWindow(stored);
    expect(time.rate).toBe(0.5);
    time.cycleRate();
    await settled();
    time = await newWindow(stored);
    expect(time.rate).toBe(0.25);
    // Restoring does not write the settings again; a value not offered (an older or edited file) plays at ×1.
    stored.settings.ui[PLAY_RATE_SETTING] = 0.3;
    time = await newWindow(stored);
    expect(time.rate).toBe(1);
    await settled();
    expect(stored.settings.ui[PLAY_RATE_SETTING]).toBe(0.3);
  });
});
