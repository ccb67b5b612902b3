// "Fit this motion to the model…": a source model from the panel's list that main will not read (chosen in an
// earlier session: the app reads only files chosen in this one) opens the file dialog on that file, so that
// choosing it there grants it; before, the list entry only showed the refusal (seen under Electron after a restart).
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount } from '@vue/test-utils';
import { setApi } from '../../../renderer/src/api';
import RetargetPanel from '../../../renderer/src/components/RetargetPanel.vue';
import { RECENT_MODELS_SETTING, useRetargetStore } from '../../../renderer/src/stores/retarget';
import { useSettingsStore } from '../../../renderer/src/stores/settings';

const OLD = '/models/old/source.pmx';
const calls: { name: string; args: unknown[] }[] = [];

function api(readModel: (path: string) => unknown) {
  const handlers: Record<string, (...a: unknown[]) => Promise<unknown>> = {
    readModelFile: async (p) => readModel(p as string),
    pickFile: async (o) => ({ ok: true, value: null, o }),
  };
  setApi(
    new Proxy(handlers, {
      get: (t, k: string) => (...args: unknown[]) => {
        calls.push({ name: k, args });
        return (t[k] ?? (async () => ({ ok: true, value: undefined })))(...args);
      },
    }) as never,
  );
}

async function panelWithRecent(recent: string[] = [OLD], locale: 'en' | 'ja' = 'en') {
  const settings = useSettingsStore();
  settings.settings = { ...settings.settings, locale, ui: { ...settings.settings.ui, [RECENT_MODELS_SETTING]: JSON.stringify(recent) } };
  settings.appInfo = { ...(settings.appInfo ?? {}), nativeDialogs: true } as never;
  const rt = useRetargetStore();
  rt.open = true;
  rt.state = 'choose';
  rt.targetPath = '/models/target.pmx';
  const w = mount(RetargetPanel, { attachTo: document.body });
  await w.vm.$nextTick();
  return { w, rt };
}

describe('the retarget panel’s list of source models', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    document.body.innerHTML = '';
    calls.length = 0;
  });

  it('a model main refuses as not chosen in this session: the file dialog opens on it', async () => {
    api(() => ({ ok: false, error: { code: 'E_IO_DENIED', message: 'readModelFile: a file that was not chosen in this session', file: OLD } }));
    const { w } = await panelWithRecent();
    const entry = document.querySelector<HTMLButtonElement>('[data-testid="retarget-recent"]');
    expect(entry?.title).toBe(OLD);
    entry!.click();
    for (let i = 0; i < 20 && !calls.some((c) => c.name === 'pickFile'); i++) await new Promise((r) => setTimeout(r, 5));
    const pick = calls.find((c) => c.name === 'pickFile');
    expect(pick, calls.map((c) => c.name).join(', ')).toBeDefined();
    expect((pick!.args[0] as { defaultPath?: string }).defaultPath).toBe(OLD);
    w.unmount();
  });

  it('two models of one file name are told apart by as much of their folders as differs (en and ja); a name alone stays as it is', async () => {
    api(() => ({ ok: false, error: { code: 'E_PMX_TRUNCATED', message: 'truncated' } }));
    const recent = ['/c/threejs/models/miku.pmd', '/c/mmd-viewer-js/model/low_miku/miku.pmd', '/c/a/models/gene.pmx', 'C:\\mmd\\x\\models\\miku.pmd', '/c/other.pmx'];
    const labels = () => [...document.querySelectorAll<HTMLButtonElement>('[data-testid="retarget-recent"]')].map((b) => [b.textContent, b.title]);
    const en = await panelWithRecent(recent);
    expect(labels()).toEqual([
      // Two end in a folder named models: one folder more tells them apart.
      ['miku.pmd — threejs/models', recent[0]],
      ['miku.pmd — low_miku', recent[1]],
      ['gene.pmx', recent[2]],
      ['miku.pmd — x/models', recent[3]],
      ['other.pmx', recent[4]],
    ]);
    en.w.unmount();
    const ja = await panelWithRecent(recent.slice(0, 2), 'ja');
    expect(labels().map(([text]) => text)).toEqual(['miku.pmd（models）', 'miku.pmd（low_miku）']);
    ja.w.unmount();
  });

  it('any other failure (a broken file) is only shown: no dialog', async () => {
    api(() => ({ ok: false, error: { code: 'E_PMX_TRUNCATED', message: 'truncated', file: OLD } }));
    const { w, rt } = await panelWithRecent();
    document.querySelector<HTMLButtonElement>('[data-testid="retarget-recent"]')!.click();
    for (let i = 0; i < 20 && rt.state !== 'failed'; i++) await new Promise((r) => setTimeout(r, 5));
    expect(rt.state).toBe('failed');
    await new Promise((r) => setTimeout(r, 20));
    expect(calls.some((c) => c.name === 'pickFile')).toBe(false);
    w.unmount();
  });
});
