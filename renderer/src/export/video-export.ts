/**
 * The video export: renders the scene offline, frame by frame, encodes with the platform's WebCodecs and
 * muxes with mediabunny into a file main writes as it goes (export-sink.ts). Every output frame is the
 * scene at exactly its time (frame-times.ts): nothing is dropped however slow the machine is, since no
 * clock drives it. The music is rendered once for the output's span (an OfflineAudioContext at 48 kHz,
 * the song placed at its offset, at its volume) and encoded into the same file a second at a time, a second
 * ahead of the picture (AudioFeed), so progress and Cancel answer from the first frame.
 *
 * Codecs: MP4 is H.264 with AAC: the platform's AAC encoder where it has one, else mediabunny's AAC
 * extension (@mediabunny/aac-encoder: FFmpeg's AAC-LC encoder in wasm, loaded on first use), since Chromium
 * without proprietary codecs (as here) has none; Opus only if neither can encode. WebM is VP9 with Opus.
 * What the platform lacks is said before it starts.
 * A PNG sequence writes `name_000000.png`, one file per frame, each through the same temp-and-rename.
 *
 * The frame source (FrameSource) is the seam to the scene: `advanceTo(f)` is where the scene is brought to
 * MMD frame f (a physics world steps there), `draw()` draws it into the source's canvas.
 */
import {
  AudioBufferSource,
  Mp4OutputFormat,
  Output,
  QUALITY_HIGH,
  StreamTarget,
  VideoSample,
  VideoSampleSource,
  WebMOutputFormat,
  canEncodeAudio,
  canEncodeVideo,
  type AudioCodec,
  type VideoCodec,
} from 'mediabunny';
import type { IpcError, Requests } from '../../../shared/ipc/contract';
import { cancelled, failure, type CancelledError, type Outcome } from '../../../shared/vmd/errors';
import { ExportIoError, openExportSink, writeWholeFile, type ExportSink } from './export-sink';
import { mmdFrameAt, outputFrameCount, sequenceFramePath, songStartInOutput, type FrameRange } from './frame-times';
import { BT709_LIMITED, rgbaToI420 } from './yuv';

export type ExportFormat = 'mp4' | 'webm' | 'png';

/** The scene, as the export sees it. */
export interface FrameSource {
  readonly canvas: HTMLCanvasElement | OffscreenCanvas;
  /** Brings the scene to MMD frame f (fractional at 60 fps): posing, and physics stepped to it. */
  advanceTo(f: number): void;
  /**
   * Resolves when the scene can be stepped (physics loaded, and warmed up from frame 0 where the video asks it:
   * `onWarmUp` says how far, `signal` stops it); awaited before the first frame.
   */
  ready?(signal?: AbortSignal, onWarmUp?: (done: number, total: number) => void): Promise<void>;
  /** Draws the scene as it stands into `canvas`. */
  draw(): void;
  /**
   * The picture drawn, RGBA, rows bottom first (WebGL's readPixels order, no flip copied): what the video's
   * frames are converted from (yuv.ts). Without it the canvas is read through a 2D canvas.
   */
  pixelsBottomUp?(): Uint8Array;
  dispose(): void;
}

export interface ExportAudio {
  buffer: AudioBuffer;
  /** The music's offset in MMD frames (audio time = (frame + offset) / 30). */
  offsetFrames: number;
  volume: number;
}

export interface VideoExportOptions {
  path: string;
  overwrite: boolean;
  format: ExportFormat;
  width: number;
  height: number;
  fps: number;
  range: FrameRange;
  audio: ExportAudio | null;
}

export interface ExportProgress {
  done: number;
  total: number;
  /** Frames per second rendered and encoded so far. */
  fps: number;
  /** Estimated ms left (null until a few frames are done). */
  etaMs: number | null;
  /** Before the first frame: physics warming up from frame 0, frames simulated of `total` (not drawn). */
  warmUp?: { done: number; total: number };
}

export interface ExportReport {
  path: string;
  frames: number;
  seconds: number;
  bytes: number;
  videoCodec: string | null;
  audioCodec: string | null;
  /** Frames rendered and encoded per second (wall clock). */
  fps: number;
  elapsedMs: number;
  /** Time until the first frame was done (encoder, audio, the first frame's shaders), ms. */
  startupMs: number;
  /** Time per frame after the first, ms (the steady speed the next estimate is made from; 0 for one frame). */
  steadyMsPerFrame: number;
  /** The physics warm-up before the first frame (frames simulated from 0, not drawn) and its time, ms; absent without one. */
  warmUp?: { steps: number; ms: number };
}

/** An export's outcome: its report, or its error; cancelled is the failure whose code is `E_CANCELLED`. */
export type ExportOutcome = Outcome<ExportReport, IpcError | CancelledError>;

type ExportApi = Pick<Requests, 'beginExportFile' | 'writeExportChunk' | 'finishExportFile' | 'abortExportFile'>;

export const AUDIO_RATE = 48000;

export interface CodecChoice {
  video: VideoCodec;
  audio: AudioCodec | null;
}

const AUDIO_CONFIG = { numberOfChannels: 2, sampleRate: AUDIO_RATE, bitrate: 192000 };
let aacExtension: Promise<void> | null = null;
/** Whether AAC comes from the extension (set once it is registered: the platform had no AAC encoder). */
let aacFromExtension = false;
/**
 * FFmpeg's AAC encoder starts with 1024 samples of priming (its initial padding), and the extension stamps its
 * first packet with the first sample's time, so the music would sound 21 ms late. Its samples are stamped that
 * much earlier instead: the priming lies before 0, and mediabunny's edit list trims it (ffprobe and players
 * honour that), so each sound falls at its frame's time.
 */
const AAC_EXTENSION_PRIMING = 1024;

/** AAC for MP4: the platform's encoder when it has one, else mediabunny's AAC extension, registered once. */
async function ensureAacEncoder(): Promise<void> {
  if (aacFromExtension || (await canEncodeAudio('aac', AUDIO_CONFIG).catch(() => false))) return;
  aacExtension ??= import('@mediabunny/aac-encoder').then((m) => {
    m.registerAacEncoder();
    aacFromExtension = true;
  });
  await aacExtension.catch(() => (aacExtension = null)); // not loaded: MP4 falls back to Opus, and the dialog says so
}

/** What the platform encodes for a container at a size: null when it has no video codec for it. */
export async function chooseCodecs(format: 'mp4' | 'webm', width: number, height: number, withAudio: boolean): Promise<CodecChoice | null> {
  const video: VideoCodec = format === 'mp4' ? 'avc' : 'vp9';
  if (!(await canEncodeVideo(video, { width, height, bitrate: QUALITY_HIGH }).catch(() => false))) return null;
  if (!withAudio) return { video, audio: null };
  if (format === 'mp4') await ensureAacEncoder();
  const audioOrder: AudioCodec[] = format === 'mp4' ? ['aac', 'opus'] : ['opus'];
  for (const a of audioOrder) if (await canEncodeAudio(a, AUDIO_CONFIG).catch(() => false)) return { video, audio: a };
  return { video, audio: null };
}

/** The output's span of the song: 48 kHz stereo, the song placed at its offset and scaled by its volume. */
export async function renderExportAudio(a: ExportAudio, range: FrameRange, seconds: number): Promise<AudioBuffer> {
  const length = Math.max(1, Math.round(seconds * AUDIO_RATE));
  const ctx = new OfflineAudioContext(2, length, AUDIO_RATE);
  const src = ctx.createBufferSource();
  src.buffer = a.buffer;
  const gain = ctx.createGain();
  gain.gain.value = a.volume;
  src.connect(gain).connect(ctx.destination);
  const start = songStartInOutput(range, a.offsetFrames);
  if (start >= 0) src.start(start);
  else if (-start < a.buffer.duration) src.start(0, -start);
  return ctx.startRendering();
}

/** How far the music is encoded ahead of the picture during an export (seconds), and its chunks' length. */
const AUDIO_LEAD_S = 1;

/**
 * The rendered music, handed to the encoder in one-second chunks as the export reaches them. Consecutive
 * buffers given to an AudioBufferSource play one after the other, and one encoder takes them all, so the
 * track is the one a single buffer would give.
 */
export class AudioFeed {
  private next = 0;

  constructor(
    private readonly whole: AudioBuffer,
    private readonly to: { add(b: AudioBuffer): Promise<void>; close(): void },
  ) {}

  /** Adds the chunks that start before `seconds` (all that is left for Infinity). */
  async addUntil(seconds: number): Promise<void> {
    const { whole, to } = this, chunk = Math.round(AUDIO_LEAD_S * whole.sampleRate);
    const until = Math.min(whole.length, Math.ceil(seconds * whole.sampleRate));
    while (this.next < until) {
      const length = Math.min(chunk, whole.length - this.next);
      const part = new AudioBuffer({ length, numberOfChannels: whole.numberOfChannels, sampleRate: whole.sampleRate });
      for (let c = 0; c < whole.numberOfChannels; c++) part.copyToChannel(whole.getChannelData(c).subarray(this.next, this.next + length), c);
      this.next += length;
      await to.add(part);
    }
  }

  /** Adds the rest and closes the track. */
  async finish(): Promise<void> {
    await this.addUntil(Infinity);
    this.to.close();
  }
}

/**
 * The most packets each track can have, for the MP4 index's reserved space (Fast Start 'reserve': too few and the
 * muxer fails). Video: one packet a frame. Audio: AAC packs 1024 samples a packet, Opus 960 (20 ms) as Chromium
 * encodes it; counted at 960 over the length plus the priming, then a third more as mediabunny advises. A third
 * more for the video too. The unused part is a free box (about 40 bytes a packet).
 */
export function maximumPackets(frames: number, seconds: number): { video: number; audio: number } {
  return { video: Math.ceil(frames * 4 / 3) + 8, audio: Math.ceil((((seconds + 1) * AUDIO_RATE) / 960) * 4 / 3) + 16 };
}

/** The canvas's picture as a PNG (null when the platform cannot encode it). */
export async function pngOf(canvas: HTMLCanvasElement | OffscreenCanvas): Promise<Blob | null> {
  return canvas instanceof HTMLCanvasElement ? new Promise<Blob | null>((r) => canvas.toBlob(r, 'image/png')) : canvas.convertToBlob({ type: 'image/png' });
}

/** A 2D canvas the picture is copied into when the source cannot hand its pixels over (pixelsBottomUp). */
let readback: OffscreenCanvasRenderingContext2D | null = null;

/**
 * The drawn picture as a video frame: BT.709 limited-range I420 made here (yuv.ts), the colour space given with
 * it, so the encoder neither converts it (Chromium made full-range samples from the canvas's RGB) nor flags it
 * otherwise.
 */
export function videoFrameOf(source: FrameSource, width: number, height: number, timestamp: number, duration: number): VideoFrame {
  let yuv: Uint8Array;
  if (source.pixelsBottomUp) yuv = rgbaToI420(source.pixelsBottomUp(), width, height, true);
  else {
    if (!readback || readback.canvas.width !== width || readback.canvas.height !== height) readback = new OffscreenCanvas(width, height).getContext('2d', { willReadFrequently: true });
    if (!readback) throw new Error('no 2D canvas to read the picture back');
    readback.clearRect(0, 0, width, height);
    readback.drawImage(source.canvas, 0, 0);
    yuv = rgbaToI420(readback.getImageData(0, 0, width, height).data, width, height, false);
  }
  return new VideoFrame(yuv, { format: 'I420', codedWidth: width, codedHeight: height, timestamp: Math.round(timestamp * 1e6), duration: Math.round(duration * 1e6), colorSpace: BT709_LIMITED });
}

const errorOf = (e: unknown): IpcError =>
  e instanceof ExportIoError ? e.error : { code: 'E_IO', message: e instanceof Error ? e.message : String(e) };

/**
 * Runs one export. `onProgress` is called at most every 100 ms and after the last frame; `signal`
 * cancels (the temp file is removed: nothing appears at the chosen name).
 */
export async function runVideoExport(api: ExportApi, source: FrameSource, o: VideoExportOptions, onProgress: (p: ExportProgress) => void, signal: AbortSignal): Promise<ExportOutcome> {
  const total = outputFrameCount(o.range, o.fps);
  if (total <= 0) return failure({ code: 'E_ARGUMENT', message: 'the frame range is empty' });
  const seconds = total / o.fps;
  let t0 = performance.now();
  let lastReport = 0;
  /** When the first frame was done: the time left is the steady speed since, the start-up left out. */
  let firstAt = 0;
  const progress = (done: number) => {
    const now = performance.now();
    if (done === 1) firstAt = now;
    if (done < total && now - lastReport < 100) return;
    lastReport = now;
    const elapsed = now - t0;
    const fps = done > 0 ? (1000 * done) / elapsed : 0;
    onProgress({ done, total, fps, etaMs: done >= 3 ? ((total - done) * (now - firstAt)) / (done - 1) : null });
  };
  const timing = (end: number) => ({ startupMs: firstAt - t0, steadyMsPerFrame: total > 1 ? (end - firstAt) / (total - 1) : 0 });
  progress(0);
  let warmFrom = 0, warmTo = 0, warmSteps = 0;
  await source.ready?.(signal, (done, of) => {
    warmTo = performance.now();
    if (done === 0) warmFrom = warmTo;
    warmSteps = done;
    onProgress({ done: 0, total, fps: 0, etaMs: null, warmUp: { done, total: of } });
  });
  if (signal.aborted) return cancelled();
  // The warm-up is not the render's start-up: the next estimate is made from the frames' own speed, and the
  // warm-up's per step (render-estimate.ts).
  t0 += warmTo - warmFrom;
  const warmUp = warmSteps > 0 ? { warmUp: { steps: warmSteps, ms: warmTo - warmFrom } } : {};

  if (o.format === 'png') {
    // Every picture's bytes: the report's size is the sequence's (it said 0.0 MB for 9 frames of 0.85 MB).
    let bytes = 0;
    for (let i = 0; i < total; i++) {
      if (signal.aborted) return cancelled();
      source.advanceTo(mmdFrameAt(o.range, o.fps, i));
      source.draw();
      const blob = await pngOf(source.canvas);
      if (!blob) return failure({ code: 'E_IO', message: 'the picture could not be encoded as PNG' });
      const data = new Uint8Array(await blob.arrayBuffer());
      const r = await writeWholeFile(api, sequenceFramePath(o.path, i), data, o.overwrite);
      if (!r.ok) return failure(r.error);
      bytes += data.byteLength;
      progress(i + 1);
    }
    const end = performance.now(), elapsedMs = end - t0;
    return { ok: true, value: { path: sequenceFramePath(o.path, 0), frames: total, seconds, bytes, videoCodec: 'png', audioCodec: null, fps: (1000 * total) / elapsedMs, elapsedMs, ...timing(end), ...warmUp } };
  }

  const codecs = await chooseCodecs(o.format, o.width, o.height, !!o.audio);
  if (!codecs) return failure({ code: 'E_UNSUPPORTED', message: `this platform cannot encode ${o.format === 'mp4' ? 'H.264' : 'VP9'} video at ${o.width}×${o.height}` });
  const opened = await openExportSink(api, o.path, o.overwrite);
  if (!opened.ok) return failure(opened.error);
  const sink: ExportSink = opened.value;
  const output = new Output({
    // MP4 with its index (moov) before the media (Fast Start), as upload sites and web players want it: without it
    // the whole file was read before the first frame played. 'reserve' keeps space for the index at the start and
    // writes it there at the end, the media still streamed to disk (the sink writes at positions); it needs each
    // track's most packets, below (the index was after the media before).
    format: o.format === 'mp4' ? new Mp4OutputFormat({ fastStart: 'reserve' }) : new WebMOutputFormat(),
    // Chunks of at most 4 MiB: each is one request to main.
    target: new StreamTarget(sink.writable, { chunked: true, chunkSize: 4 * 1024 * 1024 }),
  });
  // Frames made here from the picture's pixels (videoFrameOf), not captured from the canvas by the encoder.
  const video = new VideoSampleSource({ codec: codecs.video, bitrate: QUALITY_HIGH, keyFrameInterval: 2 });
  const packets = maximumPackets(total, seconds);
  output.addVideoTrack(video, { frameRate: o.fps, maximumPacketCount: packets.video });
  const startTimestamp = codecs.audio === 'aac' && aacFromExtension ? -AAC_EXTENSION_PRIMING / AUDIO_RATE : 0;
  const audio = codecs.audio ? new AudioBufferSource({ codec: codecs.audio, bitrate: 192000 }, { startTimestamp }) : null;
  if (audio) output.addAudioTrack(audio, { maximumPacketCount: packets.audio });
  const fail = async (e: unknown, stopped: boolean): Promise<ExportOutcome> => {
    await output.cancel().catch(() => undefined);
    await sink.abort().catch(() => undefined);
    return stopped ? cancelled() : failure(errorOf(e));
  };
  try {
    await output.start();
    // The music goes in a second at a time, a second ahead of the picture, not all before the first frame: a
    // long song's whole track encoded first (100 s of AAC in wasm took about 10 s here) froze the progress at
    // frame 0 with Cancel unanswered, and the muxer held every audio packet until the video caught up.
    const music = audio && o.audio ? new AudioFeed(await renderExportAudio(o.audio, o.range, seconds), audio) : null;
    for (let i = 0; i < total; i++) {
      if (signal.aborted) return await fail(null, true);
      if (music) await music.addUntil((i + 1) / o.fps + AUDIO_LEAD_S);
      source.advanceTo(mmdFrameAt(o.range, o.fps, i));
      source.draw();
      const sample = new VideoSample(videoFrameOf(source, o.width, o.height, i / o.fps, 1 / o.fps));
      try {
        await video.add(sample);
      } finally {
        sample.close(); // and its frame: the encoder holds its own reference while it needs one
      }
      progress(i + 1);
    }
    if (music) await music.finish();
    video.close();
    if (signal.aborted) return await fail(null, true);
    await output.finalize();
  } catch (e) {
    return await fail(e, signal.aborted);
  }
  const done = await sink.finish();
  if (!done.ok) return failure(done.error);
  const end = performance.now(), elapsedMs = end - t0;
  return {
    ok: true,
    value: { path: done.value.path, frames: total, seconds, bytes: done.value.bytesWritten, videoCodec: codecs.video, audioCodec: codecs.audio, fps: (1000 * total) / elapsedMs, elapsedMs, ...timing(end), ...warmUp },
  };
}
