// Settings updates are optimistic and main answers each with the whole normalised settings: an answer to an
// earlier update that arrives after a later update began must not take the later one back (preview-physics'
// e2e saw the UI in English again for a moment: a toggle's answer came after the switch to Japanese).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { setApi } from '../../../renderer/src/api';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import type { Settings } from '../../../shared/ipc/contract';
import { okVoid } from '../../helpers/quiet-api';

/** Main's side, installed as the app's API: the settings as stored, each setSettings answered when the test says. */
function fakeMain() {
  let stored: Settings = { locale: 'en', lastDirectory: null, previewModel: null, window: { width: 1280, height: 800, maximized: false }, ui: {} };
  const waiting: (() => void)[] = [];
  /** Each request's patch, in the order main got them. */
  const patches: Partial<Settings>[] = [];
  const api = {
    getSettings: async () => ({ ok: true as const, value: { ...stored } }),
    listRecent: async () => ({ ok: true as const, value: [] }),
    setSettings: (patch: Partial<Settings>) => {
      patches.push(structuredClone(patch));
      // As main merges (settings-service.ts): shallow, `ui` key by key.
      stored = { ...stored, ...patch, ui: { ...stored.ui, ...(patch.ui ?? {}) } };
      const answer = { ok: true as const, value: { ...stored } };
      return new Promise((resolve) => waiting.push(() => resolve(answer)));
    },
  };
  /** Answers the oldest request main holds, once one has come. */
  const answerNext = async () => {
    await vi.waitFor(() => expect(waiting.length).toBeGreaterThan(0));
    waiting.shift()!();
  };
  // The app's API: setSettings is main's; every other request answers ok with nothing.
  setApi(new Proxy(api, { get: (o, k) => (o as Record<string | symbol, unknown>)[k] ?? okVoid }) as never);
  return { answerNext, sent: () => waiting.length, stored: () => stored, patches };
}

describe('settings updates', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it("an earlier update's answer arriving after a later update began does not undo it", async () => {
    const main = fakeMain();
    const settings = useSettingsStore();
    settings.settings = { ...settings.settings, locale: 'en', ui: {} };
    const first = settings.update({ ui: { physicsBodies: false } });
    const second = settings.setLocale('ja');
    expect(settings.locale).toBe('ja');
    await main.answerNext();
    await first;
    expect(settings.locale).toBe('ja');
    expect(settings.settings.ui).toEqual({ physicsBodies: false });
    await main.answerNext();
    await second;
    expect(settings.locale).toBe('ja');
    expect(settings.settings.ui).toEqual({ physicsBodies: false });
  });

  it('sends one patch at a time, each after the previous answer, so main stores them in the order made', async () => {
    const main = fakeMain();
    const settings = useSettingsStore();
    const first = settings.update({ ui: { 'layout.leftWidth': 400, 'layout.rightWidth': null } });
    const second = settings.update({ ui: { 'layout.leftWidth': 400, 'layout.rightWidth': 600 } });
    await vi.waitFor(() => expect(main.sent()).toBe(1));
    // The second is not sent while the first waits for its answer.
    await new Promise((r) => setTimeout(r, 20));
    expect(main.sent()).toBe(1);
    expect(main.stored().ui).toEqual({ 'layout.leftWidth': 400, 'layout.rightWidth': null });
    await main.answerNext();
    await first;
    await vi.waitFor(() => expect(main.sent()).toBe(1));
    expect(main.stored().ui).toEqual({ 'layout.leftWidth': 400, 'layout.rightWidth': 600 });
    await main.answerNext();
    await second;
    expect(settings.settings.ui).toEqual({ 'layout.leftWidth': 400, 'layout.rightWidth': 600 });
  });

  it("a lone update takes main's normalised answer", async () => {
    const main = fakeMain();
    const settings = useSettingsStore();
    const done = settings.update({ lastDirectory: '/tmp/x' });
    await main.answerNext();
    await done;
    // The answer is main's whole settings (its locale included), not only the patch.
    expect(settings.settings.locale).toBe('en');
    expect(settings.settings.lastDirectory).toBe('/tmp/x');
  });

  it('changes made while one request is out go as one request carrying them all, once it answers', async () => {
    // Before, each went alone after the previous answer: three quick toggles made three more round trips.
    const main = fakeMain();
    const settings = useSettingsStore();
    settings.settings = { ...settings.settings, locale: 'en', ui: {} };
    const first = settings.update({ ui: { physics: true } });
    await vi.waitFor(() => expect(main.patches).toHaveLength(1));
    const later = [
      settings.update({ ui: { physics: true, bones: false } }),
      settings.setLocale('ja'),
      settings.update({ lastDirectory: '/m' }),
      settings.update({ ui: { physics: false, bones: false, outline: true } }),
    ];
    await new Promise((r) => setTimeout(r, 20));
    expect(main.patches).toHaveLength(1);
    await main.answerNext();
    await first;
    await vi.waitFor(() => expect(main.patches).toHaveLength(2));
    expect(main.patches[1]).toEqual({ ui: { physics: false, bones: false, outline: true }, locale: 'ja', lastDirectory: '/m' });
    await main.answerNext();
    await Promise.all(later);
    expect(main.patches).toHaveLength(2);
    expect(settings.settings).toMatchObject({ locale: 'ja', lastDirectory: '/m', ui: { physics: false, bones: false, outline: true } });
  });

  it('a change still queued when the page goes (pagehide, beforeunload) is sent then, without waiting for the answer out', async () => {
    const main = fakeMain();
    const settings = useSettingsStore();
    settings.settings = { ...settings.settings, locale: 'en', ui: {} };
    settings.listenForUnload();
    void settings.update({ ui: { 'layout.leftWidth': 300 } });
    await vi.waitFor(() => expect(main.patches).toHaveLength(1));
    void settings.update({ ui: { 'layout.leftWidth': 420 } });
    expect(main.patches).toHaveLength(1);
    // The window closes: no answer comes to the request out; the queued change leaves at once.
    window.dispatchEvent(new Event('pagehide'));
    expect(main.patches).toHaveLength(2);
    expect(main.patches[1]).toEqual({ ui: { 'layout.leftWidth': 420 } });
    expect(main.stored().ui).toEqual({ 'layout.leftWidth': 420 });
    // Nothing queued: a second unload event (beforeunload came first, then pagehide) sends nothing more.
    window.dispatchEvent(new Event('beforeunload'));
    expect(main.patches).toHaveLength(2);
    // beforeunload alone flushes too.
    void settings.update({ locale: 'ja' });
    expect(main.patches).toHaveLength(2);
    window.dispatchEvent(new Event('beforeunload'));
    expect(main.patches).toHaveLength(3);
    expect(main.patches[2]).toEqual({ locale: 'ja' });
  });

  it('the app’s start (load) listens for the page going', async () => {
    const main = fakeMain();
    const settings = useSettingsStore();
    await settings.load();
    expect(settings.settings.locale).toBe('en');
    void settings.update({ ui: { a: 1 } });
    await vi.waitFor(() => expect(main.patches).toHaveLength(1));
    void settings.update({ ui: { a: 2 } });
    window.dispatchEvent(new Event('pagehide'));
    expect(main.patches.at(-1)).toEqual({ ui: { a: 2 } });
  });
});
