/**
 * The video export's frame source (export/video-export.ts) over the preview's scene: its own WebGL
 * renderer on a canvas of the output's size, outside the page, drawing the same three.js scene (each
 * renderer uploads what it draws to its own context). `advanceTo` is PreviewEngine.advanceOffline, the
 * seam where a physics world steps; `draw` renders through the scene's camera with outlines and
 * without the editor's marks, with the grid and background the dialog chose (the preview keeps its own). Disposing gives the context back and puts the preview at its frame again.
 */
import * as THREE from 'three';
import type { FrameSource } from '../export/video-export';
import type { FrameLook, VideoSimulation } from '../stores/video-export';
import type { PreviewEngine } from './preview-engine';

/** Warm-up frames simulated between two looks at the page (progress, Cancel). */
const WARM_UP_SLICE = 30;

export class OfflineFrameSource implements FrameSource {
  readonly canvas: HTMLCanvasElement;
  private readonly renderer: THREE.WebGLRenderer;
  private readonly resumeAt: number;
  /** The preview's own Physics and Self-shadow switches, put back after the render. */
  private readonly physicsWas: boolean;
  private readonly selfShadowWas: boolean;
  /** Physics warmed up from frame 0 to this frame before the first (0: a restart at the range's first frame). */
  private readonly warmUpTo: number;

  constructor(
    private readonly engine: PreviewEngine,
    readonly width: number,
    readonly height: number,
    private readonly throughCamera: boolean,
    private readonly look: FrameLook = { grid: false, background: '#ffffff' },
    sim: VideoSimulation | null = null,
  ) {
    this.resumeAt = engine.currentFrame;
    // No paused physics step (Always, a pose's tail) runs between the export's frames: it would step their world.
    engine.holdIdle(true);
    this.physicsWas = engine.physics.enabled;
    this.selfShadowWas = engine.selfShadowByDefault;
    this.warmUpTo = sim?.physics && sim.warmUpTo ? Math.floor(sim.warmUpTo) : 0;
    // The dialog's Physics and Self-shadow, not the preview's switches (physics was off in every video of a user
    // who never ticked the preview's box, though MMD renders with physics on).
    if (sim) {
      engine.setPhysics(sim.physics);
      engine.setSelfShadowByDefault(sim.selfShadow);
    }
    this.canvas = document.createElement('canvas');
    this.canvas.width = width;
    this.canvas.height = height;
    // preserveDrawingBuffer: the encoder reads the canvas after the render call returns.
    this.renderer = new THREE.WebGLRenderer({ canvas: this.canvas, antialias: !engine.software, alpha: false, stencil: false, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(1);
    this.renderer.setSize(width, height, false);
    this.renderer.shadowMap.enabled = true;
    this.renderer.outputColorSpace = THREE.SRGBColorSpace;
  }

  /**
   * Physics ready to step (Bullet loaded the first time the dialog's Physics turns it on); then, where the video
   * warms physics up from frame 0 (as the bake does by default), every frame before the range's first simulated
   * as playing from 0 would (a restart at 0, one step a frame), none drawn: the first frame's hair is where the
   * dance has swung it, the same as in a render from frame 0. In slices, so the page answers and Cancel stops it.
   */
  async ready(signal?: AbortSignal, onWarmUp?: (done: number, total: number) => void): Promise<void> {
    await this.engine.physics.whenReady();
    const to = this.warmUpTo;
    // No actor drawn with rigid bodies: nothing to warm up.
    if (to <= 0 || this.engine.physics.withBodies().length === 0) return;
    onWarmUp?.(0, to);
    this.engine.advanceOffline(0, true);
    for (let f = 1; f < to; f++) {
      if (f % WARM_UP_SLICE === 0) {
        onWarmUp?.(f, to);
        await new Promise((r) => setTimeout(r, 0));
        if (signal?.aborted) return;
      }
      this.engine.advanceOffline(f);
    }
    onWarmUp?.(to, to);
    // The range's first frame is the next step, not a restart.
    this.first = false;
  }

  /** The first frame asked for starts the range: physics restarts there (frame-exact exports). */
  private first = true;

  advanceTo(f: number): void {
    this.engine.advanceOffline(f, this.first);
    this.first = false;
  }

  draw(): void {
    this.engine.drawOffline(this.renderer, this.width, this.height, this.throughCamera, this.look);
  }

  /** The drawn picture's pixels (RGBA), rows bottom first as WebGL reads them: the video's frames are made from these. */
  pixelsBottomUp(): Uint8Array {
    const gl = this.renderer.getContext();
    const out = (this.pixels ??= new Uint8Array(4 * this.width * this.height));
    gl.readPixels(0, 0, this.width, this.height, gl.RGBA, gl.UNSIGNED_BYTE, out);
    return out;
  }

  private pixels: Uint8Array | null = null;

  /** The drawn picture's pixels (RGBA, rows top first), for tests and previews. */
  readPixels(): Uint8Array {
    const out = this.pixelsBottomUp();
    const row = 4 * this.width, flipped = new Uint8Array(out.length);
    for (let y = 0; y < this.height; y++) flipped.set(out.subarray((this.height - 1 - y) * row, (this.height - y) * row), y * row);
    return flipped;
  }

  dispose(): void {
    this.renderer.dispose();
    this.renderer.forceContextLoss();
    this.engine.setPhysics(this.physicsWas);
    this.engine.setSelfShadowByDefault(this.selfShadowWas);
    this.engine.setFrame(this.resumeAt);
    this.engine.holdIdle(false);
  }
}
