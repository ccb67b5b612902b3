/**
 * The export's music fed in one-second chunks as the picture reaches them (renderer/src/export/video-export.ts,
 * AudioFeed). happy-dom has no Web Audio: a minimal AudioBuffer (length, channels, rate, getChannelData,
 * copyToChannel, the constructor's options) stands in for the platform's, only for this file. The encoder side is
 * a recorder of the buffers it is given. What is checked: the chunks, laid end to end, are the whole track sample
 * for sample; nothing past the time asked for is handed over (a second's chunk at most); Infinity hands the rest.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AudioFeed } from '../../../renderer/src/export/video-export';

class StandInAudioBuffer {
  readonly length: number;
  readonly numberOfChannels: number;
  readonly sampleRate: number;
  private readonly data: Float32Array[];
  constructor(o: { length: number; numberOfChannels: number; sampleRate: number }) {
    this.length = o.length;
    this.numberOfChannels = o.numberOfChannels;
    this.sampleRate = o.sampleRate;
    this.data = Array.from({ length: o.numberOfChannels }, () => new Float32Array(o.length));
  }
  getChannelData(c: number): Float32Array {
    return this.data[c];
  }
  copyToChannel(src: Float32Array, c: number): void {
    this.data[c].set(src);
  }
}

const had = 'AudioBuffer' in globalThis;
beforeAll(() => {
  if (!had) (globalThis as Record<string, unknown>).AudioBuffer = StandInAudioBuffer;
});
afterAll(() => {
  if (!had) delete (globalThis as Record<string, unknown>).AudioBuffer;
});

function track(seconds: number, rate: number): AudioBuffer {
  const b = new StandInAudioBuffer({ length: Math.round(seconds * rate), numberOfChannels: 2, sampleRate: rate });
  for (let i = 0; i < b.length; i++) {
    b.getChannelData(0)[i] = Math.sin(i * 0.01);
    b.getChannelData(1)[i] = (i % 977) / 977;
  }
  return b as unknown as AudioBuffer;
}

describe('AudioFeed', () => {
  it('hands over only what the picture has reached, a chunk at a time, and the chunks make the whole track', async () => {
    const rate = 48_000, whole = track(3.5, rate);
    const got: AudioBuffer[] = [];
    let closed = 0;
    const sink = { add: async (b: AudioBuffer) => void got.push(b), close: () => void closed++ };
    const feed = new AudioFeed(whole, sink);
    await feed.addUntil(0.5);
    // The first second only: nothing of the 3.5 s past the chunk that holds 0.5 s.
    expect(got.map((b) => b.length)).toEqual([rate]);
    await feed.addUntil(1);
    expect(got.length).toBe(1);
    await feed.addUntil(2.2);
    expect(got.map((b) => b.length)).toEqual([rate, rate, rate]);
    expect(closed).toBe(0);
    await feed.finish();
    expect(closed).toBe(1);
    expect(got.map((b) => b.length)).toEqual([rate, rate, rate, rate / 2]);
    for (let c = 0; c < 2; c++) {
      const joined = new Float32Array(whole.length);
      let at = 0;
      for (const b of got) {
        joined.set(b.getChannelData(c), at);
        at += b.length;
      }
      expect(at).toBe(whole.length);
      expect(joined).toEqual(whole.getChannelData(c));
    }
    // Asking again adds nothing.
    await feed.addUntil(Infinity);
    expect(got.length).toBe(4);
  });

  it('a track shorter than a chunk goes in one piece', async () => {
    const whole = track(0.25, 44_100);
    const got: AudioBuffer[] = [];
    const feed = new AudioFeed(whole, { add: async (b) => void got.push(b), close: () => {} });
    await feed.addUntil(10);
    expect(got.map((b) => b.length)).toEqual([whole.length]);
    expect(got[0].getChannelData(1)).toEqual(whole.getChannelData(1));
  });
});
