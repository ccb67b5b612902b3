/**
 * The native menu as a template (pure: testable without Electron). Commands that act on the document
 * go to the renderer as `menuCommand` events; Open Recent sends `fileOpened`. Accelerators use
 * CmdOrCtrl, so each OS gets its usual keys (⌘ on macOS, Ctrl elsewhere; Redo is ⇧⌘Z on macOS, Ctrl+Y elsewhere).
 */
import type { MenuItemConstructorOptions } from 'electron';
import type { MenuCommandId, RecentFile } from '../shared/ipc/contract';
import type { UiStringKey } from '../shared/i18n/strings';

export interface MenuContext {
  platform: NodeJS.Platform;
  t: (key: UiStringKey) => string;
  recent: RecentFile[];
  command: (id: MenuCommandId) => void;
  openRecent: (path: string) => void;
  clearRecent: () => void;
  appName?: string;
  /**
   * The active document is a camera's or a light's motion (DocumentState.stageMotion, from shared
   * stageMotionKind): Export VPD/VRMA/BVH are off with the reason as their tooltip, as the app's own items are.
   */
  stageMotion?: 'camera' | 'light' | null;
}

/**
 * A top menu's label with its access key on Windows and Linux (Alt+F opens File; new-user pass nuprefs 6: no menu
 * had one): "&File" where the label holds the letter, else the Japanese way, "ファイル(&F)". macOS has none.
 */
export function withMnemonic(label: string, letter: string, platform: NodeJS.Platform): string {
  if (platform === 'darwin') return label;
  const at = label.toLowerCase().indexOf(letter.toLowerCase());
  return /^[\x20-\x7e]+$/.test(label) && at >= 0 ? `${label.slice(0, at)}&${label.slice(at)}` : `${label}(&${letter.toUpperCase()})`;
}

export function menuTemplate(c: MenuContext): MenuItemConstructorOptions[] {
  const mac = c.platform === 'darwin';
  const top = (key: UiStringKey, letter: string) => withMnemonic(c.t(key), letter, c.platform);
  const cmd = (id: MenuCommandId) => () => c.command(id);
  // A camera or light motion has no pose or body to export (the command refuses it too, from a shortcut).
  const stageOff = c.stageMotion ? c.t(c.stageMotion === 'camera' ? 'mocap.cameraMotionOff' : 'mocap.lightMotionOff') : null;
  const exportItem = (label: UiStringKey, id: MenuCommandId, accelerator?: string): MenuItemConstructorOptions => ({
    label: c.t(label),
    ...(accelerator ? { accelerator } : {}),
    click: cmd(id),
    ...(stageOff ? { enabled: false, toolTip: stageOff } : {}),
  });
  const recentItems: MenuItemConstructorOptions[] = c.recent.length
    ? [
        ...c.recent.map((r) => ({ label: r.name, sublabel: r.path, toolTip: r.path, click: () => c.openRecent(r.path) })),
        { type: 'separator' as const },
        { label: c.t('menu.clearRecent'), click: () => c.clearRecent() },
      ]
    : [{ label: c.t('menu.noRecent'), enabled: false }];

  const file: MenuItemConstructorOptions = {
    label: top('menu.file', 'F'),
    submenu: [
      { label: c.t('menu.newMotionItem'), accelerator: 'CmdOrCtrl+N', click: cmd('newMotion') },
      { label: c.t('menu.open'), accelerator: 'CmdOrCtrl+O', click: cmd('open') },
      { label: c.t('menu.openRecent'), submenu: recentItems },
      { type: 'separator' },
      { label: c.t('menu.save'), accelerator: 'CmdOrCtrl+S', click: cmd('save') },
      { label: c.t('menu.saveAs'), accelerator: 'CmdOrCtrl+Shift+S', click: cmd('saveAs') },
      { label: c.t('menu.close'), accelerator: 'CmdOrCtrl+W', click: cmd('closeDocument') },
      {
        // The toolbar's Scene ▾ (its recent scenes are on Open Recent).
        label: c.t('scene.menu'),
        submenu: [
          { label: c.t('scene.open'), click: cmd('openScene') },
          { label: c.t('scene.saveAs'), click: cmd('saveSceneAs') },
          { label: c.t('scene.saveAll'), click: cmd('saveAll') },
          { label: c.t('scene.saveShown'), click: cmd('saveShown') },
          { type: 'separator' },
          { label: c.t('menu.closeScene'), click: cmd('closeScene') },
        ],
      },
      exportItem('menu.exportVpd', 'exportVpd', 'CmdOrCtrl+E'),
      {
        label: c.t('menu.exportMotion'),
        submenu: [exportItem('menu.exportVrma', 'exportVrma'), exportItem('menu.exportBvh', 'exportBvh')],
      },
      { type: 'separator' },
      { label: c.t('menu.batch'), accelerator: 'CmdOrCtrl+B', click: cmd('batch') },
      ...(mac ? [] : [{ type: 'separator' as const }, { label: c.t('menu.quit'), accelerator: 'Ctrl+Q', role: 'quit' as const }]),
    ],
  };
  const edit: MenuItemConstructorOptions = {
    label: top('menu.edit', 'E'),
    submenu: [
      { label: c.t('menu.undo'), accelerator: 'CmdOrCtrl+Z', click: cmd('undo') },
      { label: c.t('menu.redo'), accelerator: mac ? 'Shift+Cmd+Z' : 'Ctrl+Y', click: cmd('redo') },
      // A second, hidden accelerator so Ctrl+Shift+Z also redoes on Windows and Linux.
      ...(mac ? [] : [{ label: c.t('menu.redo'), accelerator: 'Ctrl+Shift+Z', click: cmd('redo'), visible: false, acceleratorWorksWhenHidden: true }]),
      { type: 'separator' },
      // Text fields need the standard roles for clipboard shortcuts to work at all.
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { role: 'selectAll' },
      { type: 'separator' },
      { label: c.t('menu.copyCurve'), accelerator: 'CmdOrCtrl+Alt+C', click: cmd('copyCurve') },
      { label: c.t('menu.pasteCurve'), accelerator: 'CmdOrCtrl+Alt+V', click: cmd('pasteCurve') },
      { type: 'separator' },
      { label: c.t('menu.wholeMotion'), click: cmd('wholeMotion') },
      // The Whole Motion dialog's own buttons, so each is one menu pick (and Ctrl+Shift+B works: under Electron
      // the page leaves app commands' keys to these accelerators, renderer/src/shell/keymap.ts).
      { label: c.t('bake.open'), accelerator: 'CmdOrCtrl+Shift+B', click: cmd('bakePhysics') },
      { label: c.t('ikBake.open'), accelerator: 'CmdOrCtrl+Shift+K', click: cmd('bakeIk') },
      { label: c.t('retarget.command'), click: cmd('fitToModel') },
      { label: c.t('merge.open'), click: cmd('mergeWith') },
      { type: 'separator' },
      // The morph panel's lip-sync row holds it too (Import timings…); the command opens that tab and the mode.
      { label: c.t('menu.importMouthTimings'), click: cmd('importMouthTimings') },
    ],
  };
  const view: MenuItemConstructorOptions = {
    label: top('menu.view', 'V'),
    submenu: [
      { label: c.t('menu.reload'), role: 'reload' },
      { label: c.t('menu.devtools'), role: 'toggleDevTools' },
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { label: c.t('menu.fullscreen'), role: 'togglefullscreen' },
      // A pane dragged out of a small window comes back from here too, not only from the toolbar's ? menu.
      { type: 'separator' },
      { label: c.t('layout.reset'), click: cmd('resetLayout') },
    ],
  };
  const render: MenuItemConstructorOptions = {
    label: top('menu.render', 'R'),
    submenu: [{ label: c.t('menu.renderVideo'), click: cmd('exportVideo') }],
  };
  const help: MenuItemConstructorOptions = {
    label: top('menu.help', 'H'),
    role: 'help',
    submenu: [
      { label: c.t('help.gettingStarted'), click: cmd('gettingStarted') },
      { label: c.t('menu.shortcuts'), accelerator: 'F1', click: cmd('shortcuts') },
      { type: 'separator' },
      { label: c.t('menu.about'), click: cmd('about') },
    ],
  };
  const appMenu: MenuItemConstructorOptions[] = mac
    ? [
        {
          label: c.appName ?? 'VMD Studio',
          submenu: [
            { label: c.t('menu.about'), click: cmd('about') },
            { type: 'separator' },
            { role: 'hide' },
            { role: 'hideOthers' },
            { role: 'unhide' },
            { type: 'separator' },
            { role: 'quit', label: c.t('menu.quit') },
          ],
        },
      ]
    : [];
  return [...appMenu, file, edit, view, render, help];
}
