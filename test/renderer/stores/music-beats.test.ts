/**
 * Beat markers in the music store, with the detector stubbed (its own analysis runs in Chromium: see the
 * music-beats e2e): detection starts when Beats is turned on, its grid becomes motion frames that follow
 * the offset, a new song forgets the old grid, and a song without a steady beat is a warning naming it.
 */
import { describe, expect, it, vi } from 'vitest';

const detector = vi.hoisted(() => ({ calls: 0, fail: false, broken: false }));
vi.mock('web-audio-beat-detector', () => ({
  guess: async () => {
    detector.calls++;
    if (detector.broken) throw new Error('Failed to construct worker');
    if (detector.fail) throw new Error('The given channelData does not contain any detectable beats.');
    return { bpm: 120, offset: 1 / 3, tempo: 120.2 };
  },
}));

import { useMusicStore } from '../../../renderer/src/stores/music';
import { useNotifyStore } from '../../../renderer/src/stores/notify';
import { FakeAudioPlayer, monoBuffer, withFakeAudio } from '../../helpers/fake-audio';

// The player decodes 3 s of silence; a test that needs a click track attaches a player that decodes one.
withFakeAudio(undefined, () => {
  detector.calls = 0;
  detector.fail = false;
  detector.broken = false;
});
/** 20 s at 8 kHz: a 1 kHz click (25 ms, decaying) every 0.5 s from 0, louder every 2 s; beats on frames 0, 15, 30 …. */
const clickTrack = () =>
  monoBuffer(20, 8000, (d) => {
    for (let k = 0; k < 40; k++) {
      for (let i = 0; i < 200; i++) d[k * 4000 + i] = (k % 4 ? 0.5 : 0.9) * Math.sin((2 * Math.PI * 1000 * i) / 8000) * Math.exp(-i / 80);
    }
  });
const settle = () => new Promise((r) => setTimeout(r, 0));
const bytes = new Uint8Array([0x52, 0x49, 0x46, 0x46]);

describe('music store: beat markers', () => {
  it('detects on first use, gives the beats as frames that follow the offset, and forgets them with a new song', async () => {
    const music = useMusicStore();
    await music.loadBytes('a.wav', bytes);
    expect(detector.calls).toBe(0); // not before Beats is on
    music.setBeatsOn(true);
    await settle();
    expect(music.beatState).toBe('ready');
    expect([...music.beatFrames].map((f) => Math.round(f * 1e6) / 1e6)).toEqual([10, 25, 40, 55, 70, 85]);
    expect(useNotifyStore().items.at(-1)!.text).toEqual({ key: 'music.beatsFound', params: { bpm: 120, first: '0.333' } });
    music.setOffset(5);
    expect(music.beatFrames[0]).toBeCloseTo(5, 9);
    music.setBeatsOn(false);
    expect(music.beatFrames.length).toBe(0);
    music.setBeatsOn(true);
    expect(detector.calls).toBe(1); // the grid is kept
    expect(music.beatFrames.length).toBe(6);
    await music.loadBytes('b.wav', bytes);
    await settle();
    expect(detector.calls).toBe(2); // a new song, Beats on: detected again
  });

  it('no steady beat: a warning naming the song, no markers', async () => {
    const music = useMusicStore();
    detector.fail = true;
    await music.loadBytes('speech.wav', bytes);
    music.setBeatsOn(true);
    await settle();
    expect(music.beatState).toBe('none');
    expect(music.beatFrames.length).toBe(0);
    const n = useNotifyStore().items.at(-1)!;
    expect(n.kind).toBe('warning');
    expect(n.text).toEqual({ key: 'music.beatsNone', params: { name: 'speech.wav' } });
  });

  it('a click track the detector calls beatless (it lowpasses): the full-band pass finds 120 BPM, beats on 0, 15, 30 …', async () => {
    detector.fail = true;
    const music = useMusicStore();
    const player = new FakeAudioPlayer();
    player.decoded = clickTrack;
    music.attachPlayer(player);
    await music.loadBytes('clicks.wav', bytes);
    music.setBeatsOn(true);
    await settle();
    expect(music.beatState).toBe('ready');
    expect(Math.abs(music.beatGrid!.bpm - 120)).toBeLessThanOrEqual(0.5);
    expect([...music.beatFrames].slice(0, 4).map(Math.round)).toEqual([0, 15, 30, 45]);
    expect(music.beatFrames.length).toBe(40);
    expect(useNotifyStore().items.at(-1)!.text).toMatchObject({ key: 'music.beatsFound', params: { bpm: 120 } });
  });

  it('a detector that cannot run (its worker) is said as such when no beat is found otherwise; with clicks the second pass still finds them', async () => {
    detector.broken = true;
    const music = useMusicStore();
    await music.loadBytes('quiet.wav', bytes);
    music.setBeatsOn(true);
    await settle();
    expect(music.beatState).toBe('none');
    const n = useNotifyStore().items.at(-1)!;
    expect(n.kind).toBe('warning');
    expect(n.text).toEqual({ key: 'music.beatsFailed', params: { name: 'quiet.wav' } });
    expect(n.detail).toBe('Failed to construct worker');

    const player = new FakeAudioPlayer();
    player.decoded = clickTrack;
    music.attachPlayer(player);
    await music.loadBytes('clicks.wav', bytes);
    await settle();
    expect(music.beatState).toBe('ready');
  });

  it('a typed tempo and beat frame (BPM…) make the grid, at the offset now, and it follows the offset after', async () => {
    const music = useMusicStore();
    await music.loadBytes('a.wav', bytes);
    music.setOffset(3);
    expect(music.setBeatGrid(100, 6)).toBe(true);
    expect(music.beatsOn).toBe(true);
    expect(music.beatState).toBe('ready');
    // 100 BPM = 0.6 s = 18 frames; a beat at frame 6 with offset 3 is song time 9/30 s = 0.3 s, so the
    // song's first beat is at 0.3 s: frame 6, then 24, 42 (a 3 s song: beats at 0.3, 0.9, 1.5, 2.1, 2.7 s).
    expect([...music.beatFrames].map((f) => Math.round(f * 1e6) / 1e6)).toEqual([6, 24, 42, 60, 78]);
    music.setOffset(0);
    expect(music.beatFrames[0]).toBeCloseTo(9, 9);
    expect(music.setBeatGrid(0, 6)).toBe(false);
    expect(music.setBeatGrid(120, Number.NaN)).toBe(false);
    expect(detector.calls).toBe(0); // typed: nothing detected
  });
});
