/**
 * A stand-in audio player for the renderer's unit tests (renderer/src/audio/audio-player.ts; happy-dom has
 * no Web Audio, and the real player, web-audio-player.ts, runs in the e2e suite). It keeps a clock the test
 * sets, decodes into a buffer the test describes, and records every sound the music store asks for: when it
 * starts, from where, for how long, when it is told to stop, and how many were stopped early.
 */
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach } from 'vitest';
import type { AudioPlayer, Song, Sound } from '../../renderer/src/audio/audio-player';
import type { Grain } from '../../shared/scene/audio-sync';
import { useMusicStore } from '../../renderer/src/stores/music';

/** A decoded mono buffer of `seconds` at `rate` Hz; `fill` writes its samples. */
export function monoBuffer(seconds: number, rate: number, fill: (data: Float32Array) => void = () => {}): Song {
  const data = new Float32Array(Math.round(seconds * rate));
  fill(data);
  return { numberOfChannels: 1, sampleRate: rate, duration: seconds, length: data.length, getChannelData: () => data } as unknown as Song;
}

export class FakeAudioPlayer implements AudioPlayer {
  available = true;
  /** The clock's time (s), set by the test. */
  clock = 0;
  clockState = 'running';
  /** What decode() gives (null: the bytes do not decode). */
  decoded: () => Song | null = () => monoBuffer(3, 1000);
  /** Sounds started, in call order: the song's from `offset` at `when`; a grain with its `length`. */
  starts: { when: number; offset: number; length?: number }[] = [];
  /** Grains asked for, as planned (with their fades). */
  grains: Grain[] = [];
  /** Sounds stopped before their time. */
  stopped = 0;
  /** Stop times sounds were started with (loop passes), in call order. */
  stopsAt: number[] = [];
  gain = 1;
  song: Song | null = null;

  now(): number | null {
    return this.clock;
  }
  state(): string {
    return this.clockState;
  }
  async resume(): Promise<string> {
    return this.clockState;
  }
  async decode(): Promise<Song | null> {
    return this.decoded();
  }
  setSong(song: Song | null): void {
    this.song = song;
  }
  setGain(value: number): void {
    this.gain = value;
  }
  play(when: number, offset: number, stopAt?: number): Sound {
    this.starts.push({ when, offset });
    if (stopAt !== undefined) this.stopsAt.push(stopAt);
    return this.sound();
  }
  grain(g: Grain): Sound {
    this.starts.push({ when: g.when, offset: g.offset, length: g.length });
    this.grains.push({ ...g });
    return this.sound();
  }
  private sound(): Sound {
    return { stop: () => void this.stopped++, release: () => undefined };
  }
}

/**
 * Before each test: a fresh Pinia whose music store drives a new player from `make`, then `reset`.
 * Returns the current test's player.
 */
export function withFakeAudio(make: () => FakeAudioPlayer = () => new FakeAudioPlayer(), reset: () => void = () => undefined): () => FakeAudioPlayer {
  let player = make();
  beforeEach(() => {
    setActivePinia(createPinia());
    player = make();
    useMusicStore().attachPlayer(player);
    reset();
  });
  return () => player;
}
