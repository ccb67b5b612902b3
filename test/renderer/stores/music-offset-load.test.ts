// What loading a song does to the offset (nusync finding 4): another song starts at offset 0 (its lead-in is its
// own), the same file opened again keeps it, and the notice says which whenever the offset was not 0 — before,
// the previous song's offset stayed applied to the new one and the notice said only "Music: song48.wav (60.0 s)".
import { describe, expect, it } from 'vitest';
import { useMusicStore } from '../../../renderer/src/stores/music';
import { renderText } from '../../../renderer/src/stores/notify';
import { FakeAudioPlayer, monoBuffer, withFakeAudio } from '../../helpers/fake-audio';

withFakeAudio(() => {
  const p = new FakeAudioPlayer();
  p.decoded = () => monoBuffer(60, 1000, () => {});
  return p;
});
const bytes = new TextEncoder().encode('RIFF');
const said = () => {
  const n = useMusicStore().loadedNotice();
  return { en: renderText(n, 'en'), ja: renderText(n, 'ja') };
};

describe('music: the offset when a song is loaded', () => {
  it('another song starts at 0 and the notice says the offset was reset from its value', async () => {
    const music = useMusicStore();
    expect(await music.loadBytes('song.wav', bytes, '/m/song.wav')).toBe(true);
    expect(said()).toEqual({ en: 'Music: song.wav (60.0 s)', ja: '音楽: song.wav（60.0 秒）' });
    music.setOffset(45);
    expect(await music.loadBytes('song48.wav', bytes, '/m/song48.wav')).toBe(true);
    expect(music.offsetFrames).toBe(0);
    expect(said()).toEqual({
      en: 'Music: song48.wav (60.0 s); offset reset to 0 (it was 45 for the previous song)',
      ja: '音楽: song48.wav（60.0 秒）。オフセットを 0 に戻しました（前の曲では 45）',
    });
  });

  it('the same file again (after ×, or opened over itself) keeps the offset, and the notice says it was kept', async () => {
    const music = useMusicStore();
    expect(await music.loadBytes('song.wav', bytes, '/m/song.wav')).toBe(true);
    music.setOffset(-30);
    music.unload();
    expect(await music.loadBytes('song.wav', bytes, '/m/song.wav')).toBe(true);
    expect(music.offsetFrames).toBe(-30);
    expect(said()).toEqual({
      en: 'Music: song.wav (60.0 s); offset -30 kept (the same file as before)',
      ja: '音楽: song.wav（60.0 秒）。オフセット -30 はそのままです（前と同じファイル）',
    });
    // Another file of the same name elsewhere is another song.
    expect(await music.loadBytes('song.wav', bytes, '/other/song.wav')).toBe(true);
    expect(music.offsetFrames).toBe(0);
  });
});
