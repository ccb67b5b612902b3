/**
 * Runs an IK bake off the UI thread: in the IK-bake worker (ik-bake.worker.ts, messages in ik-bake-protocol.ts),
 * with its progress and Cancel (the worker is terminated; the next run makes a new one). Where no worker can be
 * made or it fails to start (`?ikBakeWorker=off` forces it), the same bake runs on the main thread, so nothing is
 * lost but the responsiveness (and Cancel, which then drops the result when it comes).
 */
import type { IkBakedMotion } from '../../../shared/bake/ik-bake';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import { readVmd } from '../../../shared/vmd/vmd-reader';
import type { IkBakeMessage, IkBakeRequest, IkBakeSettings } from './ik-bake-protocol';
import { modelMotionJob } from '../workers/model-motion-job';
import { JobClient, workerOff, type JobRunCounts, type JobWorkerLike, type RunOutcome } from '../workers/job-client';

export type { IkBakeSettings } from './ik-bake-protocol';

/** A run's outcome: see `RunOutcome`. */
export type IkBakeOutcome = RunOutcome<IkBakedMotion>;

/** The part of a Worker the client uses. */
export type IkBakeWorkerLike = JobWorkerLike<IkBakeRequest, IkBakeMessage>;

/** The IK-bake worker, unless the page has no Worker or says `?ikBakeWorker=off`. */
export function defaultIkBakeWorker(): IkBakeWorkerLike | null {
  if (workerOff('ikBakeWorker')) return null;
  return new Worker(new URL('./ik-bake.worker.ts', import.meta.url), { type: 'module' }) as unknown as IkBakeWorkerLike;
}

/** The per-frame motion's bytes read back (our own writeVmd's: they read; absent if not). */
function perFrameOf(bytes: Uint8Array | undefined): VmdDocument | undefined {
  const r = bytes ? readVmd(bytes) : null;
  return r && r.ok ? r.value : undefined;
}

type IkBakeDone = Omit<Extract<IkBakeMessage, { type: 'done' }>, 'type' | 'id'>;

export class IkBakeClient {
  private readonly jobs: JobClient<IkBakeRequest, IkBakeDone, IkBakeOutcome>;

  constructor(makeWorker: () => IkBakeWorkerLike | null = defaultIkBakeWorker) {
    this.jobs = new JobClient(makeWorker, 'the IK-bake worker');
  }

  get counts(): JobRunCounts {
    return this.jobs.counts;
  }

  /**
   * Bakes the IK of the model whose file bytes are `model` under `motion`. Aborting `signal` terminates the worker
   * and resolves as cancelled. One run at a time: a second run cancels the first.
   */
  run(model: Uint8Array, motion: VmdDocument, settings: IkBakeSettings, onProgress?: (done: number, total: number) => void, signal?: AbortSignal): Promise<IkBakeOutcome> {
    return this.jobs.run(
      modelMotionJob(model, motion, { ...settings, bones: settings.bones ? [...settings.bones] : undefined }, (m: IkBakeDone): Pick<IkBakedMotion, 'report' | 'perFrame'> => ({ report: m.report, perFrame: perFrameOf(m.perFrame) }), async (bytes, progress) => {
        const { ikBakeBytes } = await import('./ik-bake-worker-core');
        return ikBakeBytes(model, bytes, settings, progress);
      }),
      onProgress,
      signal,
    );
  }

  /** Terminates the worker, if any: a running bake stops and resolves as cancelled. */
  stop(): void {
    this.jobs.stop();
  }
}

let shared: IkBakeClient | null = null;

/** The app's IK-bake client (one worker, made on the first run). */
export function ikBakeClient(): IkBakeClient {
  return (shared ??= new IkBakeClient());
}
