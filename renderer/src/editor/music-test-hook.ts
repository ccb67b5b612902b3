/**
 * Read-only test hook of the music: `window.__vmdMusic`, installed while the music row is mounted, in the
 * e2e build only (src/e2e/). The sync test samples, in one call, the AudioContext's clock, the frame the
 * audio clock gives and the frame shown, so both come from the same instant.
 *
 *   state()   name, duration, sample rate, offset, whether the audio clock drives playback, context state
 *   timings() the last load: ms to read the bytes through main, to decode, to build the peak pyramid
 *   beats()   the beat markers: on/off, detection state, the grid found (BPM, first beat s) and their frames
 *   sample()  now: the context time, the clock's frame, the frame shown, and the context time and frame of
 *             the playback loop's last question to the clock (the frame on screen came from there)
 */
import { musicContextTime, musicLoadTimings, useMusicStore } from '../stores/music';
import { useTimeStore } from '../stores/time';

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

/** Installs the hook; returns the function that removes it. */
export function installMusicTestHook(): () => void {
  if (typeof window === 'undefined') return () => undefined;
  const music = useMusicStore();
  const time = useTimeStore();
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
    timings: musicLoadTimings,
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
        ctxTime: c?.now ?? musicContextTime(),
        clockFrame: c?.frame ?? null,
        shownFrame: time.frame,
        playing: time.playing,
        askedAt: c?.askedAt ?? null,
        frameAtAsked: c?.frameAtAsked ?? null,
      };
    },
  };
  window.__vmdMusic = hook;
  return () => {
    if (window.__vmdMusic === hook) delete window.__vmdMusic;
  };
}
