/**
 * A stand-in for Web Audio's AudioContext in the renderer's unit tests (happy-dom has none; the real
 * one runs in the e2e suite). The base answers what every music-store test needs: a running context,
 * a destination, resume(), and decodeAudioData() resolving a mono buffer the test describes. Tests that
 * move the clock or record what is played extend it.
 */
import { createPinia, setActivePinia } from 'pinia';
import { beforeAll, beforeEach } from 'vitest';

/** A decoded mono buffer of `seconds` at `rate` Hz; `fill` writes its samples. */
export function monoBuffer(seconds: number, rate: number, fill: (data: Float32Array) => void = () => {}) {
  const data = new Float32Array(Math.round(seconds * rate));
  fill(data);
  return { numberOfChannels: 1, sampleRate: rate, duration: seconds, getChannelData: () => data };
}

export class FakeAudioContext {
  state = 'running';
  destination = {};
  /** What decodeAudioData resolves (or the error it rejects with); set per test class or instance. */
  decoded(): ReturnType<typeof monoBuffer> | Error {
    return monoBuffer(3, 1000);
  }
  decodeAudioData(_b?: ArrayBuffer) {
    const d = this.decoded();
    return d instanceof Error ? Promise.reject(d) : Promise.resolve(d);
  }
  resume() {
    return Promise.resolve();
  }
}

/** Installs `context` as the global AudioContext for the file, and a fresh Pinia (then `reset`) before each test. */
export function withFakeAudio(context: typeof FakeAudioContext, reset: () => void): void {
  beforeAll(() => {
    (globalThis as { AudioContext?: unknown }).AudioContext = context;
  });
  beforeEach(() => {
    setActivePinia(createPinia());
    reset();
  });
}
