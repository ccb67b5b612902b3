/**
 * Showing software-GL frames without stalling the page.
 *
 * Without a GPU (WebGL on SwiftShader or llvmpipe) the browser composites the page in software, so a
 * WebGL canvas in the page is read back into memory inside every frame's commit, on the page's main
 * thread, and that read-back waits until the rasteriser has finished drawing. A Chromium trace showed
 * 6–12 ms of such waiting per drawn frame here (20+ ms when the cores are busy): with a curve-handle drag's
 * own work on top, frames were dropped now and then.
 *
 * AsyncPresenter keeps the WebGL context on an OffscreenCanvas that is never composited and shows its
 * frames on the page's 2D canvas instead. After each render the frame is read into a pixel-pack buffer
 * behind a fence (the GPU process copies it when it gets there); the fence is checked on the next
 * animation frame, and once it has passed, the bytes are copied out and put on the 2D canvas, which costs
 * no GPU wait: the picture appears two frames after it was drawn (measured: median 32 ms from the render
 * call during a curve-handle drag). A new render waits until the previous frame was shown (busy), so a
 * slow rasteriser shows fewer frames instead of queueing them; the caller renders the latest pose when
 * `onPresented` says the way is free. Playback switches to `blocking` (see there).
 *
 * WebGL's rows run bottom-up and putImageData's top-down: the display canvas is flipped with CSS (its
 * layout box, and so every pointer coordinate, stays the same).
 *
 * With a GPU none of this is used: the canvas is composited on the GPU and nothing is read back.
 */

export class AsyncPresenter {
  /** The canvas WebGL draws into (give it to the renderer). */
  readonly glCanvas: OffscreenCanvas;
  private gl: WebGL2RenderingContext | null = null;
  private pbo: WebGLBuffer | null = null;
  private fence: WebGLSync | null = null;
  private image: ImageData | null = null;
  private bytes: Uint8Array | null = null;
  private poller = 0;
  private disposed = false;
  /** Called after a frame was put on the display canvas (or dropped: context lost), with ms since its submit(). */
  onPresented: ((latencyMs: number) => void) | null = null;
  private submittedAt = 0;
  /** Frames put on the display canvas so far. */
  presented = 0;

  private constructor(private readonly display: HTMLCanvasElement, private readonly ctx: CanvasRenderingContext2D) {
    this.glCanvas = new OffscreenCanvas(Math.max(1, display.width), Math.max(1, display.height));
    display.style.transform = 'scaleY(-1)';
  }

  /** A presenter drawing onto `display`, or null where OffscreenCanvas or a 2D context is missing. */
  static create(display: HTMLCanvasElement): AsyncPresenter | null {
    if (typeof OffscreenCanvas === 'undefined' || typeof ImageData === 'undefined') return null;
    const ctx = display.getContext('2d', { alpha: false });
    return ctx ? new AsyncPresenter(display, ctx) : null;
  }

  /** Takes the renderer's WebGL 2 context (created on glCanvas). False when it is not WebGL 2. */
  attach(gl: WebGLRenderingContext | WebGL2RenderingContext): boolean {
    if (typeof WebGL2RenderingContext === 'undefined' || !(gl instanceof WebGL2RenderingContext)) return false;
    this.gl = gl;
    this.pbo = gl.createBuffer();
    return this.pbo !== null;
  }

  /** A frame is on its way to the display canvas: a render now would have to wait for it. */
  get busy(): boolean {
    return this.fence !== null;
  }

  /**
   * Read back and show each frame at once, waiting for the rasteriser (as the browser's own compositing
   * of a page WebGL canvas does). For playback: there the picture is what the user watches, the page can
   * wait for it, and the rasteriser keeps the CPU to itself; asynchronous presenting would add the wait
   * for a poll and the next animation frame to every frame.
   */
  blocking = false;

  /**
   * Queues the read-back of what was just rendered into the drawing buffer (call right after the render,
   * in the same task, before the buffer may be discarded); with `blocking`, reads and shows it now.
   * Does nothing while busy.
   */
  submit(): void {
    const gl = this.gl;
    if (!gl || !this.pbo || this.fence || this.disposed) return;
    const w = gl.drawingBufferWidth, h = gl.drawingBufferHeight;
    if (!this.image || this.image.width !== w || this.image.height !== h) {
      this.image = new ImageData(w, h);
      this.bytes = new Uint8Array(this.image.data.buffer);
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, this.pbo);
      gl.bufferData(gl.PIXEL_PACK_BUFFER, w * h * 4, gl.STREAM_READ);
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
    }
    this.submittedAt = performance.now();
    if (this.blocking) {
      gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, this.bytes);
      this.show();
      return;
    }
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, this.pbo);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, 0);
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
    this.fence = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
    // Send the commands to the GPU process now rather than at the end of the task.
    gl.flush();
    this.schedule();
  }

  /**
   * The fence is checked at the start of each animation frame (WebGL updates its status only between
   * tasks); once it has passed, the picture is shown before that frame's own render (asked for later)
   * draws the next pose. Checking more often would not show it sooner: the page puts the canvas on the
   * screen once per frame anyway.
   */
  private schedule(): void {
    if (!this.poller) this.poller = requestAnimationFrame(this.poll);
  }

  private readonly poll = (): void => {
    this.poller = 0;
    const gl = this.gl;
    const fence = this.fence;
    if (!gl || !fence || this.disposed) return;
    // WebGL reports the fence passed only some 13 ms after the rasteriser finished here (the GPU process
    // notices on its next poll), so a frame drawn in one animation frame is usually shown two later. Not
    // waiting for the fence would show it one frame sooner when it is light, but the read would then
    // wait for the rasteriser whenever it is not, on the page's main thread: 14–40 ms in a measured drag.
    const status = gl.clientWaitSync(fence, 0, 0);
    if (status === gl.TIMEOUT_EXPIRED) return this.schedule();
    gl.deleteSync(fence);
    this.fence = null;
    if (status === gl.WAIT_FAILED || !this.bytes) return this.done();
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, this.pbo);
    gl.getBufferSubData(gl.PIXEL_PACK_BUFFER, 0, this.bytes);
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
    this.show();
  };

  /** Puts the read-back picture on the display canvas. */
  private show(): void {
    const image = this.image;
    if (!image) return this.done();
    const d = this.display;
    // Resizing clears the canvas: only now, with the new picture at hand, so nothing blank is shown.
    if (d.width !== image.width || d.height !== image.height) {
      d.width = image.width;
      d.height = image.height;
    }
    this.ctx.putImageData(image, 0, 0);
    this.presented++;
    this.done();
  }

  private done(): void {
    this.onPresented?.(performance.now() - this.submittedAt);
  }

  dispose(): void {
    this.disposed = true;
    if (this.poller) cancelAnimationFrame(this.poller);
    this.poller = 0;
    const gl = this.gl;
    if (gl && !gl.isContextLost()) {
      if (this.fence) gl.deleteSync(this.fence);
      if (this.pbo) gl.deleteBuffer(this.pbo);
    }
    this.fence = null;
    this.pbo = null;
    this.onPresented = null;
  }
}
