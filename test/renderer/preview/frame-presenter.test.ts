// Render requests, render scale and software-GL presentation (renderer/src/preview/frame-presenter.ts)
// with a fake animation-frame clock, a fake renderer and a fake AsyncPresenter (the sink).
import { describe, expect, it } from 'vitest';
import { FramePresenter, type FrameClock, type FrameSink } from '../../../renderer/src/preview/frame-presenter';

/** Animation frames run only when the test says so. */
function fakeClock() {
  const pending = new Map<number, () => void>();
  let next = 1;
  const clock: FrameClock = {
    request: (cb) => {
      pending.set(next, cb);
      return next++;
    },
    cancel: (id) => void pending.delete(id),
  };
  const tick = () => {
    const cbs = [...pending.values()];
    pending.clear();
    cbs.forEach((cb) => cb());
  };
  return { clock, pending, tick };
}

/** A sink that is busy from submit() until the test calls show(). */
function fakeSink() {
  const sink = {
    busy: false,
    blocking: false,
    presented: 0,
    submits: 0,
    disposed: false,
    onPresented: null as ((latencyMs: number) => void) | null,
    submit() {
      this.submits++;
      this.busy = true;
    },
    dispose() {
      this.disposed = true;
    },
    show(latency: number) {
      this.busy = false;
      this.presented++;
      this.onPresented?.(latency);
    },
  };
  return sink satisfies FrameSink;
}

function setup(withSink: boolean) {
  const ratios: number[] = [];
  const latencies: number[] = [];
  let draws = 0;
  const { clock, pending, tick } = fakeClock();
  const sink = withSink ? fakeSink() : null;
  const p = new FramePresenter({ setPixelRatio: (r) => ratios.push(r) }, 2, sink, () => (++draws, 4), (l) => latencies.push(l), clock);
  return { p, sink, ratios, latencies, pending, tick, draws: () => draws };
}

describe('FramePresenter', () => {
  it('coalesces render requests onto one animation frame', () => {
    const t = setup(false);
    t.p.requestRender();
    t.p.requestRender();
    expect(t.pending.size).toBe(1);
    expect(t.draws()).toBe(0);
    t.tick();
    expect(t.draws()).toBe(1);
    expect(t.p.lastRenderMs).toBe(4);
    t.p.requestRender();
    t.tick();
    expect(t.draws()).toBe(2);
  });

  it('renderNow draws at once and drops the request already queued for the same picture', () => {
    const t = setup(false);
    t.p.requestRender();
    t.p.renderNow();
    expect(t.draws()).toBe(1);
    expect(t.pending.size).toBe(0);
  });

  it('with a frame on its way, waits and draws the latest pose as soon as that frame is shown', () => {
    const t = setup(true);
    t.p.renderNow();
    expect([t.draws(), t.sink!.submits, t.p.presenting]).toEqual([1, 1, true]);
    t.p.renderNow();
    t.p.renderNow();
    expect(t.draws()).toBe(1);
    expect(t.p.lastRenderMs).toBe(0);
    t.sink!.show(32);
    expect([t.draws(), t.sink!.submits]).toEqual([2, 2]);
    expect(t.latencies).toEqual([32]);
    // Shown with nothing asked for meanwhile: no extra render.
    t.sink!.show(30);
    expect(t.draws()).toBe(2);
    expect(t.p.presentedFrames).toBe(2);
  });

  it('drawNow draws even with a frame on its way and shows that picture right after it', () => {
    const t = setup(true);
    t.p.renderNow();
    t.p.drawNow();
    expect([t.draws(), t.sink!.submits]).toEqual([2, 1]);
    t.sink!.show(10);
    expect([t.draws(), t.sink!.submits]).toEqual([3, 2]);
  });

  it('scales the drawing buffer from the base pixel ratio and asks for a render; the same scale again does nothing', () => {
    const t = setup(false);
    t.p.setRenderScale(0.5);
    expect(t.ratios).toEqual([1]);
    expect(t.p.scale).toBe(0.5);
    expect(t.pending.size).toBe(1);
    t.tick();
    t.p.setRenderScale(0.5);
    expect(t.ratios).toEqual([1]);
    expect(t.pending.size).toBe(0);
    t.p.setRenderScale(1);
    expect(t.ratios).toEqual([1, 2]);
  });

  it("says how frames reach the screen: 'page' without a sink, else 'async' or 'blocking' (playback)", () => {
    expect(setup(false).p.presentation).toBe('page');
    const t = setup(true);
    expect(t.p.presentation).toBe('async');
    t.p.setBlocking(true);
    expect([t.p.presentation, t.sink!.blocking]).toEqual(['blocking', true]);
    t.p.setBlocking(false);
    expect(t.p.presentation).toBe('async');
  });

  it('after dispose draws nothing: the queued request is dropped, new ones ignored, the sink disposed', () => {
    const t = setup(true);
    t.p.requestRender();
    t.p.dispose();
    expect(t.pending.size).toBe(0);
    t.p.requestRender();
    t.p.renderNow();
    t.tick();
    expect(t.draws()).toBe(0);
    expect(t.sink!.disposed).toBe(true);
  });
});
