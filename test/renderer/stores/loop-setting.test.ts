/**
 * The Loop switch beside Play is remembered as its neighbours are (new-user pass nuprefs 4: unticked, it came back
 * ticked after every restart; Physics, Self-shadow, Bodies and Outline were kept). The preview restores it with
 * them once the settings are in (use-preview.ts restorePhysics → time.restoreLoop).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { DEFAULT_SETTINGS, okValue, type Settings } from '../../../shared/ipc/contract';
import { setApi } from '../../../renderer/src/api';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { useTimeStore } from '../../../renderer/src/stores/time';

let stored: Settings;
beforeEach(() => {
  setActivePinia(createPinia());
  stored = { ...DEFAULT_SETTINGS, ui: {} };
  const api = {
    setSettings: async (patch: Partial<Settings>) => okValue((stored = { ...stored, ...patch, ui: { ...stored.ui, ...(patch.ui ?? {}) } })),
    getSettings: async () => okValue(stored),
  };
  setApi(new Proxy(api, { get: (o, k) => (o as Record<string | symbol, unknown>)[k] ?? (async () => ({ ok: true, value: undefined })) }) as never);
});

/** A fresh start: new stores, the settings read back from what was stored. */
async function restart() {
  setActivePinia(createPinia());
  await useSettingsStore().load();
  const time = useTimeStore();
  time.restoreLoop();
  return time;
}

describe('Loop', () => {
  it('on by default; switched off it stays off after a restart, and on again when switched on', async () => {
    expect((await restart()).loop).toBe(true);
    const time = useTimeStore();
    time.setLoop(false);
    await Promise.resolve();
    expect(stored.ui.playLoop).toBe(false);
    expect((await restart()).loop).toBe(false);
    useTimeStore().setLoop(true);
    await Promise.resolve();
    expect((await restart()).loop).toBe(true);
  });

  it('a play range (always looped) restored over: the switch as remembered comes back when the range ends', async () => {
    stored = { ...stored, ui: { playLoop: false } };
    setActivePinia(createPinia());
    const time = useTimeStore();
    time.setRange(100);
    expect(time.setPlayRange(10, 20)).toBe(true);
    expect(time.loop).toBe(true);
    await useSettingsStore().load();
    time.restoreLoop();
    expect(time.loop).toBe(true); // the range still loops
    time.clearRange();
    expect(time.loop).toBe(false);
  });
});
