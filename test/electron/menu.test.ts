import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { menuTemplate } from '../../electron/menu';
import { t } from '../../shared/i18n/strings';
import { SHORTCUT_GROUPS } from '../../renderer/src/shell/shortcuts';

function flatten(items: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return items.flatMap((i) => [i, ...(Array.isArray(i.submenu) ? flatten(i.submenu) : [])]);
}

function build(platform: NodeJS.Platform, recent: { path: string; name: string; openedAt: number }[] = [], stageMotion?: 'camera' | 'light') {
  const sent: string[] = [];
  const opened: string[] = [];
  const tpl = menuTemplate({
    platform,
    t: (k) => t(k, 'en'),
    recent,
    command: (id) => sent.push(id),
    openRecent: (p) => opened.push(p),
    clearRecent: () => sent.push('clearRecent'),
    stageMotion,
  });
  return { tpl, items: flatten(tpl), sent, opened };
}

describe('native menu', () => {
  it('has File, Edit, View, Render, Help with every command the app offers; menu clicks send menuCommand ids', () => {
    const { tpl, items, sent } = build('linux');
    expect(tpl.map((m) => m.label)).toEqual(['&File', '&Edit', '&View', '&Render', '&Help']);
    const byLabel = (l: string) => items.find((i) => i.label === l)!;
    for (const l of ['Open…', 'Open Recent', 'Save', 'Save As…', 'Export VPD at Frame…', 'Batch…', 'Quit', 'Undo', 'Redo', 'Copy Curve', 'Paste Curve', 'Whole Motion…', 'Video…', 'Keyboard Shortcuts', 'About VMD Studio']) {
      expect(byLabel(l), l).toBeDefined();
    }
    for (const l of ['Open…', 'Save', 'Save As…', 'Export VPD at Frame…', 'VRM Animation (.vrma)…', 'BVH…', 'Batch…', 'Undo', 'Redo', 'Copy Curve', 'Paste Curve', 'Whole Motion…', 'Video…', 'Keyboard Shortcuts', 'About VMD Studio']) {
      (byLabel(l).click as () => void)();
    }
    expect(sent).toEqual(['open', 'save', 'saveAs', 'exportVpd', 'exportVrma', 'exportBvh', 'batch', 'undo', 'redo', 'copyCurve', 'pasteCurve', 'wholeMotion', 'exportVideo', 'shortcuts', 'about']);
    // File → Export holds the motion capture exports.
    const fileMenu = tpl.find((m) => m.label?.replace('&', '') === 'File')!.submenu as MenuItemConstructorOptions[];
    expect((fileMenu.find((i) => i.label === 'Export')!.submenu as MenuItemConstructorOptions[]).map((i) => i.label)).toEqual(['VRM Animation (.vrma)…', 'BVH…']);
    // Whole Motion… sits under Edit, with the other edits of the open motion.
    expect((tpl.find((m) => m.label?.replace('&', '') === 'Edit')!.submenu as MenuItemConstructorOptions[]).map((i) => i.label)).toContain('Whole Motion…');
    // Help starts with Getting started (the first steps and the glossary), then the keyboard reference and About.
    const helpMenu = tpl.find((m) => m.label?.replace('&', '') === 'Help')!.submenu as MenuItemConstructorOptions[];
    expect(helpMenu.filter((i) => i.type !== 'separator').map((i) => i.label)).toEqual(['Getting started', 'Keyboard Shortcuts', 'About VMD Studio']);
    const before = sent.length;
    (helpMenu[0].click as () => void)();
    expect(sent.slice(before)).toEqual(['gettingStarted']);
    // F1 is the usual help key; the keyboard reference sits under Help.
    expect(byLabel('Keyboard Shortcuts').accelerator).toBe('F1');
    expect((tpl.find((m) => m.label?.replace('&', '') === 'Help')!.submenu as MenuItemConstructorOptions[]).map((i) => i.label)).toContain('Keyboard Shortcuts');
  });

  it('View → Reset layout sends resetLayout (the toolbar\'s ? → Reset layout), in English and Japanese', () => {
    // A pane dragged out of a small window (new-user pass nulaptop 3) comes back from the native menu too.
    for (const [lang, view, label] of [['en', '&View', 'Reset layout'], ['ja', '表示(&V)', 'レイアウトを元に戻す']] as const) {
      const sent: string[] = [];
      const tpl = menuTemplate({ platform: 'linux', t: (k) => t(k, lang), recent: [], command: (id) => sent.push(id), openRecent: () => {}, clearRecent: () => {} });
      const viewMenu = tpl.find((m) => m.label === view)!.submenu as MenuItemConstructorOptions[];
      const item = viewMenu.find((i) => i.label === label);
      expect(item, lang).toBeDefined();
      (item!.click as () => void)();
      expect(sent, lang).toEqual(['resetLayout']);
    }
  });

  it('File → New Motion is Ctrl+N (⌘N) and sends newMotion, above Open…', () => {
    const { tpl, sent } = build('linux');
    const fileMenu = tpl.find((m) => m.label?.replace('&', '') === 'File')!.submenu as MenuItemConstructorOptions[];
    expect(fileMenu.slice(0, 2).map((i) => [i.label, i.accelerator])).toEqual([['New Motion', 'CmdOrCtrl+N'], ['Open…', 'CmdOrCtrl+O']]);
    (fileMenu[0].click as () => void)();
    expect(sent).toEqual(['newMotion']);
  });

  it('uses each OS’s accelerators: Ctrl+Y and Ctrl+Shift+Z for redo off macOS, ⇧⌘Z and an app menu on macOS', () => {
    const linux = build('linux').items;
    expect(linux.filter((i) => i.click && /redo/i.test(String(i.label))).map((i) => i.accelerator).sort()).toEqual(['Ctrl+Shift+Z', 'Ctrl+Y']);
    expect(linux.find((i) => i.label === 'Save As…')!.accelerator).toBe('CmdOrCtrl+Shift+S');
    const mac = build('darwin');
    expect(mac.tpl[0].label).toBe('VMD Studio');
    expect(mac.items.filter((i) => i.label === 'Redo').map((i) => i.accelerator)).toEqual(['Shift+Cmd+Z']);
    // Quit lives in the app menu on macOS, not under File.
    const file = mac.tpl.find((m) => m.label?.replace('&', '') === 'File')!;
    expect(flatten(file.submenu as MenuItemConstructorOptions[]).some((i) => i.role === 'quit')).toBe(false);
  });

  it('lists recent files under Open Recent and opens them by path', () => {
    const { items, opened, sent } = build('win32', [
      { path: 'C:\\m\\a.vmd', name: 'a.vmd', openedAt: 2 },
      { path: 'C:\\m\\b.vpd', name: 'b.vpd', openedAt: 1 },
    ]);
    const recent = items.find((i) => i.label === 'Open Recent')!.submenu as MenuItemConstructorOptions[];
    expect(recent.map((i) => i.label ?? i.type)).toEqual(['a.vmd', 'b.vpd', 'separator', 'Clear Recent']);
    (recent[1].click as () => void)();
    (recent[3].click as () => void)();
    expect(opened).toEqual(['C:\\m\\b.vpd']);
    expect(sent).toEqual(['clearRecent']);
    const empty = build('linux').items.find((i) => i.label === 'Open Recent')!.submenu as MenuItemConstructorOptions[];
    expect(empty).toEqual([{ label: 'No recent files', enabled: false }]);
  });

  it('turns Export VPD, VRM Animation and BVH off for a camera or a light motion, the reason as their tooltip', () => {
    const exports = ['Export VPD at Frame…', 'VRM Animation (.vrma)…', 'BVH…'];
    const pick = (items: MenuItemConstructorOptions[]) => exports.map((l) => items.find((i) => i.label === l)!);
    // A model's motion (or none): all three on, no tooltip.
    for (const i of pick(build('linux').items)) {
      expect(i.enabled, String(i.label)).not.toBe(false);
      expect(i.toolTip).toBeUndefined();
    }
    const camera = pick(build('linux', [], 'camera').items);
    expect(camera.map((i) => i.enabled)).toEqual([false, false, false]);
    expect(camera.map((i) => i.toolTip)).toEqual(exports.map(() => t('mocap.cameraMotionOff', 'en')));
    const light = pick(build('darwin', [], 'light').items);
    expect(light.map((i) => i.enabled)).toEqual([false, false, false]);
    expect(light.map((i) => i.toolTip)).toEqual(exports.map(() => t('mocap.lightMotionOff', 'en')));
    // The rest of File stays on: Save, Batch.
    const items = build('linux', [], 'camera').items;
    expect(['Save', 'Save As…', 'Batch…'].map((l) => items.find((i) => i.label === l)!.enabled)).toEqual([undefined, undefined, undefined]);
  });

  it('gives every app command the page has a key for the same accelerator (under Electron the page leaves those keys to the menu)', () => {
    // renderer/src/shell/keymap.ts dispatchKey: with commandsByMenu, a keyboard row that runs an app command is
    // not run by the page, so a chord the native menu lacks does nothing at all there (Ctrl+Shift+B did).
    const norm = (a: string) => a.replace('CmdOrCtrl', 'Ctrl').split('+').sort().join('+');
    for (const platform of ['linux', 'win32'] as const) {
      const { items } = build(platform);
      // Each item with an accelerator, clicked on a fresh template: the command it sends, and its keys.
      const byMenu = new Set(items.filter((i) => i.accelerator && i.click).map((i) => {
        const fresh = build(platform);
        (fresh.items.find((x) => x.label === i.label && x.accelerator === i.accelerator)!.click as () => void)();
        return `${fresh.sent[0]} ${norm(String(i.accelerator))}`;
      }));
      for (const row of SHORTCUT_GROUPS.flatMap((g) => g.rows).filter((r) => r.command)) {
        for (const chord of row.keys) {
          const keys = chord.map((k) => (typeof k === 'string' ? (k === 'Mod' ? 'Ctrl' : k.length === 1 ? k.toUpperCase() : k) : '?'));
          expect(byMenu.has(`${row.command} ${keys.slice().sort().join('+')}`), `${platform}: ${row.command} ${keys.join('+')} has no native accelerator`).toBe(true);
        }
      }
    }
  });

  it('File → Scene and Edit → Bake physics…, Bake IK to FK…, Fit to model…, Merge with… send their commands', () => {
    const { items, sent } = build('linux');
    for (const l of ['Open Scene…', 'Save Scene As…', 'Save All', 'Save This Motion Only', 'Close Scene', 'Bake physics…', 'Bake IK to FK…', 'Fit to model…', 'Merge with…']) (items.find((i) => i.label === l)!.click as () => void)();
    expect(sent).toEqual(['openScene', 'saveSceneAs', 'saveAll', 'saveShown', 'closeScene', 'bakePhysics', 'bakeIk', 'fitToModel', 'mergeWith']);
    expect(items.find((i) => i.label === 'Bake physics…')!.accelerator).toBe('CmdOrCtrl+Shift+B');
    expect(items.find((i) => i.label === 'Bake IK to FK…')!.accelerator).toBe('CmdOrCtrl+Shift+K');
  });

  // new-user pass nuprefs 6: Alt / Alt+F opened nothing on Windows (no mnemonics), and no key closed a document.
  it('top menus have access keys off macOS (&File; ファイル(&F) in Japanese), none on macOS', () => {
    const ja = menuTemplate({ platform: 'win32', t: (k) => t(k, 'ja'), recent: [], command: () => {}, openRecent: () => {}, clearRecent: () => {} });
    expect(ja.map((m) => m.label)).toEqual(['ファイル(&F)', '編集(&E)', '表示(&V)', 'レンダリング(&R)', 'ヘルプ(&H)']);
    expect(build('win32').tpl.map((m) => m.label)).toEqual(['&File', '&Edit', '&View', '&Render', '&Help']);
    expect(build('darwin').tpl.map((m) => m.label)).toEqual(['VMD Studio', 'File', 'Edit', 'View', 'Render', 'Help']);
  });

  it('File → Close is Ctrl+W (⌘W) and sends closeDocument, beside File → Scene (Close Scene)', () => {
    const { tpl, sent } = build('linux');
    const fileMenu = tpl.find((m) => m.label === '&File')!.submenu as MenuItemConstructorOptions[];
    const close = fileMenu.find((i) => i.label === 'Close')!;
    expect(close.accelerator).toBe('CmdOrCtrl+W');
    // Beside File → Scene, whose last item is Close Scene.
    const scene = fileMenu[fileMenu.indexOf(close) + 1];
    expect(scene.label).toBe('Scene');
    expect((scene.submenu as MenuItemConstructorOptions[]).at(-1)!.label).toBe('Close Scene');
    (close.click as () => void)();
    expect(sent).toEqual(['closeDocument']);
  });
});
