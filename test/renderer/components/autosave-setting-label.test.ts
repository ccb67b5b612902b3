// The ? menu's Autosave list (MenuBar.vue, stores/autosave.ts autosaveSecondsOf) with a value set by hand in
// settings.json: within 2 s … 24 h it is used (rounded to whole seconds) and listed among the menu's choices, said to
// come from settings.json; outside those bounds (or not a number) the default, 1 min, is used and listed as the menu's
// own choice, as the settings service falls back to the default for a window size out of its bounds. In English and
// Japanese; a count of seconds over 999 is grouped as other counts are ("Every 86,399 s" read "Every 86399 s").
import { afterEach, describe, expect, it } from 'vitest';
import { nextTick } from 'vue';
import { mount, type VueWrapper } from '@vue/test-utils';
import MenuBar from '../../../renderer/src/components/MenuBar.vue';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { memoryScene } from '../stores/scene-fixtures';

let w: VueWrapper | null = null;
afterEach(() => {
  w?.unmount();
  w = null;
  document.body.innerHTML = '';
});

async function menu(value: unknown, locale: 'en' | 'ja'): Promise<{ chosen: string; labels: string[] }> {
  memoryScene([]);
  const s = useSettingsStore();
  s.settings = { ...s.settings, locale, ui: { ...s.settings.ui, autosaveSeconds: value as number } };
  w = mount(MenuBar, { attachTo: document.body });
  for (let i = 0; i < 5; i++) await nextTick();
  (document.querySelector('[data-testid="cmd-help"]') as HTMLElement).click();
  for (let i = 0; i < 5; i++) await nextTick();
  const select = document.querySelector<HTMLSelectElement>('[data-testid="autosave-interval"]')!;
  const labels = [...select.options].map((o) => o.textContent!.trim());
  const chosen = select.options[select.selectedIndex]?.textContent?.trim() ?? '';
  w.unmount();
  w = null;
  document.body.innerHTML = '';
  return { chosen, labels };
}

const EN = ['Off', 'Every 30 s', 'Every 1 min', 'Every 2 min', 'Every 5 min', 'Every 10 min'];
const JA = ['オフ', '30 秒ごと', '1 分ごと', '2 分ごと', '5 分ごと', '10 分ごと'];

describe('the Autosave list with a hand-set settings.json value', () => {
  it('a value within 2 s … 24 h is listed as from settings.json, in English and Japanese', async () => {
    expect(await menu(2, 'en')).toEqual({ chosen: 'Every 2 s (settings.json)', labels: ['Off', 'Every 2 s (settings.json)', ...EN.slice(1)] });
    expect(await menu(2, 'ja')).toEqual({ chosen: '2 秒ごと（settings.json の値）', labels: ['オフ', '2 秒ごと（settings.json の値）', ...JA.slice(1)] });
    expect((await menu(2.4, 'en')).chosen).toBe('Every 2 s (settings.json)');
    expect((await menu(90, 'en')).chosen).toBe('Every 90 s (settings.json)');
    expect((await menu(10800, 'ja')).chosen).toBe('180 分ごと（settings.json の値）');
    expect((await menu(86399, 'en')).chosen).toBe('Every 86,399 s (settings.json)');
    expect((await menu(86399, 'ja')).chosen).toBe('86,399 秒ごと（settings.json の値）');
    expect((await menu(86400, 'en')).chosen).toBe('Every 1,440 min (settings.json)');
    // One of the menu's own choices set by hand is just that choice.
    expect(await menu(300, 'ja')).toEqual({ chosen: '5 分ごと', labels: JA });
  });

  it('a value outside the bounds, or not a number, is the default and nothing extra is listed', async () => {
    for (const v of [1, 1.4, -30, 86401, 1e9, '30', null]) {
      expect(await menu(v, 'en'), String(v)).toEqual({ chosen: 'Every 1 min', labels: EN });
    }
    expect(await menu(1, 'ja')).toEqual({ chosen: '1 分ごと', labels: JA });
    expect(await menu(0, 'ja')).toEqual({ chosen: 'オフ', labels: JA });
  });
});
