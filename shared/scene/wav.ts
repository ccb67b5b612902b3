/**
 * Reads uncompressed WAV (the format MMD itself plays) into one Float32Array per channel at the file's
 * own sample rate, without Web Audio: the music store writes them straight into its AudioBuffer, which is
 * several times faster than decodeAudioData for a long song (that also resamples to the context's rate;
 * an AudioBufferSourceNode resamples on playback instead). Also the RIFF chunk walk audio-format.ts names
 * a WAV's format with.
 *
 * Taken: RIFF/WAVE with a fmt chunk of integer PCM (format 1: 8-bit unsigned, 16-, 24- or 32-bit signed)
 * or IEEE float (format 3: 32- or 64-bit), or WAVE_FORMAT_EXTENSIBLE (0xFFFE) whose sub-format is one of
 * those; chunks in any order, odd sizes padded; a data chunk longer than the file (a truncated copy, or a
 * streamed file's 0xFFFFFFFF) gives the whole frames present. Anything else is null, and the caller
 * falls back to the platform's decoder (compressed WAVs, MP3, Ogg, …). Sample values: integers divided
 * by 2^(bits−1) (8-bit: (b − 128) / 128), floats as stored.
 */

/** The sample rates Web Audio's createBuffer takes everywhere (3 kHz … 768 kHz). */
const MIN_RATE = 3000;
const MAX_RATE = 768_000;
/** A Web Audio buffer holds at most 32 channels. */
const MAX_CHANNELS = 32;

const EXTENSIBLE_TAIL = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71];

const id = (b: Uint8Array, at: number) => String.fromCharCode(b[at], b[at + 1], b[at + 2], b[at + 3]);

interface Fmt {
  tag: number;
  channels: number;
  rate: number;
  align: number;
  bits: number;
}

function readFmt(dv: DataView, b: Uint8Array, at: number, size: number): Fmt | null {
  if (size < 16) return null;
  let tag = dv.getUint16(at, true);
  const fmt = { tag, channels: dv.getUint16(at + 2, true), rate: dv.getUint32(at + 4, true), align: dv.getUint16(at + 12, true), bits: dv.getUint16(at + 14, true) };
  if (tag === 0xfffe) {
    if (size < 40) return null;
    // The sub-format GUID: its first two bytes are the format tag, the rest the fixed KSDATAFORMAT tail.
    for (let i = 0; i < EXTENSIBLE_TAIL.length; i++) if (b[at + 26 + i] !== EXTENSIBLE_TAIL[i]) return null;
    tag = dv.getUint16(at + 24, true);
  }
  return { ...fmt, tag };
}

/** Channel c of interleaved 16-bit samples (nc channels) into ch, scaled to -1..1. */
function spread16(src: Int16Array, nc: number, c: number, ch: Float32Array, n: number): void {
  for (let f = 0, j = c; f < n; f++, j += nc) ch[f] = src[j] / 32768;
}

/** Where an uncompressed WAV's samples are and how they are stored (parseWav). */
export interface WavLayout {
  sampleRate: number;
  channels: number;
  /** Whole frames present. */
  frames: number;
  /** 1: integer PCM, 3: IEEE float. */
  tag: 1 | 3;
  bits: number;
  /** Offset of the first sample in the bytes. */
  dataAt: number;
}

/**
 * The first top-level chunk named `name` of a RIFF file (after its 12-byte header): the offset of its body
 * and its size as stored (which may run past the bytes); null when the walk meets no such chunk.
 */
export function riffChunk(b: Uint8Array, name: string): { at: number; size: number } | null {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let at = 12; at + 8 <= b.length; ) {
    const size = dv.getUint32(at + 4, true);
    if (id(b, at) === name) return { at: at + 8, size };
    at += 8 + size + (size & 1);
  }
  return null;
}

/**
 * A RIFF/WAVE file whose data chunk promises more bytes than the file holds (cut short by a copy or a
 * download): the bytes of samples present and promised; null when the chunk is whole or there is none.
 * The decoder plays what is there (parseWav counts frames from the bytes present); this is what the app
 * tells the person, so a song that stops early is not a surprise. `fileSize`: the whole file's, where
 * `bytes` are its first bytes only (`vmd-studio inspect` reads a head).
 */
export function wavDataShortfall(bytes: Uint8Array, fileSize = bytes.length): { present: number; promised: number } | null {
  const d = wavSampleBytes(bytes, fileSize);
  return d && d.present < d.promised ? d : null;
}

/** A RIFF/WAVE file's data chunk: the bytes of samples it promises and those the file holds; null without one. */
function wavSampleBytes(b: Uint8Array, fileSize: number): { present: number; promised: number } | null {
  if (b.length < 12 || id(b, 0) !== 'RIFF' || id(b, 8) !== 'WAVE') return null;
  const d = riffChunk(b, 'data');
  if (!d) return null;
  return { present: Math.max(0, Math.min(d.size, fileSize - d.at)), promised: d.size };
}

/**
 * A RIFF/WAVE file with a data chunk but not one whole sample frame in the file: the chunk is empty
 * (`promised` 0), or promises bytes of which the file holds less than a frame (the header of a copy cut
 * short right after it). `present`: the bytes of samples there. No decoder can make a song of it; the app
 * and `vmd-studio inspect` say this instead of "cannot decode". Null when a frame is there (wavDataShortfall
 * says how much of the rest is missing), or the file is no WAV or has no data chunk. `fileSize`: the whole
 * file's, where `bytes` are its first bytes only.
 */
export function wavWithoutSamples(bytes: Uint8Array, fileSize = bytes.length): { present: number; promised: number } | null {
  const b = bytes;
  const d = wavSampleBytes(b, fileSize);
  if (!d) return null;
  // One frame's bytes as the fmt chunk says (its block align), else at least one byte.
  const f = riffChunk(b, 'fmt ');
  const align = f && f.size >= 16 && f.at + 14 <= b.length ? b[f.at + 12] | (b[f.at + 13] << 8) : 0;
  return d.present < Math.max(1, align) ? d : null;
}

/** The layout of an uncompressed WAV this decoder takes, or null (see the top of this file). */
export function parseWav(bytes: Uint8Array): WavLayout | null {
  const b = bytes;
  if (b.length < 12 || id(b, 0) !== 'RIFF' || id(b, 8) !== 'WAVE') return null;
  // The fmt chunk comes before the samples (a data chunk's size may run past the file, so the walk ends there).
  const f = riffChunk(b, 'fmt '), d = riffChunk(b, 'data');
  if (!f || !d || f.at > d.at || f.at + Math.min(f.size, 40) > b.length) return null;
  const fmt = readFmt(new DataView(b.buffer, b.byteOffset, b.byteLength), b, f.at, f.size);
  if (!fmt) return null;
  const dataAt = d.at, dataSize = Math.min(d.size, b.length - d.at);
  const { tag, channels, rate, align, bits } = fmt;
  const known = (tag === 1 && (bits === 8 || bits === 16 || bits === 24 || bits === 32)) || (tag === 3 && (bits === 32 || bits === 64));
  if (!known || channels < 1 || channels > MAX_CHANNELS || rate < MIN_RATE || rate > MAX_RATE || align !== (channels * bits) / 8) return null;
  // Counted from the bytes present, so nothing is allocated beyond what the file holds.
  const frames = Math.floor(dataSize / align);
  if (frames < 1) return null;
  return { sampleRate: rate, channels, frames, tag, bits, dataAt };
}

/**
 * The samples of a parsed WAV into `out` (one array per channel, at least `frames` long: an AudioBuffer's
 * own channel data, so nothing is copied twice), scaled to −1..1 for integers.
 */
export function readWavSamples(bytes: Uint8Array, w: WavLayout, out: Float32Array[]): void {
  const b = bytes, nc = w.channels, frames = w.frames, width = w.bits / 8, align = nc * width;
  const little = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  if (little && w.tag === 1 && w.bits === 16) {
    // The common case, through a typed view of the samples (an aligned copy where they are not aligned).
    const at = b.byteOffset + w.dataAt;
    const src = at % 2 === 0 ? new Int16Array(b.buffer, at, frames * nc) : new Int16Array(b.slice(w.dataAt, w.dataAt + frames * align).buffer);
    for (let c = 0; c < nc; c++) spread16(src, nc, c, out[c], frames);
    return;
  }
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let c = 0; c < nc; c++) {
    const ch = out[c];
    let at = w.dataAt + c * width;
    for (let f = 0; f < frames; f++, at += align) {
      let v: number;
      if (w.tag === 3) v = w.bits === 32 ? dv.getFloat32(at, true) : dv.getFloat64(at, true);
      else if (w.bits === 8) v = (b[at] - 128) / 128;
      else if (w.bits === 16) v = dv.getInt16(at, true) / 32768;
      else if (w.bits === 24) v = (((b[at] | (b[at + 1] << 8) | (b[at + 2] << 16)) << 8) >> 8) / 8388608;
      else v = dv.getInt32(at, true) / 2147483648;
      ch[f] = v;
    }
  }
}
