/**
 * Runs a retarget off the UI thread: in the retarget worker (retarget.worker.ts, messages in
 * retarget-protocol.ts), with its progress and Cancel (the worker is terminated; the next run makes a
 * new one). Where no worker can be made or it fails to start (`?fitWorker=off` forces that, as for the
 * fitting worker), the same retarget runs on the main thread, so nothing is lost but the responsiveness.
 */
import { readVmd } from '../../../shared/vmd/vmd-reader';
import { runRetargetTask, type RetargetMessage, type RetargetRequest, type RetargetRun, type RetargetTask } from './retarget-protocol';

export type { RetargetTask, RetargetRun } from './retarget-protocol';

/** A run's outcome: the retarget's result (and where it ran), or cancelled. */
export type RetargetOutcome = (RetargetRun & { via?: 'worker' | 'main' }) | { ok: false; cancelled: true };

/** The part of a Worker the client uses. */
interface WorkerLike {
  postMessage(m: RetargetRequest, transfer: Transferable[]): void;
  terminate(): void;
  onmessage: ((e: MessageEvent<RetargetMessage>) => void) | null;
  onerror: ((e: Event) => void) | null;
}

function makeWorker(): WorkerLike | null {
  if (typeof Worker === 'undefined') return null;
  if (typeof location !== 'undefined' && new URLSearchParams(location.search).get('fitWorker') === 'off') return null;
  return new Worker(new URL('./retarget.worker.ts', import.meta.url), { type: 'module' }) as unknown as WorkerLike;
}

const cancelled = (): RetargetOutcome => ({ ok: false, cancelled: true });

async function runHere(task: RetargetTask, onProgress?: (done: number, total: number) => void, signal?: AbortSignal): Promise<RetargetOutcome> {
  // Let the page draw "Fitting…" once: the run holds the thread until it is done.
  await new Promise<void>((r) => (typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => setTimeout(r, 0)) : setTimeout(r, 0)));
  if (signal?.aborted) return cancelled();
  let out: RetargetRun;
  try {
    out = runRetargetTask(task, onProgress);
  } catch (e) {
    out = { ok: false, error: { code: 'E_INTERNAL', message: e instanceof Error ? e.message : String(e) } };
  }
  return signal?.aborted ? cancelled() : { ...out, via: 'main' };
}

let nextId = 1;

/**
 * Retargets `task` (its byte arrays are transferred to the worker: the caller hands copies it no longer
 * needs); `onProgress(done, total)` hears the computed tracks fitted. Aborting `signal` terminates the
 * worker and resolves as cancelled.
 */
export function runRetarget(task: RetargetTask, onProgress?: (done: number, total: number) => void, signal?: AbortSignal): Promise<RetargetOutcome> {
  if (signal?.aborted) return Promise.resolve(cancelled());
  let w: WorkerLike | null = null;
  try {
    w = makeWorker();
  } catch {
    w = null;
  }
  if (!w) return runHere(task, onProgress, signal);
  const worker = w;
  const id = nextId++;
  return new Promise<RetargetOutcome>((resolve) => {
    let started = false;
    let settled = false;
    const settle = (o: RetargetOutcome | Promise<RetargetOutcome>) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      worker.onmessage = worker.onerror = null;
      worker.terminate();
      resolve(o);
    };
    const onAbort = () => settle(cancelled());
    signal?.addEventListener('abort', onAbort);
    worker.onmessage = (e) => {
      const m = e.data;
      if (m.id !== id) return;
      if (m.type === 'started') started = true;
      else if (m.type === 'progress') onProgress?.(m.done, m.total);
      else if (m.type === 'failed') settle({ ok: false, error: m.error });
      else {
        const back = readVmd(m.bytes);
        settle(back.ok ? { ok: true, doc: back.value, details: m.details, report: m.report, via: 'worker' } : { ok: false, error: back.error });
      }
    };
    worker.onerror = (e) => {
      (e as Event).preventDefault?.();
      // A worker that never started (its script refused): run here instead; one that failed while running says why.
      if (!started) settle(runHere(task, onProgress, signal));
      else settle({ ok: false, error: { code: 'E_INTERNAL', message: (e as ErrorEvent).message || 'the retarget worker stopped' } });
    };
    // Copies go to the worker: the task's arrays stay usable for a run on this thread after a failed start.
    const motion = task.motion.slice(), source = task.source.slice(), target = task.target.slice();
    worker.postMessage({ ...task, motion, source, target, id }, [motion.buffer, source.buffer, target.buffer]);
  });
}
