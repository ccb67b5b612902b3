/**
 * Runs a physics bake off the UI thread: in the bake worker (bake.worker.ts, messages in bake-protocol.ts),
 * with its progress and Cancel (the worker is terminated; the next run makes a new one). Where no worker can
 * be made or it fails to start (a page from file:// may refuse module workers; `?bakeWorker=off` forces it),
 * the same bake runs on the main thread, so nothing is lost but the responsiveness (and Cancel, which then
 * drops the result when it comes).
 */
import type { PhysicsBakeReport } from '../../../shared/physics/bake';
import type { CodecError } from '../../../shared/vmd/errors';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import { readVmd } from '../../../shared/vmd/vmd-reader';
import { writeVmd } from '../../../shared/vmd/vmd-writer';
import type { BakeMessage, BakeRequest, BakeSettings } from './bake-protocol';

export type { BakeSettings } from './bake-protocol';

export type BakeOutcome =
  | { ok: true; doc: VmdDocument; report: PhysicsBakeReport; via: 'worker' | 'main' }
  | { ok: false; error: CodecError; cancelled?: false }
  | { ok: false; cancelled: true };

export type BakeProgressListener = (done: number, total: number) => void;

/** The part of a Worker the client uses. */
export interface BakeWorkerLike {
  postMessage(m: BakeRequest, transfer: Transferable[]): void;
  terminate(): void;
  onmessage: ((e: MessageEvent<BakeMessage>) => void) | null;
  onerror: ((e: Event) => void) | null;
}

/** The bake worker, unless the page has no Worker or says `?bakeWorker=off`. */
export function defaultBakeWorker(): BakeWorkerLike | null {
  if (typeof Worker === 'undefined') return null;
  if (typeof location !== 'undefined' && new URLSearchParams(location.search).get('bakeWorker') === 'off') return null;
  return new Worker(new URL('./bake.worker.ts', import.meta.url), { type: 'module' }) as unknown as BakeWorkerLike;
}

/** Runs by where they ran, and runs stopped by Cancel (the e2e hook reads them). */
export interface BakeRunCounts {
  worker: number;
  main: number;
  cancelled: number;
  progressMessages: number;
}

const cancelledOutcome = (): BakeOutcome => ({ ok: false, cancelled: true });

export class BakeClient {
  private worker: BakeWorkerLike | null = null;
  private noWorker = false;
  private nextId = 1;
  private inflight: (() => void) | null = null;
  readonly counts: BakeRunCounts = { worker: 0, main: 0, cancelled: 0, progressMessages: 0 };

  constructor(private readonly makeWorker: () => BakeWorkerLike | null = defaultBakeWorker) {}

  /**
   * Bakes `motion` on the model whose file bytes are `model`. Aborting `signal` terminates the worker and
   * resolves as cancelled. One run at a time: a second run cancels the first.
   */
  run(model: Uint8Array, motion: VmdDocument, settings: BakeSettings, onProgress?: BakeProgressListener, signal?: AbortSignal): Promise<BakeOutcome> {
    if (signal?.aborted) return Promise.resolve(cancelledOutcome());
    if (this.inflight) this.stop();
    const w = this.obtain();
    if (!w) return this.runHere(model, motion, settings, onProgress, signal);
    const id = this.nextId++;
    return new Promise<BakeOutcome>((resolve) => {
      let started = false, settled = false;
      const settle = (o: BakeOutcome | Promise<BakeOutcome>) => {
        if (settled) return;
        settled = true;
        if (this.inflight === cancel) this.inflight = null;
        signal?.removeEventListener('abort', onAbort);
        if (this.worker === w) w.onmessage = w.onerror = null;
        resolve(o);
      };
      const cancel = () => settle(cancelledOutcome());
      const onAbort = () => this.stop();
      signal?.addEventListener('abort', onAbort);
      this.inflight = cancel;
      w.onmessage = (e) => {
        const m = e.data;
        if (m.id !== id) return;
        if (m.type === 'started') started = true;
        else if (m.type === 'progress') {
          this.counts.progressMessages++;
          onProgress?.(m.done, m.total);
        } else if (m.type === 'failed') settle({ ok: false, error: m.error });
        else {
          const back = readVmd(m.bytes);
          settle(back.ok ? { ok: true, doc: back.value, report: m.report, via: 'worker' } : { ok: false, error: back.error });
        }
      };
      w.onerror = (e) => {
        (e as Event).preventDefault?.();
        this.inflight = null;
        this.stop();
        if (started) {
          settle({ ok: false, error: { code: 'E_INTERNAL', message: (e as ErrorEvent).message || 'the physics-bake worker stopped' } });
          return;
        }
        // It never started (its script refused): this page has no worker; bake here.
        this.noWorker = true;
        this.counts.worker--;
        settle(this.runHere(model, motion, settings, onProgress, signal));
      };
      this.counts.worker++;
      const bytes = writeVmd(motion);
      // The model's bytes are copied, not transferred: the caller keeps them for the next run.
      w.postMessage({ id, model: model.slice(), motion: bytes, settings: { ...settings } }, [bytes.buffer]);
    });
  }

  /** Terminates the worker, if any: a running bake stops and resolves as cancelled. */
  stop(): void {
    const run = this.inflight;
    this.inflight = null;
    const w = this.worker;
    this.worker = null;
    if (w) {
      w.onmessage = w.onerror = null;
      w.terminate();
    }
    if (run) {
      this.counts.cancelled++;
      run();
    }
  }

  private obtain(): BakeWorkerLike | null {
    if (this.worker || this.noWorker) return this.worker;
    try {
      this.worker = this.makeWorker();
    } catch {
      this.worker = null;
    }
    if (!this.worker) this.noWorker = true;
    return this.worker;
  }

  private async runHere(model: Uint8Array, motion: VmdDocument, settings: BakeSettings, onProgress?: BakeProgressListener, signal?: AbortSignal): Promise<BakeOutcome> {
    this.counts.main++;
    // Let the page draw "Baking…" once (the bake then holds the thread until done).
    await new Promise<void>((r) => (typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => setTimeout(r, 0)) : setTimeout(r, 0)));
    try {
      // Loaded here, on the rare page without a worker: the engine and Bullet's wasm stay out of the page's bundle.
      const [{ bakeBytes }, { webBullet }] = await Promise.all([import('./bake-worker-core'), import('./bullet-web')]);
      const bullet = await webBullet();
      const out = bakeBytes(bullet, model, writeVmd(motion), settings, onProgress);
      if (signal?.aborted) return cancelledOutcome();
      if (!out.ok) return out;
      return { ok: true, doc: out.doc, report: out.report, via: 'main' };
    } catch (e) {
      return { ok: false, error: { code: 'E_INTERNAL', message: e instanceof Error ? e.message : String(e) } };
    }
  }
}

let shared: BakeClient | null = null;

/** The app's bake client (one worker, made on the first run). */
export function bakeClient(): BakeClient {
  return (shared ??= new BakeClient());
}
