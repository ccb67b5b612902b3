// The WAV reader (shared/scene/wav.ts: parseWav, readWavSamples) on files this test writes byte by
// byte: each sample format MMD users meet, chunk layouts, a truncated or streamed data chunk, and what it
// leaves to the platform's decoder (null). Expected samples come from the integers written, by the format's own rule.
import { describe, expect, it } from 'vitest';
import { parseWav, readWavSamples } from '../../../shared/scene/wav';
import { pcm16Wav } from '../../helpers/wav';

/** The channels of a WAV the reader takes, as the music store reads them (into arrays of `frames`), or null. */
function decodeWav(bytes: Uint8Array): { sampleRate: number; channels: Float32Array[] } | null {
  const w = parseWav(bytes);
  if (!w) return null;
  const channels = Array.from({ length: w.channels }, () => new Float32Array(w.frames));
  readWavSamples(bytes, w, channels);
  return { sampleRate: w.sampleRate, channels };
}

interface Chunk {
  id: string;
  body: Uint8Array;
}

/** RIFF/WAVE around the chunks, each padded to an even size; `riffSize` overrides the header's size. */
function riff(chunks: Chunk[]): Uint8Array {
  const parts: number[] = [...'RIFF'].map((c) => c.charCodeAt(0));
  parts.push(0, 0, 0, 0, ...[...'WAVE'].map((c) => c.charCodeAt(0)));
  for (const ch of chunks) {
    parts.push(...[...ch.id].map((c) => c.charCodeAt(0)));
    const n = ch.body.length;
    parts.push(n & 255, (n >> 8) & 255, (n >> 16) & 255, (n >>> 24) & 255, ...ch.body);
    if (n & 1) parts.push(0);
  }
  const out = new Uint8Array(parts);
  new DataView(out.buffer).setUint32(4, out.length - 8, true);
  return out;
}

/** A fmt chunk: tag, channels, rate, bits (block align and byte rate follow); extensible adds its GUID. */
function fmt(tag: number, channels: number, rate: number, bits: number, subTag?: number): Chunk {
  const body = new Uint8Array(subTag === undefined ? 16 : 40);
  const dv = new DataView(body.buffer);
  dv.setUint16(0, tag, true);
  dv.setUint16(2, channels, true);
  dv.setUint32(4, rate, true);
  dv.setUint32(8, (rate * channels * bits) / 8, true);
  dv.setUint16(12, (channels * bits) / 8, true);
  dv.setUint16(14, bits, true);
  if (subTag !== undefined) {
    dv.setUint16(16, 22, true);
    dv.setUint16(18, bits, true);
    dv.setUint16(24, subTag, true);
    body.set([0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71], 26);
  }
  return { id: 'fmt ', body };
}

/** Little-endian bytes of interleaved integer samples of `bits` bits (8-bit stored unsigned, +128). */
function intData(values: number[], bits: number): Chunk {
  const w = bits / 8;
  const body = new Uint8Array(values.length * w);
  values.forEach((v, i) => {
    const u = bits === 8 ? v + 128 : v < 0 ? v + 2 ** bits : v;
    for (let k = 0; k < w; k++) body[i * w + k] = Math.floor(u / 2 ** (8 * k)) & 255;
  });
  return { id: 'data', body };
}

const deinterleave = (values: number[], nc: number, scale: number) =>
  Array.from({ length: nc }, (_, c) => values.filter((_, i) => i % nc === c).map((v) => Math.fround(v / scale)));
const channelsOf = (r: ReturnType<typeof decodeWav>) => r!.channels.map((ch) => Array.from(ch));

describe('decodeWav', () => {
  it('decodes 16-bit stereo PCM (the common case) at its own rate', () => {
    const s = new Int16Array([0, 1, -1, 32767, -32768, 12345, -2, 300]);
    const r = decodeWav(pcm16Wav(s, 2, 44_100));
    expect(r!.sampleRate).toBe(44_100);
    expect(channelsOf(r)).toEqual(deinterleave(Array.from(s), 2, 32768));
  });

  it('decodes 8-bit unsigned, 24-bit and 32-bit signed PCM, mono to three channels', () => {
    const cases: [number, number, number[]][] = [
      [8, 1, [-128, -1, 0, 1, 127, 64]],
      [24, 3, [-8388608, 8388607, 0, -1, 1, 4660, -300000, 123456, 7]],
      [32, 2, [-2147483648, 2147483647, 0, -1, 1 << 20, -(1 << 28)]],
    ];
    for (const [bits, nc, values] of cases) {
      const r = decodeWav(riff([fmt(1, nc, 22_050, bits), intData(values, bits)]));
      expect(r!.sampleRate).toBe(22_050);
      expect(channelsOf(r), `${bits}-bit`).toEqual(deinterleave(values, nc, 2 ** (bits - 1)));
    }
  });

  it('decodes 32- and 64-bit float, and WAVE_FORMAT_EXTENSIBLE whose sub-format is PCM or float', () => {
    const vals = [0.5, -0.25, 1, -1, 0.125, 0.75];
    const f32 = new Uint8Array(new Float32Array(vals).buffer), f64 = new Uint8Array(new Float64Array(vals).buffer);
    expect(channelsOf(decodeWav(riff([fmt(3, 2, 48_000, 32), { id: 'data', body: f32 }])))).toEqual(deinterleave(vals, 2, 1));
    expect(channelsOf(decodeWav(riff([fmt(3, 1, 48_000, 64), { id: 'data', body: f64 }])))).toEqual(deinterleave(vals, 1, 1));
    expect(channelsOf(decodeWav(riff([fmt(0xfffe, 2, 48_000, 32, 3), { id: 'data', body: f32 }])))).toEqual(deinterleave(vals, 2, 1));
    const ints = [100, -100, 32767, -32768];
    expect(channelsOf(decodeWav(riff([fmt(0xfffe, 2, 48_000, 16, 1), intData(ints, 16)])))).toEqual(deinterleave(ints, 2, 32768));
  });

  it('reads chunks in any order with odd sizes padded, and the whole frames of a truncated or streamed data chunk', () => {
    const ints = [1, 2, 3, 4, 5, 6];
    const list = { id: 'LIST', body: new Uint8Array([1, 2, 3, 4, 5]) }; // odd: a pad byte follows
    expect(channelsOf(decodeWav(riff([list, fmt(1, 2, 44_100, 16), { id: 'fact', body: new Uint8Array(4) }, intData(ints, 16)])))).toEqual(deinterleave(ints, 2, 32768));
    // Cut inside the third frame: two whole frames.
    const full = riff([fmt(1, 2, 44_100, 16), intData(ints, 16)]);
    expect(channelsOf(decodeWav(full.subarray(0, full.length - 3)))).toEqual(deinterleave(ints.slice(0, 4), 2, 32768));
    // A streamed file: the data chunk's size is 0xFFFFFFFF.
    const streamed = full.slice();
    new DataView(streamed.buffer).setUint32(full.length - 12 - 4, 0xffffffff, true);
    expect(channelsOf(decodeWav(streamed))).toEqual(deinterleave(ints, 2, 32768));
    // Bytes at an odd offset of their buffer (a view into a larger read).
    const shifted = new Uint8Array(full.length + 1);
    shifted.set(full, 1);
    expect(channelsOf(decodeWav(shifted.subarray(1)))).toEqual(deinterleave(ints, 2, 32768));
  });

  it('leaves to the platform what it does not take: compressed WAVs, other formats, broken headers', () => {
    const data = intData([1, 2, 3, 4], 16);
    expect(decodeWav(riff([fmt(2, 2, 44_100, 4), data]))).toBeNull(); // ADPCM
    expect(decodeWav(riff([fmt(0x55, 2, 44_100, 16), data]))).toBeNull(); // MP3 in WAV
    expect(decodeWav(riff([fmt(0xfffe, 2, 44_100, 16, 0x55), data]))).toBeNull(); // extensible, not PCM/float
    expect(decodeWav(riff([fmt(1, 2, 44_100, 12), data]))).toBeNull(); // 12-bit
    expect(decodeWav(riff([fmt(1, 2, 1000, 16), data]))).toBeNull(); // below Web Audio's rates
    expect(decodeWav(riff([fmt(1, 0, 44_100, 16), data]))).toBeNull(); // no channels
    const badAlign = fmt(1, 2, 44_100, 16);
    new DataView(badAlign.body.buffer).setUint16(12, 3, true);
    expect(decodeWav(riff([badAlign, data]))).toBeNull();
    expect(decodeWav(riff([data]))).toBeNull(); // no fmt
    expect(decodeWav(riff([fmt(1, 2, 44_100, 16)]))).toBeNull(); // no data
    expect(decodeWav(riff([fmt(1, 2, 44_100, 16), { id: 'data', body: new Uint8Array(3) }]))).toBeNull(); // not one frame
    expect(decodeWav(new TextEncoder().encode('ID3\u0003 not a wav'))).toBeNull();
    expect(decodeWav(new TextEncoder().encode('RIFF'))).toBeNull();
    expect(decodeWav(riff([{ id: 'fmt ', body: new Uint8Array(8) }, data]))).toBeNull(); // short fmt
  });
});
