// Render → Video…'s line when an export fails: in the UI's language, in the app's words. Seen on a first
// run in Japanese: "書き出しに失敗しました: output exists (use --overwrite to replace it)", main's English
// line with the command line's option, where the dialog's own answer is its "Replace an existing file" box.
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount } from '@vue/test-utils';
import { setQuietApi } from '../../helpers/quiet-api';
import VideoExportDialog from '../../../renderer/src/components/VideoExportDialog.vue';
import { useVideoExportStore } from '../../../renderer/src/stores/video-export';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { usePreviewStore } from '../../../renderer/src/stores/preview';

setQuietApi();

function failedWith(error: { code: string; message: string; file?: string }, locale: 'en' | 'ja') {
  const s = useSettingsStore();
  s.settings = { ...s.settings, locale };
  const v = useVideoExportStore();
  v.open = true;
  v.result = { kind: 'failed', error: error as never };
  return mount(VideoExportDialog, { attachTo: document.body });
}
const resultLine = () => document.querySelector('[data-testid="video-result"]')?.textContent?.trim() ?? '';

describe('the video dialog says why an export failed', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    document.body.innerHTML = '';
  });

  it('an existing file: the dialog’s own checkbox, not --overwrite, in Japanese and English', async () => {
    const exists = { code: 'E_IO_EXISTS', message: 'output exists (use --overwrite to replace it)', file: '/v/out.mp4' };
    let w = failedWith(exists, 'ja');
    await w.vm.$nextTick();
    expect(resultLine()).toContain('out.mp4');
    expect(resultLine()).toContain('既存のファイルを置き換える');
    expect(resultLine()).not.toMatch(/--overwrite|output exists/);
    w.unmount();
    setActivePinia(createPinia());
    w = failedWith(exists, 'en');
    await w.vm.$nextTick();
    expect(resultLine()).toContain('Replace an existing file');
    expect(resultLine()).not.toContain('--overwrite');
    w.unmount();
  });

  it('another error: its code’s line in Japanese (main’s English line is not shown)', async () => {
    const w = failedWith({ code: 'E_IO_NOT_FOUND', message: 'no such file or folder', file: '/nowhere/out.mp4' }, 'ja');
    await w.vm.$nextTick();
    expect(resultLine()).toContain('ファイルが見つかりません');
    expect(resultLine()).not.toContain('no such file');
    w.unmount();
  });

  it('no music in the scene: a plain line says so, no box to tick', async () => {
    // Seen on a first run: "No music in the scene" beside a ticked (greyed) box, as if music were included;
    // then an unticked greyed box, which still read as an option.
    const s = useSettingsStore();
    s.settings = { ...s.settings, locale: 'en' };
    useVideoExportStore().open = true;
    const w = mount(VideoExportDialog, { attachTo: document.body });
    await w.vm.$nextTick();
    expect(document.querySelector('[data-testid="video-music"]')).toBeNull();
    const line = document.querySelector('[data-testid="video-no-music"]')!;
    expect(line.textContent!.trim()).toBe('No music in the scene');
    expect(line.closest('label')).toBeNull();
    expect(line.querySelector('input')).toBeNull();
    w.unmount();
  });

  it('no camera in the scene: a plain line says the preview\'s view is filmed (no box to tick); with a camera the box, ticked', async () => {
    // Seen on a first run: "Through the scene's camera" ticked with no camera document in the scene; then a
    // greyed box "No camera in the scene" read as a status one could not tick, not as what the video will be.
    for (const [locale, note] of [['en', 'No camera motion in the scene: the video is filmed from the preview’s view as it is now, held still'], ['ja', 'カメラモーションがないため、プレビューの今の視点のまま撮ります']] as const) {
      setActivePinia(createPinia());
      document.body.innerHTML = '';
      const s = useSettingsStore();
      s.settings = { ...s.settings, locale };
      useVideoExportStore().open = true;
      const w = mount(VideoExportDialog, { attachTo: document.body });
      await w.vm.$nextTick();
      const box = () => document.querySelector('[data-testid="video-camera"]') as HTMLInputElement | null;
      const line = () => document.querySelector('[data-testid="video-no-camera"]');
      expect(box()).toBeNull();
      expect(line()!.textContent!.trim()).toBe(note);
      expect(line()!.closest('label')).toBeNull();
      expect(line()!.querySelector('input')).toBeNull();
      // The choice (on by default) is kept: a camera shown in the preview gives the box, ticked and enabled.
      usePreviewStore().hasCamera = true;
      await w.vm.$nextTick();
      expect(line()).toBeNull();
      expect(box()!.disabled).toBe(false);
      expect(box()!.checked).toBe(true);
      w.unmount();
    }
  });

  it('a range over an hour is said in h:mm:ss with the likely cause (a key far past the rest); an hour or less says nothing more', async () => {
    const s = useSettingsStore();
    s.settings = { ...s.settings, locale: 'en' };
    const v = useVideoExportStore();
    v.open = true;
    v.from = 0;
    v.to = 4_000_000_000; // a motion with one key at frame 4e9: 133,333,333 s
    const w = mount(VideoExportDialog, { attachTo: document.body });
    await w.vm.$nextTick();
    const warn = () => document.querySelector('[data-testid="video-long-range"]')?.textContent ?? null;
    // 4,000,000,001 frames / 30 = 133,333,333.4 s: 37,037 h 2 min 13 s.
    expect(warn()).toContain('37,037:02:13');
    // The frames and seconds beside the range, with thousands separators.
    expect(document.querySelector('[data-testid="video-frames"]')?.textContent).toBe('4,000,000,001 frames, 133,333,333.37 s');
    expect(warn()).toContain('far past the rest');
    v.to = 30 * 3600 - 1; // exactly an hour
    await w.vm.$nextTick();
    expect(warn()).toBeNull();
    v.to = 30 * 3600 + 29; // an hour and a second
    await w.vm.$nextTick();
    expect(warn()).toContain('1:00:01');
    s.settings = { ...s.settings, locale: 'ja' };
    await w.vm.$nextTick();
    expect(warn()).toContain('最終フレームを指定してください');
    w.unmount();
  });
});
