// The user's curve presets (the new-user pass's finding 3): kept in the origin's localStorage, they were gone after
// a browser-mode restart (serve's port, so the origin, is new each start). Now they live in settings.json's ui bag,
// through the api as every other setting: a new window (a new Pinia, the same settings) has them; presets found in
// localStorage are moved into the settings once.
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { setApi } from '../../../renderer/src/api';
import { DEFAULT_SETTINGS, type Settings } from '../../../shared/ipc/contract';
import { useCurveEditorStore } from '../../../renderer/src/stores/curve-editor';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { persistentSettingsApi as settingsApi } from '../../helpers/settings-api';
import type { Curve } from '../../../shared/vmd/bezier';

/** A new window over the same settings: a fresh Pinia, the settings loaded. */
async function newWindow(stored: { settings: Settings }) {
  setActivePinia(createPinia());
  setApi(settingsApi(stored));
  await useSettingsStore().load();
  return useCurveEditorStore();
}

const EASE = [20, 0, 107, 127] as unknown as Curve;

beforeEach(() => localStorage.clear());

describe('curve presets are kept in the settings', () => {
  it('a preset saved in one window is there in the next (the same settings, no localStorage), and so is its removal', async () => {
    const stored = { settings: structuredClone(DEFAULT_SETTINGS) };
    const day1 = await newWindow(stored);
    const p = day1.saveUserPreset('私のイーズ', EASE);
    await new Promise((r) => setTimeout(r, 0));
    expect(day1.userPresets.map((x) => x.label)).toEqual(['私のイーズ']);
    // The settings file holds it (what main writes), and the origin's storage does not (the next origin has none).
    expect(JSON.parse(String(stored.settings.ui.curvePresets))).toEqual([{ id: p.id, label: '私のイーズ', curve: [20, 0, 107, 127] }]);
    localStorage.clear();

    const day2 = await newWindow(stored);
    expect(day2.userPresets.map((x) => [x.label, [...x.curve], x.user])).toEqual([['私のイーズ', [20, 0, 107, 127], true]]);
    day2.removeUserPreset(p.id);
    await new Promise((r) => setTimeout(r, 0));
    const day3 = await newWindow(stored);
    expect(day3.userPresets).toEqual([]);
  });

  it('presets found in localStorage (an earlier version) are moved into the settings once, after those there', async () => {
    const stored = { settings: { ...structuredClone(DEFAULT_SETTINGS), ui: { curvePresets: JSON.stringify([{ id: 'user-a', label: 'A', curve: [1, 2, 3, 4] }]) } } };
    localStorage.setItem('vmd-studio.curve-presets', JSON.stringify([{ id: 'user-a', label: 'A', curve: [1, 2, 3, 4] }, { id: 'user-b', label: 'B', curve: [5, 6, 7, 8] }]));
    const w = await newWindow(stored);
    await w.migrateLegacyPresets();
    expect(w.userPresets.map((x) => x.label)).toEqual(['A', 'B']);
    expect(localStorage.getItem('vmd-studio.curve-presets')).toBeNull();
    const next = await newWindow(stored);
    await next.migrateLegacyPresets();
    expect(next.userPresets.map((x) => [x.id, [...x.curve]])).toEqual([['user-a', [1, 2, 3, 4]], ['user-b', [5, 6, 7, 8]]]);
  });
});
