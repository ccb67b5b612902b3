/**
 * How the preview's frames get drawn and shown: the WebGL renderer (openRenderer), render requests
 * coalesced onto the next animation frame, the drawing-buffer scale (adaptive-scale.ts decides it while
 * playing), and on software GL the asynchronous presentation of async-present.ts, with a render asked
 * for while a frame is still on its way run as soon as that one is shown.
 */
import * as THREE from 'three';
import { AsyncPresenter } from './async-present';
import { setCompressedTextureSupport } from './textures';

/** The WebGL renderer string (e.g. "ANGLE (… SwiftShader …)"), or '' when unknown. */
function probeRenderer(): string {
  try {
    const gl = document.createElement('canvas').getContext('webgl2');
    if (!gl) return '';
    const ext = gl.getExtension('WEBGL_debug_renderer_info');
    const name = String(gl.getParameter(ext ? ext.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return name;
  } catch {
    return '';
  }
}

/** What the presenter needs of AsyncPresenter (a fake in tests). */
export interface FrameSink {
  readonly busy: boolean;
  blocking: boolean;
  readonly presented: number;
  onPresented: ((latencyMs: number) => void) | null;
  submit(): void;
  dispose(): void;
}

/** What the presenter needs of the renderer: the pixel ratio the render scale multiplies. */
export interface ScalableRenderer {
  setPixelRatio(ratio: number): void;
}

/** Animation-frame scheduling (the browser's by default; a fake in tests). */
export interface FrameClock {
  request(cb: () => void): number;
  cancel(id: number): void;
}

const browserClock: FrameClock = {
  request: (cb) => requestAnimationFrame(cb),
  cancel: (id) => cancelAnimationFrame(id),
};

export interface OpenedRenderer {
  renderer: THREE.WebGLRenderer;
  /** True when WebGL runs on a software rasteriser. */
  software: boolean;
  /** Software GL only (and not with `present: 'sync'`, a measurement mode): the asynchronous presenter. */
  sink: AsyncPresenter | null;
  /** Device pixel ratio after the cap; the drawing buffer is this × render scale per CSS pixel. */
  basePixelRatio: number;
}

/** Creates the WebGL renderer for a canvas (throws when WebGL is unavailable). */
export function openRenderer(canvas: HTMLCanvasElement, present: 'auto' | 'sync' = 'auto'): OpenedRenderer {
  // Multisampling costs a software rasteriser (SwiftShader) more than it is worth; keep it on real GPUs.
  const software = /swiftshader|llvmpipe|software/i.test(probeRenderer());
  const sink = software && present !== 'sync' ? AsyncPresenter.create(canvas) : null;
  // Opaque canvas (the scene has a background): the page compositor need not blend it.
  const renderer = new THREE.WebGLRenderer({ canvas: sink?.glCanvas ?? canvas, antialias: !software, alpha: false, stencil: false, powerPreference: 'high-performance' });
  if (sink && !sink.attach(renderer.getContext())) throw new Error('WebGL 2 is required');
  // Every extra pixel costs a software rasteriser directly: full CSS resolution there, up to 2× on GPUs.
  const basePixelRatio = Math.min(globalThis.devicePixelRatio || 1, software ? 1 : 2);
  renderer.setPixelRatio(basePixelRatio);
  // Shadow maps on; the light casts only while a self-shadow key asks (preview-scene.ts), since the
  // shadow pass draws the model a second time.
  renderer.shadowMap.enabled = true;
  renderer.outputColorSpace = THREE.SRGBColorSpace;
  // Whether DXT-compressed DDS textures can be uploaded as they are (textures.ts).
  setCompressedTextureSupport(renderer);
  return { renderer, software, sink, basePixelRatio };
}

export class FramePresenter {
  private raf = 0;
  private disposed = false;
  private renderScale = 1;
  /** A render was asked for while the sink was busy: it runs when the previous frame is shown. */
  private renderWanted = false;
  /** Milliseconds the last draw took (0 when the last render had to wait for the sink). */
  lastRenderMs = 0;

  /**
   * `draw` renders the current picture into the drawing buffer and returns the ms it took; `sink` shows
   * it on software GL (null: the canvas is in the page); `onPresented` hears each shown frame's latency.
   */
  constructor(
    private readonly renderer: ScalableRenderer,
    private readonly basePixelRatio: number,
    private readonly sink: FrameSink | null,
    private readonly draw: () => number,
    onPresented: (latencyMs: number) => void = () => undefined,
    private readonly clock: FrameClock = browserClock,
  ) {
    if (sink) {
      sink.onPresented = (latency) => {
        onPresented(latency);
        if (this.renderWanted) this.renderNow();
      };
    }
  }

  /** Schedules one render on the next animation frame (coalesced). */
  requestRender(): void {
    if (this.raf || this.disposed) return;
    this.raf = this.clock.request(() => {
      this.raf = 0;
      this.renderNow();
    });
  }

  /**
   * Renders the current pose now; with the sink busy showing the previous frame, as soon as that is
   * shown instead (the pose may move on meanwhile: the latest one is drawn).
   */
  renderNow(): void {
    if (this.disposed) return;
    // A render already asked for on the next animation frame would draw the same picture again.
    if (this.raf) {
      this.clock.cancel(this.raf);
      this.raf = 0;
    }
    if (this.sink?.busy) {
      this.renderWanted = true;
      this.lastRenderMs = 0;
      return;
    }
    this.renderWanted = false;
    this.lastRenderMs = this.draw();
    this.sink?.submit();
  }

  /**
   * Draws now even with a frame on its way (the drawing buffer is then readable within this task), and
   * shows this picture too: at once, or with a frame in flight, the latest one right after it.
   */
  drawNow(): void {
    this.lastRenderMs = this.draw();
    if (this.sink?.busy) this.renderWanted = true;
    else this.sink?.submit();
  }

  /**
   * Drawing-buffer scale (1 = full resolution; < 1 while playback is too slow, see adaptive-scale.ts).
   * The canvas keeps its CSS size; the browser stretches the smaller image.
   */
  setRenderScale(scale: number): void {
    if (scale === this.renderScale) return;
    this.renderScale = scale;
    // setPixelRatio resizes the drawing buffer itself (to the size last given to setSize); a second
    // setSize would reallocate it again.
    this.renderer.setPixelRatio(this.basePixelRatio * scale);
    this.requestRender();
  }

  get scale(): number {
    return this.renderScale;
  }

  /** How frames reach the screen now: 'page' (no sink), or through the sink 'async' or 'blocking'. */
  get presentation(): 'page' | 'async' | 'blocking' {
    return !this.sink ? 'page' : this.sink.blocking ? 'blocking' : 'async';
  }

  /**
   * Software GL: show each frame as soon as it is drawn, the page waiting for the rasteriser (playback),
   * instead of asynchronously (everything else: drags, orbiting, scrubbing). See AsyncPresenter.blocking.
   */
  setBlocking(on: boolean): void {
    if (this.sink) this.sink.blocking = on;
  }

  /** A frame is still on its way to the screen (software GL): a render now would wait for it. */
  get presenting(): boolean {
    return this.sink?.busy ?? false;
  }

  /** Frames the sink has shown (0 without one). */
  get presentedFrames(): number {
    return this.sink?.presented ?? 0;
  }

  /** Stops rendering: a pending request is dropped, later ones are ignored; the sink is disposed. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.raf) this.clock.cancel(this.raf);
    this.raf = 0;
    this.sink?.dispose();
  }
}
