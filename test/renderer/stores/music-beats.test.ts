/**
 * Beat markers in the music store, with the detector stubbed (its own analysis runs in Chromium: see the
 * music-beats e2e): detection starts when Beats is turned on, its grid becomes motion frames that follow
 * the offset, a new song forgets the old grid, and a song without a steady beat is a warning naming it.
 */
import { describe, expect, it, vi } from 'vitest';

const detector = vi.hoisted(() => ({ calls: 0, fail: false }));
vi.mock('web-audio-beat-detector', () => ({
  guess: async () => {
    detector.calls++;
    if (detector.fail) throw new Error('The given channelData does not contain any detectable beats.');
    return { bpm: 120, offset: 1 / 3, tempo: 120.2 };
  },
}));

import { useMusicStore } from '../../../renderer/src/stores/music';
import { useNotifyStore } from '../../../renderer/src/stores/notify';
import { withFakeAudio } from '../../helpers/fake-audio';

withFakeAudio(undefined, () => {
  detector.calls = 0;
  detector.fail = false;
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
});
