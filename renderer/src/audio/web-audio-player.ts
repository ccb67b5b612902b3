/**
 * The audio player on Web Audio: one AudioContext (made on first use; a page may not start one before a
 * click), one gain node every sound goes through, and a buffer source per sound. Uncompressed WAV (what
 * MMD plays) is decoded here, several times faster than the platform's decoder; anything else goes to
 * decodeAudioData. Headless browsers may have no audio output: the context's clock still runs (or stays
 * suspended, and the store falls back to the display clock); nothing here claims a sound was heard.
 */
import { parseWav, readWavSamples } from '../../../shared/scene/wav';
import type { Grain } from '../../../shared/scene/audio-sync';
import type { AudioPlayer, Song, Sound } from './audio-player';

export class WebAudioPlayer implements AudioPlayer {
  private ctx: AudioContext | null = null;
  private gain: GainNode | null = null;
  private song: Song | null = null;
  private gainValue = 1;

  get available(): boolean {
    return !!(globalThis as { AudioContext?: typeof AudioContext }).AudioContext;
  }

  /** The context, made on first use (null without Web Audio). */
  private context(): AudioContext | null {
    if (this.ctx) return this.ctx;
    const Ctor = (globalThis as { AudioContext?: typeof AudioContext }).AudioContext;
    if (!Ctor) return null;
    this.ctx = new Ctor();
    this.gain = this.ctx.createGain();
    this.gain.gain.value = this.gainValue;
    this.gain.connect(this.ctx.destination);
    return this.ctx;
  }

  now(): number | null {
    return this.ctx ? this.ctx.currentTime : null;
  }

  state(): string {
    return this.ctx ? this.ctx.state : 'none';
  }

  async resume(): Promise<string> {
    const ctx = this.context();
    if (!ctx) return 'none';
    if (ctx.state !== 'running') await ctx.resume().catch(() => undefined);
    return ctx.state;
  }

  async decode(bytes: Uint8Array): Promise<Song | null> {
    const ctx = this.context();
    if (!ctx) return null;
    const wav = this.wavBuffer(ctx, bytes);
    if (wav) return wav;
    try {
      // decodeAudioData takes (and detaches) an ArrayBuffer of its own.
      return await ctx.decodeAudioData(bytes.slice().buffer);
    } catch {
      return null;
    }
  }

  /** An AudioBuffer of an uncompressed WAV's samples at its own rate (written straight into it), or null. */
  private wavBuffer(ctx: AudioContext, bytes: Uint8Array): AudioBuffer | null {
    const wav = parseWav(bytes);
    if (!wav) return null;
    try {
      const buffer = ctx.createBuffer(wav.channels, wav.frames, wav.sampleRate);
      const out: Float32Array[] = [];
      for (let c = 0; c < wav.channels; c++) out.push(buffer.getChannelData(c));
      readWavSamples(bytes, wav, out);
      return buffer;
    } catch {
      return null;
    }
  }

  setSong(song: Song | null): void {
    this.song = song;
  }

  setGain(value: number): void {
    this.gainValue = value;
    if (this.gain) this.gain.gain.value = value;
  }

  play(when: number, offset: number, stopAt?: number): Sound {
    const ctx = this.context()!;
    const src = ctx.createBufferSource();
    src.buffer = this.song;
    src.connect(this.gain!);
    src.start(when, offset);
    if (stopAt !== undefined) src.stop(stopAt);
    return soundOf(src);
  }

  grain(g: Grain): Sound {
    const ctx = this.context()!;
    const env = ctx.createGain();
    env.gain.setValueAtTime(0, g.when);
    env.gain.linearRampToValueAtTime(1, g.when + g.fade);
    env.gain.setValueAtTime(1, g.when + g.length - g.fade);
    env.gain.linearRampToValueAtTime(0, g.when + g.length);
    env.connect(this.gain!);
    const src = ctx.createBufferSource();
    src.buffer = this.song;
    src.connect(env);
    src.onended = () => {
      src.disconnect();
      env.disconnect();
    };
    src.start(g.when, g.offset, g.length);
    return soundOf(src);
  }
}

function soundOf(src: AudioBufferSourceNode): Sound {
  return {
    stop() {
      try {
        src.stop();
      } catch {
        /* never started */
      }
      src.disconnect();
    },
    release() {
      src.disconnect();
    },
  };
}
