/**
 * Read-only test hook of the music: `window.__vmdMusic`, installed at start by the e2e build's entry
 * (main.ts here), which gives it the app's audio player (a TimedAudioPlayer: the Web Audio player, its
 * decoding timed). The sync test samples, in one call, the AudioContext's clock, the frame the audio clock
 * gives and the frame shown, so both come from the same instant.
 *
 *   state()   name, duration, sample rate, offset, whether the audio clock drives playback, context state
 *   timings() the last load, timed around the store's action ($onAction) and the player's decode: ms from
 *             the action's start to the decode (reading the bytes through main), decoding, and from the
 *             decode to the action's end (the peak pyramid, and the rest of the load)
 *   beats()   the beat markers: on/off, detection state, the grid found (BPM, first beat s) and their frames
 *   sample()  now: the context time, the clock's frame, the frame shown, and the context time and frame of
 *             the playback loop's last question to the clock (the frame on screen came from there)
 */
import type { Pinia } from 'pinia';
import { useMusicStore } from '../stores/music';
import { useTimeStore } from '../stores/time';
import { WebAudioPlayer } from '../audio/web-audio-player';
import type { Song } from '../audio/audio-player';

/** The Web Audio player with its decoding timed: when the last decode began and ended (performance.now()). */
export class TimedAudioPlayer extends WebAudioPlayer {
  decodeStart = NaN;
  decodeEnd = NaN;

  override async decode(bytes: Uint8Array): Promise<Song | null> {
    this.decodeStart = performance.now();
    try {
      return await super.decode(bytes);
    } finally {
      this.decodeEnd = performance.now();
    }
  }
}

export interface MusicTestHook {
  state(): { name: string | null; duration: number; sampleRate: number; channels: number; offsetFrames: number; driving: boolean; contextState: string };
  timings(): { readMs: number; decodeMs: number; pyramidMs: number };
  beats(): { on: boolean; state: string; bpm: number | null; firstBeat: number | null; frames: number[] };
  sample(): {
    ctxTime: number | null;
    clockFrame: number | null;
    shownFrame: number;
    playing: boolean;
    askedAt: number | null;
    frameAtAsked: number | null;
  };
}

declare global {
  interface Window {
    __vmdMusic?: MusicTestHook;
  }
}

/** Installs the hook. */
export function installMusicTestHook(pinia: Pinia, player: TimedAudioPlayer): void {
  const music = useMusicStore(pinia);
  const time = useTimeStore(pinia);
  const timings = { readMs: 0, decodeMs: 0, pyramidMs: 0 };
  music.$onAction(({ name, after }) => {
    if (name !== 'openPath' && name !== 'loadBytes') return;
    const t0 = performance.now();
    after(() => {
      const t1 = performance.now();
      if (!(player.decodeStart >= t0)) return; // nothing was decoded (an unreadable file)
      timings.readMs = player.decodeStart - t0;
      timings.decodeMs = player.decodeEnd - player.decodeStart;
      timings.pyramidMs = t1 - player.decodeEnd;
    });
  });
  const hook: MusicTestHook = {
    state: () => ({
      name: music.name,
      duration: music.duration,
      sampleRate: music.sampleRate,
      channels: music.channels,
      offsetFrames: music.offsetFrames,
      driving: music.driving,
      contextState: music.contextState,
    }),
    timings: () => ({ ...timings }),
    beats: () => ({
      on: music.beatsOn,
      state: music.beatState,
      bpm: music.beatGrid?.bpm ?? null,
      firstBeat: music.beatGrid?.firstBeat ?? null,
      frames: [...music.beatFrames],
    }),
    sample: () => {
      const c = music.clockFrame();
      return {
        // The context time the clock's frame was computed from (one read: the audio thread moves
        // currentTime on between two reads, by milliseconds when the page stalls).
        ctxTime: c?.now ?? player.now(),
        clockFrame: c?.frame ?? null,
        shownFrame: time.frame,
        playing: time.playing,
        askedAt: c?.askedAt ?? null,
        frameAtAsked: c?.frameAtAsked ?? null,
      };
    },
  };
  window.__vmdMusic = hook;
}
