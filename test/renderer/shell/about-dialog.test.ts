// ? → About (translator pass nui18n, finding 8): the runtime rows were the raw keys main reports ("node", "v8") and a
// hard-coded "platform" with Node's "linux", in both languages. Now the runtimes by their product names (the same
// in both), the platform row in the UI's language (Platform / OS) and the system by the name users know.
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount } from '@vue/test-utils';
import { nextTick } from 'vue';
import AboutDialog from '../../../renderer/src/shell/AboutDialog.vue';
import { shellUi } from '../../../renderer/src/shell/commands';
import { useSettingsStore } from '../../../renderer/src/stores/settings';

/** The dialog's rows as [term, value] pairs, in order. */
function rows(): [string, string][] {
  const dl = document.querySelector('[data-testid="about-dialog"] dl')!;
  const dts = [...dl.querySelectorAll('dt')].map((e) => e.textContent!.trim());
  const dds = [...dl.querySelectorAll('dd')].map((e) => e.textContent!.trim());
  return dts.map((d, i) => [d, dds[i]]);
}

describe('About: the runtime and platform rows', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('names Node.js, Electron, Chromium, V8 and the platform, in English and Japanese', async () => {
    const settings = useSettingsStore();
    settings.appInfo = {
      name: 'vmd-studio', version: '0.1.0', mode: 'electron', nativeDialogs: true, platform: 'win32', homeDir: 'C:\\Users\\a',
      versions: { node: '20.20.2', electron: '33.0.0', chrome: '130.0.1', v8: '11.3.244' },
    };
    settings.settings = { ...settings.settings, locale: 'en' };
    shellUi.aboutOpen = true;
    mount(AboutDialog, { attachTo: document.body });
    await nextTick();
    expect(rows()).toEqual([
      ['Mode', 'Desktop'],
      ['Node.js', '20.20.2'], ['Electron', '33.0.0'], ['Chromium', '130.0.1'], ['V8', '11.3.244'], ['Platform', 'Windows'],
    ]);
    settings.settings = { ...settings.settings, locale: 'ja' };
    settings.appInfo = { ...settings.appInfo, mode: 'browser', platform: 'linux', versions: { node: '20.20.2', v8: '11.3.244' } };
    await nextTick();
    expect(rows()).toEqual([['モード', 'ブラウザモード'], ['Node.js', '20.20.2'], ['V8', '11.3.244'], ['OS', 'Linux']]);
    shellUi.aboutOpen = false;
  });
});
