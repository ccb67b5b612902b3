// F1 (Help → Keyboard Shortcuts) lists the commands no key runs too, each with where to find it and "no key"
// (before: Scene → Open Scene…, Save Scene As…, Video…, Whole Motion…, Merge with… and Fit to model… were not in
// the list, so a reader could not tell a missing key from a missing line). Each path is written with the words
// the toolbar's buttons and menus show, in English and Japanese.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount } from '@vue/test-utils';
import { nextTick } from 'vue';
import ShortcutsDialog from '../../../renderer/src/shell/ShortcutsDialog.vue';
import { shellUi } from '../../../renderer/src/shell/commands';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { tDynamic as t } from '../../../shared/i18n/strings';

/** The dialog's rows: [keys column, description], in order. */
function rows(): [string, string][] {
  return [...document.querySelectorAll('[data-testid="shortcuts-dialog"] .row')].map((r) => [r.querySelector('.keys')!.textContent!.trim(), r.querySelector('.what')!.textContent!.trim()]);
}

describe('F1 lists the menu commands without a key', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    document.body.innerHTML = '';
  });
  afterEach(() => {
    shellUi.shortcutsOpen = false;
  });

  it('names Open Scene, Save Scene As, Video, Whole Motion, Merge with, Fit to model and Import Mouth Timings, each with "no key"; Bake IK to FK with its Ctrl+Shift+K (en, ja)', async () => {
    const settings = useSettingsStore();
    settings.settings = { ...settings.settings, locale: 'en' };
    shellUi.shortcutsOpen = true;
    mount(ShortcutsDialog, { attachTo: document.body });
    await nextTick();
    const en = rows();
    const want = [
      'Scene → Open Scene… (model, motions and song together)',
      'Scene → Save Scene As…',
      'Video… (the scene through its camera as a video file)',
      'Whole Motion… (mirror, trim, speed, shift, curves)',
      'Whole Motion → Merge with…',
      'Whole Motion → Fit to model…',
      'Edit → Import Mouth Timings… (lip sync from a timing list or a .lab file; also the Morphs tab’s Lip sync row)',
    ];
    for (const w of want) expect(en, w).toContainEqual(['no key', w]);
    // The keyed rows keep their keys.
    expect(en).toContainEqual(['Ctrl+Shift+S', 'Save as']);
    // Bake IK to FK had no key until Ctrl+Shift+K (bakeik3); its row says the key, not "no key".
    expect(en).toContainEqual(['Ctrl+Shift+K', 'Whole Motion → Bake IK to FK…']);
    settings.settings = { ...settings.settings, locale: 'ja' };
    await nextTick();
    const ja = rows();
    for (const w of [
      'シーン → シーンを開く…（モデル・モーション・音楽をまとめて）',
      'シーン → シーンを保存…',
      '動画…（シーンをカメラ越しに動画ファイルへ）',
      'モーション全体…（左右反転・切り出し・速度・時間移動・補間曲線）',
      'モーション全体 → 結合…',
      'モーション全体 → モデルに合わせる…',
      '編集 → 口パクのタイミングを読み込む…（タイミングの一覧や .lab ファイルからリップシンク。表情タブのリップシンクの行にもあります）',
    ])
      expect(ja, w).toContainEqual(['キーなし', w]);
    expect(ja).toContainEqual(['Ctrl+Shift+K', 'モーション全体 → IKをFKに焼き込み…']);
    // The seven commands and MMD's Alt+←/→ (said, not bound: the next case).
    expect(ja.filter(([k]) => k === 'キーなし')).toHaveLength(8);
  });

  // The numigrate pass: an MMD user pressed Alt+←/→ (previous / next key in MMD) and nothing happened, with no word
  // in F1. Alt stays the system's and the browser's (keymap.ts), so F1 says which keys do it here.
  it('says that MMD’s Alt+←/→ is Ctrl+←/→ here, in the keys-between-keys group, beside the row that has those keys (en, ja)', async () => {
    const settings = useSettingsStore();
    settings.settings = { ...settings.settings, locale: 'en' };
    shellUi.shortcutsOpen = true;
    mount(ShortcutsDialog, { attachTo: document.body });
    await nextTick();
    const en = rows();
    const alt = en.findIndex(([, w]) => w.startsWith('MMD’s Alt+'));
    expect(en[alt]).toEqual(['no key', 'MMD’s Alt+←/→ (previous / next key): Ctrl+←/→ here (Alt stays the system’s and the browser’s)']);
    // The keys it names are the ones F1 lists for previous / next key (of the selected tracks), a few rows above.
    expect(en.slice(alt - 3, alt)).toContainEqual(['Ctrl+←/→', 'Previous / next key of the selected tracks']);
    settings.settings = { ...settings.settings, locale: 'ja' };
    await nextTick();
    expect(rows()).toContainEqual(['キーなし', 'MMD の Alt+←/→（前 / 次のキー）: ここでは Ctrl+←/→（Alt はシステムとブラウザーのまま）']);
  });

  it('writes each path with the words the toolbar shows', () => {
    for (const loc of ['en', 'ja'] as const) {
      const path = (...k: string[]) => k.map((x) => t(x, loc)).join(' → ');
      expect(t('shortcuts.saveScene', loc)).toBe(path('scene.menu', 'scene.saveAs'));
      expect(t('shortcuts.openScene', loc).startsWith(path('scene.menu', 'scene.open'))).toBe(true);
      expect(t('shortcuts.video', loc).startsWith(t('video.menu', loc))).toBe(true);
      expect(t('shortcuts.wholeMotion', loc).startsWith(t('menu.wholeMotion', loc))).toBe(true);
      // The Whole Motion dialog's buttons, under the toolbar's Whole Motion… (its "…" dropped inside a path).
      const whole = t('menu.wholeMotion', loc).replace(/…$/, '');
      expect(t('shortcuts.merge', loc)).toBe(`${whole} → ${t('merge.open', loc)}`);
      expect(t('shortcuts.fitToModel', loc)).toBe(`${whole} → ${t('retarget.command', loc)}`);
    }
  });
});
