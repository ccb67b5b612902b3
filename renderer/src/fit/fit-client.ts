/**
 * Runs a fitting edit (Reduce, Bake, Speed with refit; Simplify on selected keys, `runSimplify`) off the UI thread: in the fitting worker
 * (fit.worker.ts, messages in fit-protocol.ts), with its progress track by track and Cancel (the worker
 * is terminated; the next run makes a new one). Where no worker can be made or it fails to start (a
 * page from file:// may refuse module workers; `?fitWorker=off` forces it, for tests and measurement),
 * the same edit runs on the main thread as before, so nothing is lost but the responsiveness.
 */
import type { OpOptions } from '../../../shared/batch/options';
import type { EditReport } from '../../../shared/edit-core/report';
import type { CodecError } from '../../../shared/vmd/errors';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import { readVmd } from '../../../shared/vmd/vmd-reader';
import { writeVmd } from '../../../shared/vmd/vmd-writer';
import type { Tolerances } from '../../../shared/fit/motion-fit';
import type { SelectedKey } from '../../../shared/fit/simplify';
import type { FitMessage, FitOp, FitRequest, FitTask } from './fit-protocol';
import { taskEdit } from './fit-worker-core';

export type { FitOp } from './fit-protocol';

/** A run's outcome: the edit's result (and where it ran), its error, or cancelled. */
export type FitOutcome =
  | { ok: true; doc: VmdDocument; report: EditReport; via: 'worker' | 'main' }
  | { ok: false; error: CodecError; cancelled?: false }
  | { ok: false; cancelled: true };

export type FitProgressListener = (done: number, total: number) => void;

/** The part of a Worker the client uses (tests give a fake). */
export interface FitWorkerLike {
  postMessage(m: FitRequest, transfer: Transferable[]): void;
  terminate(): void;
  onmessage: ((e: MessageEvent<FitMessage>) => void) | null;
  onerror: ((e: Event) => void) | null;
}

/** Makes a worker, or null where there is none to make; may throw (a refused worker). */
export type FitWorkerFactory = () => FitWorkerLike | null;

/** The fitting worker, unless the page has no Worker or says `?fitWorker=off`. */
export function defaultFitWorker(): FitWorkerLike | null {
  if (typeof Worker === 'undefined') return null;
  if (typeof location !== 'undefined' && new URLSearchParams(location.search).get('fitWorker') === 'off') return null;
  return new Worker(new URL('./fit.worker.ts', import.meta.url), { type: 'module' }) as unknown as FitWorkerLike;
}

/** The task on this thread, after letting the page draw "Fitting…" once (it holds the thread until done). */
async function fitHere(task: FitTask, doc: VmdDocument, onProgress?: FitProgressListener): Promise<FitOutcome> {
  if (typeof requestAnimationFrame === 'function') await new Promise<void>((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  else await new Promise<void>((r) => setTimeout(r, 0));
  try {
    const t = taskEdit(task);
    if (!t.ok) return t;
    const out = t.edit(doc, onProgress);
    return out.ok ? { ...out, via: 'main' } : out;
  } catch (e) {
    return { ok: false, error: { code: 'E_INTERNAL', message: e instanceof Error ? e.message : String(e) } };
  }
}

const cancelled = (): FitOutcome => ({ ok: false, cancelled: true });

/** Counts of runs by where they ran (the e2e hook reads them: Apply after Preview must not run again). */
export interface FitRunCounts {
  worker: number;
  main: number;
  /** Workers that failed to start (each then ran on the main thread). */
  startFailures: number;
  progressMessages: number;
  /** Runs in the worker stopped by Cancel (the worker terminated). */
  cancelled: number;
}

export class FitClient {
  private worker: FitWorkerLike | null = null;
  /** No worker can be had here: every later run goes to the main thread at once. */
  private noWorker = false;
  private nextId = 1;
  /** Cancels the run in flight on the worker (it settles as cancelled). */
  private inflight: (() => void) | null = null;
  readonly counts: FitRunCounts = { worker: 0, main: 0, startFailures: 0, progressMessages: 0, cancelled: 0 };

  constructor(private readonly makeWorker: FitWorkerFactory = defaultFitWorker) {}

  /**
   * Runs `op` with `options` on `doc`; `onProgress(done, total)` hears the tracks fitted. Aborting
   * `signal` terminates the worker and resolves as cancelled (on the main thread the run cannot be
   * stopped: its result is dropped). One run at a time: a second run while one goes cancels the first.
   */
  run(op: FitOp, options: OpOptions, doc: VmdDocument, onProgress?: FitProgressListener, signal?: AbortSignal): Promise<FitOutcome> {
    return this.runTask({ op, options: { ...options } }, doc, onProgress, signal);
  }

  /**
   * Simplify on `keys` of `doc` with these tolerances (renderer/src/fit/simplify-edit.ts: the edit and
   * its errors played back over the selected tracks and span, in the report), as `run` does it.
   */
  runSimplify(keys: readonly SelectedKey[], tol: Partial<Tolerances>, doc: VmdDocument, onProgress?: FitProgressListener, signal?: AbortSignal): Promise<FitOutcome> {
    const plain = keys.map((k) => ({ kind: k.kind, record: k.record }));
    return this.runTask({ op: 'simplify', keys: plain, tol: { ...tol } }, doc, onProgress, signal);
  }

  private runTask(task: FitTask, doc: VmdDocument, onProgress?: FitProgressListener, signal?: AbortSignal): Promise<FitOutcome> {
    if (signal?.aborted) return Promise.resolve(cancelled());
    if (this.inflight) this.stop();
    const w = this.obtain();
    if (!w) return this.runHere(task, doc, onProgress, signal);
    const id = this.nextId++;
    return new Promise<FitOutcome>((resolve) => {
      let started = false;
      let settled = false;
      const settle = (o: FitOutcome | Promise<FitOutcome>) => {
        if (settled) return;
        settled = true;
        if (this.inflight === cancel) this.inflight = null;
        signal?.removeEventListener('abort', onAbort);
        if (this.worker === w) w.onmessage = w.onerror = null;
        resolve(o);
      };
      const cancel = () => settle(cancelled());
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
          const message = (e as ErrorEvent).message || 'the fitting worker stopped';
          settle({ ok: false, error: { code: 'E_INTERNAL', message } });
          return;
        }
        // It never started (its script refused or missing): this page has no worker; fit here.
        this.noWorker = true;
        this.counts.startFailures++;
        this.counts.worker--;
        settle(this.runHere(task, doc, onProgress, signal));
      };
      this.counts.worker++;
      const bytes = writeVmd(doc);
      w.postMessage({ ...task, id, bytes }, [bytes.buffer]);
    });
  }

  /** Terminates the worker, if any: a running fit stops and resolves as cancelled; the next run makes a new one. */
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

  private obtain(): FitWorkerLike | null {
    if (this.worker || this.noWorker) return this.worker;
    try {
      this.worker = this.makeWorker();
    } catch {
      this.counts.startFailures++;
      this.worker = null;
    }
    if (!this.worker) this.noWorker = true;
    return this.worker;
  }

  private async runHere(task: FitTask, doc: VmdDocument, onProgress?: FitProgressListener, signal?: AbortSignal): Promise<FitOutcome> {
    this.counts.main++;
    const out = await fitHere(task, doc, onProgress);
    return signal?.aborted ? cancelled() : out;
  }
}

let shared: FitClient | null = null;

/** The app's fitting client (one worker, made on the first run). */
export function fitClient(): FitClient {
  return (shared ??= new FitClient());
}

/** Replaces the app's fitting client (tests give one with a fake worker); null: the next use makes the default. */
export function setFitClient(c: FitClient | null): void {
  shared?.stop();
  shared = c;
}

/** Runs a fitting edit through the app's client (see FitClient.run). */
export function runFit(op: FitOp, options: OpOptions, doc: VmdDocument, onProgress?: FitProgressListener, signal?: AbortSignal): Promise<FitOutcome> {
  return fitClient().run(op, options, doc, onProgress, signal);
}
