/**
 * Where a preview frame's time goes, kept in fixed rings (no allocation while playing): the interval
 * between rendered frames, and inside our own JavaScript the pose (sampling, append, IK, morphs), the
 * scene (camera, light, matrices) and the three.js render call (scene walk, skinning matrices and their
 * texture upload, uniforms, draw calls queued). With `syncGpu` on (a measurement mode, off by default)
 * each render is followed by a 1-pixel readPixels, which waits until the GPU — SwiftShader's rasteriser
 * here — has drawn the frame, so rasterisation shows up on its own as `gpu` instead of inside the
 * browser's frame interval.
 */

/** A ring of the last N numbers (frame and pose times), no allocation while playing. */
export class Ring {
  private buf: Float64Array;
  private n = 0;
  private i = 0;
  constructor(size: number) {
    this.buf = new Float64Array(size);
  }
  push(v: number): void {
    this.buf[this.i] = v;
    this.i = (this.i + 1) % this.buf.length;
    if (this.n < this.buf.length) this.n++;
  }
  get length(): number {
    return this.n;
  }
  values(): number[] {
    const out: number[] = [];
    for (let k = 0; k < this.n; k++) out.push(this.buf[(this.i - this.n + k + this.buf.length) % this.buf.length]);
    return out;
  }
  clear(): void {
    this.n = this.i = 0;
  }
}

/** Median, 95th percentile, mean and max of a list of milliseconds (zeros when empty). */
export interface Stat {
  n: number;
  median: number;
  p95: number;
  mean: number;
  max: number;
}

export function statOf(values: readonly number[]): Stat {
  if (!values.length) return { n: 0, median: 0, p95: 0, mean: 0, max: 0 };
  const s = [...values].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { n: s.length, median: at(0.5), p95: at(0.95), mean: s.reduce((a, b) => a + b, 0) / s.length, max: s[s.length - 1] };
}

/** Per-frame breakdown of the playback loop, in ms. */
export interface FrameBreakdown {
  /** Time between frames rendered by the playback loop (what the user sees as frame rate). */
  interval: Stat;
  /** Our JavaScript per played frame: pose + scene + render call (no GPU wait). */
  js: Stat;
  pose: Stat;
  scene: Stat;
  render: Stat;
  /** Waiting for the rasteriser after the render call (only with syncGpu on). */
  gpu: Stat;
  /** Vue's update after the frame's time.seek (frame counter, scrub bar, timeline playhead…). */
  ui: Stat;
  /**
   * Software GL (async-present.ts): from a render's read-back request to its picture on the page's
   * canvas — the rasteriser's time plus the wait for the next poll. Empty with a GPU.
   */
  present: Stat;
  /** Renders of any kind (playback, on demand) since the last clear. */
  renders: number;
  /** Drawing-buffer scale the last frame used (1 = full resolution). */
  scale: number;
  /** Draw calls and triangles of the last render (three.js renderer.info.render). */
  calls: number;
  triangles: number;
}

export class FrameProfiler {
  readonly interval = new Ring(4096);
  readonly js = new Ring(4096);
  readonly pose = new Ring(4096);
  readonly scene = new Ring(4096);
  readonly render = new Ring(4096);
  readonly gpu = new Ring(4096);
  readonly ui = new Ring(4096);
  readonly present = new Ring(4096);
  renders = 0;
  /** Measurement mode: wait for the GPU after each render (slows playback; never on for users). */
  syncGpu = false;

  clear(): void {
    for (const r of [this.interval, this.js, this.pose, this.scene, this.render, this.gpu, this.ui, this.present]) r.clear();
    this.renders = 0;
  }

  breakdown(scale: number, last: { calls: number; triangles: number }): FrameBreakdown {
    return {
      interval: statOf(this.interval.values()),
      js: statOf(this.js.values()),
      pose: statOf(this.pose.values()),
      scene: statOf(this.scene.values()),
      render: statOf(this.render.values()),
      gpu: statOf(this.gpu.values()),
      ui: statOf(this.ui.values()),
      present: statOf(this.present.values()),
      renders: this.renders,
      scale,
      calls: last.calls,
      triangles: last.triangles,
    };
  }
}
