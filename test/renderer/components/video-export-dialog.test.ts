// Render → Video…'s line when an export fails: in the UI's language, in the app's words. Seen on a first
// run in Japanese: "書き出しに失敗しました: output exists (use --overwrite to replace it)", main's English
// line with the command line's option. (The dialog now asks about a file already there before rendering.)
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { flushPromises, mount } from '@vue/test-utils';
import { okVoid, setQuietApi } from '../../helpers/quiet-api';
import { setApi } from '../../../renderer/src/api';
import VideoExportDialog from '../../../renderer/src/components/VideoExportDialog.vue';
import { useVideoExportStore } from '../../../renderer/src/stores/video-export';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { usePreviewStore } from '../../../renderer/src/stores/preview';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useTimeStore } from '../../../renderer/src/stores/time';

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

  it('an existing file (one that appeared while rendering: the dialog asks before): in the dialog’s words, not --overwrite, in Japanese and English', async () => {
    const exists = { code: 'E_IO_EXISTS', message: 'output exists (use --overwrite to replace it)', file: '/v/out.mp4' };
    let w = failedWith(exists, 'ja');
    await w.vm.$nextTick();
    expect(resultLine()).toBe('書き出しに失敗しました: out.mp4 が書き出し中に作られました。もう一度「書き出し」を押すと置き換えるか尋ねます。別の名前にすることもできます');
    w.unmount();
    setActivePinia(createPinia());
    w = failedWith(exists, 'en');
    await w.vm.$nextTick();
    expect(resultLine()).toBe('The export failed: out.mp4 appeared while rendering; Render again to be asked about replacing it, or choose another name');
    w.unmount();
  });

  it('a full disk: main’s words with the space left, said with what to do (en/ja); it read "ENOSPC: no space left on device"', async () => {
    const full = { code: 'E_IO', message: 'the disk is full (1234 MB free)', file: '/v/big.mp4' };
    let w = failedWith(full, 'en');
    await w.vm.$nextTick();
    expect(resultLine()).toBe('The export failed: big.mp4: the disk is full (1,234 MB free); choose another folder or make room');
    w.unmount();
    setActivePinia(createPinia());
    w = failedWith(full, 'ja');
    await w.vm.$nextTick();
    expect(resultLine()).toBe('書き出しに失敗しました: big.mp4：ディスクがいっぱいです（空き 1,234 MB）。別のフォルダを選ぶか、空きを作ってください');
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

  it('a range of one frame says "1 frame" (it said "1 frames"), in the range and the estimate; Japanese as for more', async () => {
    const s = useSettingsStore();
    s.settings = { ...s.settings, locale: 'en' };
    const v = useVideoExportStore();
    v.open = true;
    v.from = 5;
    v.to = 5;
    const w = mount(VideoExportDialog, { attachTo: document.body });
    await w.vm.$nextTick();
    const text = (id: string) => document.querySelector(`[data-testid="${id}"]`)?.textContent ?? '';
    expect(text('video-frames')).toMatch(/^1 frame, 0\.03 s$/);
    expect(text('video-estimate')).toMatch(/^1 frame;|\(1 frame at /);
    v.to = 6;
    await w.vm.$nextTick();
    expect(text('video-frames')).toMatch(/^2 frames, 0\.07 s$/);
    v.to = 5;
    v.fps = 60;
    await w.vm.$nextTick();
    // At 60 fps one MMD frame makes two video frames: "1 MMD frame", not "1 MMD frames".
    expect(text('video-frames')).toMatch(/^1 MMD frame → 2 video frames, 0\.03 s$/);
    v.fps = 30;
    s.settings = { ...s.settings, locale: 'ja' };
    await w.vm.$nextTick();
    expect(text('video-frames')).toMatch(/^1 フレーム、0\.03 秒$/);
    w.unmount();
  });
});

// A new user's pass (an MMD video maker): the File field started empty with Render greyed and no word why,
// `clip.mp4` went into the server's working folder, `duet` was refused for its missing extension, 720p
// ignored a 4:3 Frame, From 100 To 50 read "0 frames, -1.63 s", an empty From counted as 0.
describe('the video dialog as a video maker expects it', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    document.body.innerHTML = '';
  });

  function dialog(locale: 'en' | 'ja' = 'en', o: { scene?: string | null; lastFrame?: number } = {}) {
    const s = useSettingsStore();
    s.settings = { ...s.settings, locale };
    s.appInfo = { name: 't', version: '0', mode: 'browser', nativeDialogs: false, platform: 'linux', homeDir: '/home/me', versions: { node: '' } };
    if (o.scene !== undefined) useSceneStore().path = o.scene;
    useTimeStore().setRange(o.lastFrame ?? 2816);
    const v = useVideoExportStore();
    v.show();
    return { v, w: mount(VideoExportDialog, { attachTo: document.body }) };
  }
  const q = (id: string) => document.querySelector(`[data-testid="${id}"]`);
  const text = (id: string) => q(id)?.textContent?.trim() ?? null;
  const field = () => q('video-path') as HTMLInputElement;
  async function type(w: { vm: { $nextTick(): Promise<void> } }, id: string, value: string) {
    const el = q(id) as HTMLInputElement;
    el.value = value;
    el.dispatchEvent(new Event('input'));
    el.dispatchEvent(new Event('change'));
    await w.vm.$nextTick();
  }

  it('the File field starts with the scene’s name and the format’s extension in its folder; Render is on', async () => {
    const { v, w } = dialog('en', { scene: '/dance/duet.vmdscene' });
    await w.vm.$nextTick();
    expect(field().value).toBe('/dance/duet.mp4');
    expect((q('video-start') as HTMLButtonElement).disabled).toBe(false);
    // The format's extension follows the format.
    v.format = 'webm';
    await w.vm.$nextTick();
    expect(field().value).toBe('/dance/duet.webm');
    w.unmount();
  });

  it('without a scene or document file: video.mp4 in the home folder', async () => {
    const { w } = dialog('en');
    await w.vm.$nextTick();
    expect(field().value).toBe('/home/me/video.mp4');
    w.unmount();
  });

  it('a bare name goes beside the scene file and the field shows the full path; a name without an extension gets the format’s', async () => {
    const { v, w } = dialog('en', { scene: '/dance/duet.vmdscene' });
    await type(w, 'video-path', 'clip.mp4');
    expect(field().value).toBe('/dance/clip.mp4');
    await type(w, 'video-path', 'out/clip');
    expect(field().value).toBe('/dance/out/clip.mp4');
    await type(w, 'video-path', '/tmp/x/duet');
    expect(field().value).toBe('/tmp/x/duet.mp4');
    await type(w, 'video-path', '~/v/duet.v2');
    expect(field().value).toBe('/home/me/v/duet.v2.mp4');
    // A video extension picks the format (a .webm name never holds an MP4).
    await type(w, 'video-path', 'clip.webm');
    expect(field().value).toBe('/dance/clip.webm');
    expect(v.format).toBe('webm');
    // Render makes the typed name whole too (a field not left before pressing it).
    v.format = 'mp4';
    v.path = 'late';
    expect(v.resolvedPath()).toBe('/dance/late.mp4');
    w.unmount();
  });

  it('an empty File field says why Render is greyed', async () => {
    for (const [locale, why] of [['en', 'Choose a file to write'], ['ja', '書き出すファイルを指定してください']] as const) {
      setActivePinia(createPinia());
      document.body.innerHTML = '';
      const { w } = dialog(locale, { scene: '/dance/duet.vmdscene' });
      await type(w, 'video-path', '');
      expect((q('video-start') as HTMLButtonElement).disabled).toBe(true);
      expect(text('video-blocked')).toBe(why);
      w.unmount();
    }
  });

  it('range: From after To says so and greys Render; an empty From is invalid, not 0; past the scene’s end is said; at 60 fps both counts are named', async () => {
    const { v, w } = dialog('en', { scene: '/dance/duet.vmdscene', lastFrame: 2816 });
    await type(w, 'video-from', '100');
    await type(w, 'video-to', '50');
    expect(text('video-range-error')).toBe('The range starts after it ends (frame 100 to 50): nothing to render');
    expect(text('video-blocked')).toBe('The range starts after it ends (frame 100 to 50): nothing to render');
    expect(q('video-frames')).toBeNull(); // never "0 frames, -1.63 s"
    expect((q('video-start') as HTMLButtonElement).disabled).toBe(true);
    await type(w, 'video-from', '');
    expect(text('video-range-error')).toBe('The first frame is not a frame number: type 0 or more');
    expect((q('video-from') as HTMLInputElement).classList.contains('invalid')).toBe(true);
    expect((q('video-start') as HTMLButtonElement).disabled).toBe(true);
    await type(w, 'video-from', '0');
    await type(w, 'video-to', '9000');
    expect(q('video-range-error')).toBeNull();
    expect(text('video-past-end')).toBe('The scene ends at frame 2,816: the frames after it hold its last pose');
    expect((q('video-start') as HTMLButtonElement).disabled).toBe(false);
    await type(w, 'video-to', '2816');
    expect(q('video-past-end')).toBeNull();
    expect(text('video-frames')).toBe('2,817 frames, 93.90 s');
    v.fps = 60;
    await w.vm.$nextTick();
    expect(text('video-frames')).toBe('2,817 MMD frames → 5,634 video frames, 93.90 s');
    useSettingsStore().settings = { ...useSettingsStore().settings, locale: 'ja' };
    await w.vm.$nextTick();
    expect(text('video-frames')).toBe('MMD 2,817 フレーム → 動画 5,634 フレーム、93.90 秒');
    await type(w, 'video-to', '50');
    await type(w, 'video-from', '100');
    expect(text('video-range-error')).toBe('開始が終了より後です（フレーム 100 〜 50）：書き出すものがありません');
    w.unmount();
  });

  it('sizes follow the Frame’s aspect, said in the dialog', async () => {
    const { v, w } = dialog('en', { scene: '/dance/duet.vmdscene' });
    useSceneStore().setOutputAspect('4:3');
    await w.vm.$nextTick();
    v.size = '720p';
    await w.vm.$nextTick();
    expect(text('video-dims')).toBe('960 × 720');
    expect(text('video-aspect')).toBe('Aspect 4:3, as the preview’s Aspect');
    const options = [...document.querySelectorAll('[data-testid="video-size"] option')].map((o) => o.textContent!.trim());
    expect(options.slice(0, 2)).toEqual(['720p (960 × 720)', '1080p (1440 × 1080)']);
    w.unmount();
  });

  it('a missing folder is named as a folder, in both languages', async () => {
    for (const [locale, said] of [['en', 'The folder /tmp/x/nodir does not exist'], ['ja', 'フォルダ /tmp/x/nodir がありません']] as const) {
      setActivePinia(createPinia());
      document.body.innerHTML = '';
      const { v, w } = dialog(locale);
      v.path = '/tmp/x/nodir/x.mp4';
      v.result = { kind: 'failed', error: { code: 'E_IO_NOT_FOUND', message: 'the folder /tmp/x/nodir does not exist', file: '/tmp/x/nodir' } };
      await w.vm.$nextTick();
      expect(text('video-result')).toContain(said);
      expect(text('video-result')).not.toMatch(/file not found|ファイルが見つかりません/i);
      w.unmount();
    }
  });

  it('grid off and a white background by default; both remembered in the settings', async () => {
    const { v, w } = dialog('en');
    await w.vm.$nextTick();
    expect((q('video-grid') as HTMLInputElement).checked).toBe(false);
    expect((q('video-background') as HTMLInputElement).value).toBe('#ffffff');
    (q('video-grid') as HTMLInputElement).click();
    await type(w, 'video-background', '#00ff00');
    expect(useSettingsStore().settings.ui).toMatchObject({ 'video.grid': true, 'video.background': '#00ff00' });
    w.unmount();
    // A new dialog (as after a restart: the settings read back) shows them.
    v.grid = false;
    v.background = '#ffffff';
    v.show();
    expect([v.grid, v.background]).toEqual([true, '#00ff00']);
  });

  it('size, height, frame rate, format and the physics start are remembered: a new dialog after a restart opens with them', async () => {
    // fixvideo3 finding 4: each opening was 720p, 30 fps, MP4, warmed up from frame 0 whatever was chosen last.
    const { v, w } = dialog('en', { scene: '/dance/duet.vmdscene' });
    usePreviewStore().physicsActors = ['shown'];
    v.from = 150;
    await w.vm.$nextTick();
    const pick = async (id: string, value: string) => {
      const el = q(id) as HTMLSelectElement;
      el.value = value;
      el.dispatchEvent(new Event('change'));
      await w.vm.$nextTick();
    };
    await pick('video-size', 'scene');
    await type(w, 'video-height', '540');
    await pick('video-fps', '60');
    await pick('video-format', 'png');
    await pick('video-physics-start', 'range');
    expect([v.size, v.sceneHeight, v.fps, v.format, v.physicsStart]).toEqual(['scene', 540, 60, 'png', 'range']);
    w.unmount();
    // A restart: fresh stores, the settings read back as saved.
    const saved = { ...useSettingsStore().settings.ui };
    setActivePinia(createPinia());
    document.body.innerHTML = '';
    const s = useSettingsStore();
    s.settings = { ...s.settings, ui: saved };
    const again = dialog('en', { scene: '/dance/duet.vmdscene' });
    usePreviewStore().physicsActors = ['shown'];
    again.v.from = 150;
    await again.w.vm.$nextTick();
    expect((q('video-size') as HTMLSelectElement).value).toBe('scene');
    expect((q('video-height') as HTMLInputElement).value).toBe('540');
    expect((q('video-fps') as HTMLSelectElement).value).toBe('60');
    expect((q('video-format') as HTMLSelectElement).value).toBe('png');
    expect((q('video-physics-start') as HTMLSelectElement).value).toBe('range');
    // The proposed file has the remembered format's extension.
    expect(field().value).toBe('/dance/duet.png');
    again.w.unmount();
  });

  it('a portrait Frame: 1080p is 1080 × 1920; Other height says a rounded size, refuses 0 and 99999 with Render greyed (en/ja)', async () => {
    useSceneStore().setOutputAspect('9:16');
    const { v, w } = dialog('en', { scene: '/dance/duet.vmdscene' });
    await w.vm.$nextTick();
    const options = [...(q('video-size') as HTMLSelectElement).options].map((o) => o.textContent);
    expect(options.slice(0, 2)).toEqual(['720p (720 × 1280)', '1080p (1080 × 1920)']);
    useSceneStore().setOutputAspect('16:9');
    v.size = 'scene';
    v.sceneHeight = 563;
    await w.vm.$nextTick();
    expect(text('video-dims')).toBe('rounded to even: 1002 × 564');
    const start = () => q('video-start') as HTMLButtonElement;
    expect(start().disabled).toBe(false);
    for (const [h, said] of [[0, 'The height is under 16 lines: type 16 or more'], [-5, 'The height is under 16 lines: type 16 or more'], [99999, 'The height is over 4,320 lines: type 4,320 or less']] as const) {
      v.sceneHeight = h;
      await w.vm.$nextTick();
      expect(text('video-size-error')).toBe(said);
      expect(q('video-dims')).toBeNull();
      expect(text('video-blocked')).toBe(said);
      expect(start().disabled).toBe(true);
    }
    const s = useSettingsStore();
    s.settings = { ...s.settings, locale: 'ja' };
    await w.vm.$nextTick();
    expect(text('video-size-error')).toBe('高さが 4,320 を超えています: 4,320 以下を入力してください');
    v.sceneHeight = 563;
    await w.vm.$nextTick();
    expect(text('video-dims')).toBe('偶数に丸めて 1002 × 564');
    expect(start().disabled).toBe(false);
    w.unmount();
  });

  it('the frame rate menu offers 24, 25, 30 and 60; at 24 fps frames 0–89 are 72 video frames', async () => {
    const { v, w } = dialog('en', { scene: '/dance/duet.vmdscene' });
    await w.vm.$nextTick();
    expect([...(q('video-fps') as HTMLSelectElement).options].map((o) => o.value)).toEqual(['24', '25', '30', '60']);
    v.from = 0;
    v.to = 89;
    (q('video-fps') as HTMLSelectElement).value = '24';
    q('video-fps')!.dispatchEvent(new Event('change'));
    await w.vm.$nextTick();
    expect(v.fps).toBe(24);
    expect(text('video-frames')).toBe('90 MMD frames → 72 video frames, 3.00 s');
    w.unmount();
  });

  it('before rendering: the frame count and, once this computer has rendered, about how long (an estimate)', async () => {
    const { v, w } = dialog('en', { scene: '/dance/duet.vmdscene', lastFrame: 2816 });
    await w.vm.$nextTick();
    expect(text('video-estimate')).toBe('2,817 frames; the time left is estimated once the first frames are rendered');
    // An earlier render at 720p (0.9216 Mpx): 46 ms a frame after its first, no start-up: 2,817 × 46 ms ≈ 130 s.
    const s = useSettingsStore();
    s.settings = { ...s.settings, ui: { ...s.settings.ui, 'video.renderSpeed': JSON.stringify({ samples: [{ megapixels: 0.9216, msPerFrame: 46 }], startupMs: 0 }) } };
    v.size = '720p';
    await w.vm.$nextTick();
    expect(text('video-estimate')).toBe('Estimate: about 2 min (2,817 frames at this computer’s last render speed)');
    w.unmount();
  });

  it('a PNG sequence’s size: one picture of its look encoded once, its bytes per pixel × the frames; too big for the disk is said', async () => {
    // fixvideo3 finding 3: the size line was for video only; a long PNG sequence filled the disk unannounced.
    const MB = 1048576;
    setApi(new Proxy({}, { get: (_t, name) => (name === 'diskSpace' ? async () => ({ ok: true, value: { freeBytes: 1000 * MB } }) : okVoid) }) as never);
    const drawn: string[] = [];
    const { v, w } = dialog('en', { scene: '/dance/duet.vmdscene', lastFrame: 2816 });
    // The sample: a 1280 × 720 picture that encodes to 460,800 bytes (0.5 a pixel).
    v.attachSource((width, height, _cam, look, sim) => {
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      canvas.toBlob = (cb: BlobCallback) => cb(new Blob([new Uint8Array(width * height * 0.5)]));
      return { canvas, advanceTo: () => drawn.push('advance'), draw: () => drawn.push(`draw ${width}×${height} ${look.background} ${sim}`), dispose: () => drawn.push('dispose') };
    });
    v.size = '720p';
    await w.vm.$nextTick();
    expect(text('video-dims')).toBe('1280 × 720');
    await flushPromises();
    expect(q('video-space')).toBeNull(); // MP4: 2,817 frames at 2.8 Mb/s are about 33 MB
    (q('video-format') as HTMLSelectElement).value = 'png';
    q('video-format')!.dispatchEvent(new Event('change'));
    await flushPromises();
    await w.vm.$nextTick();
    // Drawn once as the export would (its size and background, the preview's own physics: nothing stepped).
    expect(drawn).toEqual(['draw 1280×720 #ffffff null', 'dispose']);
    // Each file 460,800 bytes in whole 4 KiB blocks: 113 × 4,096 = 462,848; × 2,817 frames = 1,303,842,816 bytes, 1,244 MB.
    expect(text('video-space')).toBe('About 1,244 MB needed, 1,000 MB free on that disk');
    w.unmount();
  });

  it('a range warmed up from frame 0: the estimate includes the warm-up and says so (en/ja); settled at the range, nothing added', async () => {
    // fixvideo3 finding 2: frames 2000–2099 warmed up from 0 were said as 5 s (the 100 frames alone).
    const { v, w } = dialog('en', { scene: '/dance/duet.vmdscene', lastFrame: 2816 });
    usePreviewStore().physicsActors = ['shown'];
    const s = useSettingsStore();
    // 46 ms a frame at 720p: 100 frames are 4.6 s; a warm-up step is the frame's size-free part, 3/4 of it (34.5 ms):
    // 2,000 steps 69 s, 73.6 s in all.
    s.settings = { ...s.settings, ui: { ...s.settings.ui, 'video.renderSpeed': JSON.stringify({ samples: [{ megapixels: 0.9216, msPerFrame: 46 }], startupMs: 0 }) } };
    v.size = '720p';
    v.from = 2000;
    v.to = 2099;
    await w.vm.$nextTick();
    expect(v.physicsStart).toBe('zero');
    expect(text('video-estimate')).toBe('Estimate: about 74 s, including 2,000 frames of physics warm-up (100 frames at this computer’s last render speed)');
    s.settings = { ...s.settings, locale: 'ja' };
    await w.vm.$nextTick();
    expect(text('video-estimate')).toBe('目安: 約 74 秒（物理演算の助走 2,000 フレームを含む。このコンピューターの前回の速さで 100 フレーム）');
    s.settings = { ...s.settings, locale: 'en' };
    v.physicsStart = 'range';
    await w.vm.$nextTick();
    expect(text('video-estimate')).toBe('Estimate: about 5 s (100 frames at this computer’s last render speed)');
    w.unmount();
  });
});

describe('under Electron (native dialogs) the proposed path is confirmed in the save dialog', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    document.body.innerHTML = '';
  });

  it('Render first opens the native save dialog on the proposed path (main writes only where its dialog answered); Cancel renders nothing', async () => {
    const asked: unknown[] = [];
    let answer: string | null = null;
    setApi(new Proxy({}, { get: (_t, name) => (name === 'pickSaveFile' ? async (o: unknown) => (asked.push(o), { ok: true, value: answer }) : okVoid) }) as never);
    const s = useSettingsStore();
    s.settings = { ...s.settings, locale: 'en' };
    s.appInfo = { name: 't', version: '0', mode: 'electron', nativeDialogs: true, platform: 'linux', homeDir: '/home/me', versions: { node: '' } };
    useSceneStore().path = '/dance/duet.vmdscene';
    useTimeStore().setRange(89);
    const v = useVideoExportStore();
    v.show();
    const w = mount(VideoExportDialog, { attachTo: document.body });
    await w.vm.$nextTick();
    const start = () => (document.querySelector('[data-testid="video-start"]') as HTMLButtonElement).click();
    start();
    await flushPromises();
    expect(asked).toMatchObject([{ defaultPath: '/dance/duet.mp4' }]);
    expect(v.result).toBeNull(); // cancelled: nothing started
    answer = '/dance/final.mp4';
    start();
    await flushPromises();
    expect(asked).toHaveLength(2);
    expect(v.path).toBe('/dance/final.mp4');
    // It started (and, with no preview mounted in this test, says so).
    expect(v.result).toMatchObject({ kind: 'failed', error: { message: 'the 3D preview is not running' } });
    // Chosen once, Render goes straight on.
    start();
    await flushPromises();
    expect(asked).toHaveLength(2);
    w.unmount();
    setQuietApi();
  });
});
