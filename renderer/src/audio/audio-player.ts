/**
 * What the music store asks of an audio player (the model is babylon-mmd's IAudioPlayer, kept to what the
 * store drives): a clock, decoding, one song, a gain, and sounds of that song started and stopped on the
 * clock. The store keeps the timing maths (shared/scene/audio-sync.ts: where each loop pass and scrub grain
 * begins); the player only does what it is told, at the times it is given. The real one is
 * web-audio-player.ts (run by the e2e suite); the unit tests drive the store with a stand-in
 * (test/helpers/fake-audio.ts).
 */
import type { Grain } from '../../../shared/scene/audio-sync';

/** A decoded song: the player's own buffer (an AudioBuffer in the real player). */
export type Song = AudioBuffer;

/** A sound started by the player. */
export interface Sound {
  /** Stops it now (a sound not started yet never starts) and lets it go. */
  stop(): void;
  /** Lets it go without stopping it: it plays on to the stop time it was given. */
  release(): void;
}

export interface AudioPlayer {
  /** Whether the platform can decode and play at all (false: it has no Web Audio). */
  readonly available: boolean;
  /** The clock in seconds (it runs with the sound card); null until the player has one. */
  now(): number | null;
  /** The clock's state: 'running', 'suspended', …; 'none' until the player has one. */
  state(): string;
  /** Resumes a suspended clock (autoplay rules let it run after a click); resolves with the state then. */
  resume(): Promise<string>;
  /** Decodes a file's bytes; null when neither this code nor the platform can. */
  decode(bytes: Uint8Array): Promise<Song | null>;
  /** The song that sounds play from now on (null: none); sounds of the previous one go on until stopped. */
  setSong(song: Song | null): void;
  /** The gain every sound goes through (0 silent, 1 full). */
  setGain(value: number): void;
  /** Plays the song from `offset` s at clock time `when`, until clock time `stopAt` (or the song's end). */
  play(when: number, offset: number, stopAt?: number): Sound;
  /** Plays one scrub grain: `length` s of the song from `offset` at `when`, faded in and out over `fade` s. */
  grain(g: Grain): Sound;
}
