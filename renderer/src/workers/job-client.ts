/**
 * One job at a time in a module worker, with its progress and Cancel, and the same job on this thread where no
 * worker can be had: what the fitting, retarget and physics-bake clients share. A worker speaks the protocol
 * below (started, progress, failed, done with the job's own fields); Cancel terminates it (the next job makes a
 * new one). A worker that fails before it says `started` (a page from file:// may refuse module workers, or
 * `?fitWorker=off`) is taken as none: that job and every later one run here, so nothing is lost but the
 * responsiveness (and Cancel on this thread only drops the result when it comes).
 */
import { cancelled, failure, type Cancelled, type CancelledError, type CodecError, type Outcome } from '../../../shared/vmd/errors';

/** What every job worker sends, `Done` being the fields of its result. */
export type JobMessage<Done> =
  | { type: 'started'; id: number }
  | { type: 'progress'; id: number; done: number; total: number }
  | ({ type: 'done'; id: number } & Done)
  | { type: 'failed'; id: number; error: CodecError };

/** The part of a Worker the client uses (tests give a fake). */
export interface JobWorkerLike<Req, Msg> {
  postMessage(m: Req, transfer: Transferable[]): void;
  terminate(): void;
  onmessage: ((e: MessageEvent<Msg>) => void) | null;
  onerror: ((e: Event) => void) | null;
}

export type ProgressListener = (done: number, total: number) => void;
/** A job stopped by Cancel: a failure whose code is `E_CANCELLED` (shared/vmd/errors.ts `cancelled`). */
export type { Cancelled } from '../../../shared/vmd/errors';

/** Where a job ran: in its worker, or on this thread where no worker could start. */
export type JobVia = 'worker' | 'main';

/** A job's outcome for its caller: what it made and where it ran, or its error; cancelled is the failure whose code is `E_CANCELLED`. */
export type RunOutcome<T> = Outcome<T & { via: JobVia }, CodecError | CancelledError>;

/** Runs by where they ran, workers that failed to start, progress messages heard, runs stopped by Cancel. */
export interface JobRunCounts {
  worker: number;
  main: number;
  startFailures: number;
  progressMessages: number;
  cancelled: number;
}

/** Whether the page asks for no worker (`?NAME=off`). */
export function workerOff(param: string): boolean {
  return typeof Worker === 'undefined' || (typeof location !== 'undefined' && new URLSearchParams(location.search).get(param) === 'off');
}

/** Lets the page draw its "working…" state once before a job holds this thread until it is done. */
export function yieldOneFrame(): Promise<void> {
  return new Promise<void>((r) => (typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => setTimeout(r, 0)) : setTimeout(r, 0)));
}

/** One job as the client runs it: the message to send, how a `done` message reads, and the job on this thread. */
export interface Job<Req, Done, Out> {
  request(id: number): { message: Req; transfer: Transferable[] };
  done(m: { type: 'done'; id: number } & Done): Out;
  /** The same job on this thread (after yieldOneFrame; its own errors caught). */
  here(onProgress?: ProgressListener): Promise<Out> | Out;
}

export class JobClient<Req, Done, Out extends { ok: boolean }> {
  private worker: JobWorkerLike<Req, JobMessage<Done>> | null = null;
  /** No worker can be had here: every later job goes to this thread at once. */
  private noWorker = false;
  private nextId = 1;
  /** Cancels the job in flight on the worker (it settles as cancelled). */
  private inflight: (() => void) | null = null;
  readonly counts: JobRunCounts = { worker: 0, main: 0, startFailures: 0, progressMessages: 0, cancelled: 0 };

  /** `what` names the worker in an error ("the fitting worker stopped"). */
  constructor(
    private readonly makeWorker: () => JobWorkerLike<Req, JobMessage<Done>> | null,
    private readonly what: string,
  ) {}

  /** Runs `job`; aborting `signal` terminates the worker and resolves as cancelled. A second job cancels the first. */
  run(job: Job<Req, Done, Out>, onProgress?: ProgressListener, signal?: AbortSignal): Promise<Out | Cancelled> {
    if (signal?.aborted) return Promise.resolve(cancelled());
    if (this.inflight) this.stop();
    const w = this.obtain();
    if (!w) return this.runHere(job, onProgress, signal);
    const { message, transfer } = job.request(this.nextId++);
    const id = (message as { id: number }).id;
    return new Promise<Out | Cancelled>((resolve) => {
      let started = false, settled = false;
      const settle = (o: Out | Cancelled | Promise<Out | Cancelled>) => {
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
        } else if (m.type === 'failed') settle(failure(m.error) as unknown as Out);
        else settle(job.done(m));
      };
      w.onerror = (e) => {
        (e as Event).preventDefault?.();
        this.inflight = null;
        this.stop();
        if (started) {
          settle(failure({ code: 'E_INTERNAL', message: (e as ErrorEvent).message || `${this.what} stopped` }) as unknown as Out);
          return;
        }
        // It never started (its script refused or missing): this page has no worker; run here.
        this.noWorker = true;
        this.counts.startFailures++;
        this.counts.worker--;
        settle(this.runHere(job, onProgress, signal));
      };
      this.counts.worker++;
      w.postMessage(message, transfer);
    });
  }

  /** Terminates the worker, if any: a running job stops and resolves as cancelled; the next job makes a new one. */
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

  private obtain(): JobWorkerLike<Req, JobMessage<Done>> | null {
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

  private async runHere(job: Job<Req, Done, Out>, onProgress?: ProgressListener, signal?: AbortSignal): Promise<Out | Cancelled> {
    this.counts.main++;
    await yieldOneFrame();
    let out: Out;
    try {
      out = await job.here(onProgress);
    } catch (e) {
      out = failure({ code: 'E_INTERNAL', message: e instanceof Error ? e.message : String(e) }) as unknown as Out;
    }
    return signal?.aborted ? cancelled() : out;
  }
}

/** A worker's post, transferring the listed buffers. */
export type PostJob<Done> = (m: JobMessage<Done>, transfer: Transferable[]) => void;

/** How often a worker tells its progress at most (the last step always). */
export const JOB_PROGRESS_MS = 50;

/**
 * The worker's side of one job: `started`, then the work with its progress told at most every JOB_PROGRESS_MS
 * (by `now`), then `done` with the result's fields (its buffers transferred) or `failed`. A throw is answered as
 * `failed` with E_INTERNAL: nothing is thrown back at the worker.
 */
export function serveJob<Done>(
  id: number,
  post: PostJob<Done>,
  work: (progress: ProgressListener) => Promise<JobResult<Done>> | JobResult<Done>,
  now: () => number = () => performance.now(),
): void | Promise<void> {
  post({ type: 'started', id }, []);
  let last = -Infinity;
  const progress: ProgressListener = (done, total) => {
    const t = now();
    if (done < total && t - last < JOB_PROGRESS_MS) return;
    last = t;
    post({ type: 'progress', id, done, total }, []);
  };
  const fail = (e: unknown) => post({ type: 'failed', id, error: { code: 'E_INTERNAL', message: e instanceof Error ? e.message : String(e) } }, []);
  const finish = (out: JobResult<Done>) => {
    if (!out.ok) post({ type: 'failed', id, error: out.error }, []);
    else post({ type: 'done', id, ...out.value.done } as JobMessage<Done>, out.value.transfer);
  };
  try {
    const out = work(progress);
    // A synchronous job answers before serveJob returns (the fitting worker's tests rely on it).
    if (out instanceof Promise) return out.then(finish, fail);
    finish(out);
  } catch (e) {
    fail(e);
  }
}

/** What a worker's work gives serveJob: the `done` message's fields and the buffers to transfer, or an error. */
export type JobResult<Done> = Outcome<{ done: Done; transfer: Transferable[] }>;
