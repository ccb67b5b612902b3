// Every toolbar button and menu item with a shortcut shows it (before: Open…, Save, Save As…, Batch… and Export
// VPD said nothing of Ctrl+O, Ctrl+S, Ctrl+Shift+S, Ctrl+B, Ctrl+E; New had no key at all), in both languages;
// and the native menu's accelerators are the keys the shortcut table (F1) lists for the same commands.
import { describe, expect, it } from 'vitest';
import { nextTick } from 'vue';
import { mount } from '@vue/test-utils';
import type { MenuItemConstructorOptions } from 'electron';
import MenuBar from '../../../renderer/src/components/MenuBar.vue';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { SHORTCUT_GROUPS } from '../../../renderer/src/shell/shortcuts';
import { menuTemplate } from '../../../electron/menu';
import { t } from '../../../shared/i18n/strings';
import { memoryScene, dance } from '../stores/scene-fixtures';
import { useSceneStore } from '../../../renderer/src/stores/scene';

const settle = async () => {
  for (let i = 0; i < 5; i++) await nextTick();
};

describe('shortcuts shown on the toolbar', () => {
  it('New, Open…, Save, Save As…, Batch…, F1 say their keys in the tooltip; Export ▾ → VPD shows Ctrl+E in the item (en, ja)', async () => {
    memoryScene([['/s/a.vmd', dance(10)]]);
    await useSceneStore().openPath('/s/a.vmd');
    const w = mount(MenuBar);
    const title = (id: string) => w.get(`[data-testid="${id}"]`).attributes('title') ?? '';
    const expected: [string, string][] = [
      ['cmd-new-motion', '(Ctrl+N)'],
      ['cmd-open', '(Ctrl+O)'],
      ['cmd-save', '(Ctrl+S)'],
      ['cmd-save-as', '(Ctrl+Shift+S)'],
      ['cmd-batch', '(Ctrl+B)'],
      ['cmd-shortcuts', '(F1)'],
      ['cmd-undo', '(Ctrl+Z)'],
      ['cmd-redo', '(Ctrl+Y)'],
    ];
    for (const locale of ['en', 'ja'] as const) {
      await useSettingsStore().setLocale(locale);
      await settle();
      for (const [id, keys] of expected) expect(title(id), `${id} ${locale}`).toMatch(new RegExp(`\\S ${keys.replace(/[()+]/g, '\\$&')}$`));
      await w.get('[data-testid="cmd-export"]').trigger('click');
      await settle();
      expect(w.get('[data-testid="cmd-export-vpd"]').text()).toMatch(/…Ctrl\+E$/);
      await w.get('[data-testid="cmd-export"]').trigger('click');
    }
    // Open… says what it opens: more than motions and poses.
    await useSettingsStore().setLocale('en');
    await settle();
    expect(title('cmd-open')).toBe('Open a motion, pose, model, scene, capture or song (Ctrl+O)');
    w.unmount();
  });

  it('the native menu gives every command the keys F1 lists for it, and every command key of F1 is in the menu', () => {
    const sent: string[] = [];
    const flat = (items: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] => items.flatMap((i) => [i, ...(Array.isArray(i.submenu) ? flat(i.submenu) : [])]);
    const items = flat(menuTemplate({ platform: 'linux', t: (k) => t(k, 'en'), recent: [], command: (id) => sent.push(id), openRecent: () => {}, clearRecent: () => {} }));
    // Accelerator → the table's chord notation ('Mod' for Ctrl / ⌘).
    const chord = (a: string) => a.replace(/^(CmdOrCtrl|Ctrl|Cmd)\+/, 'Mod+');
    const menuKeys = new Map<string, string[]>();
    for (const i of items) {
      if (!i.accelerator || typeof i.click !== 'function') continue;
      sent.length = 0;
      (i.click as () => void)();
      if (sent.length !== 1) continue;
      menuKeys.set(sent[0], [...(menuKeys.get(sent[0]) ?? []), chord(String(i.accelerator))].sort());
    }
    const rows = SHORTCUT_GROUPS.flatMap((g) => g.rows).filter((r) => r.command);
    for (const r of rows) {
      if (r.command === 'bakePhysics') continue; // the shell's own command (Whole Motion), not in main's menu
      expect(menuKeys.get(r.command!), r.command).toEqual(r.keys.map((c) => c.join('+')).sort());
    }
    // The menu's other accelerators are for commands the table has no key row for (Copy / Paste Curve: Ctrl+Alt).
    expect([...menuKeys.keys()].filter((c) => !rows.some((r) => r.command === c)).sort()).toEqual(['copyCurve', 'pasteCurve']);
  });
});
