/**
 * Runs a physics bake off the UI thread: in the bake worker (bake.worker.ts, messages in bake-protocol.ts),
 * with its progress and Cancel (the worker is terminated; the next run makes a new one). Where no worker can
 * be made or it fails to start (a page from file:// may refuse module workers; `?bakeWorker=off` forces it),
 * the same bake runs on the main thread, so nothing is lost but the responsiveness (and Cancel, which then
 * drops the result when it comes).
 */
import type { PhysicsBakedMotion } from '../../../shared/physics/bake';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import type { BakeMessage, BakeRequest, BakeSettings } from './bake-protocol';
import { modelMotionJob } from '../workers/model-motion-job';
import { JobClient, workerOff, type JobRunCounts, type JobVia, type JobWorkerLike, type RunOutcome } from '../workers/job-client';

export type { BakeSettings } from './bake-protocol';

/** A bake's success: the baked motion, its report, the baked bones one can see, and where it ran. */
export type BakedRun = PhysicsBakedMotion & { seen: string[]; via: JobVia };

/** A run's outcome: see `RunOutcome`. */
export type BakeOutcome = RunOutcome<PhysicsBakedMotion & { seen: string[] }>;

export type BakeProgressListener = (done: number, total: number) => void;

/** The part of a Worker the client uses. */
export type BakeWorkerLike = JobWorkerLike<BakeRequest, BakeMessage>;

/** The bake worker, unless the page has no Worker or says `?bakeWorker=off`. */
export function defaultBakeWorker(): BakeWorkerLike | null {
  if (workerOff('bakeWorker')) return null;
  return new Worker(new URL('./bake.worker.ts', import.meta.url), { type: 'module' }) as unknown as BakeWorkerLike;
}

/** Runs by where they ran, and runs stopped by Cancel (the e2e hook reads them). */
export type BakeRunCounts = JobRunCounts;

type BakeDone = Omit<Extract<BakeMessage, { type: 'done' }>, 'type' | 'id'>;

export class BakeClient {
  private readonly jobs: JobClient<BakeRequest, BakeDone, BakeOutcome>;

  constructor(makeWorker: () => BakeWorkerLike | null = defaultBakeWorker) {
    this.jobs = new JobClient(makeWorker, 'the physics-bake worker');
  }

  get counts(): BakeRunCounts {
    return this.jobs.counts;
  }

  /**
   * Bakes `motion` on the model whose file bytes are `model`. Aborting `signal` terminates the worker and
   * resolves as cancelled. One run at a time: a second run cancels the first.
   */
  run(model: Uint8Array, motion: VmdDocument, settings: BakeSettings, onProgress?: BakeProgressListener, signal?: AbortSignal): Promise<BakeOutcome> {
    return this.jobs.run(
      modelMotionJob(model, motion, { ...settings }, (m: BakeDone) => ({ report: m.report, seen: m.seen }), async (bytes, progress) => {
        // Loaded here, on the rare page without a worker: the engine and Bullet's wasm stay out of the page's bundle.
        const [{ bakeBytes }, { webBullet }] = await Promise.all([import('./bake-worker-core'), import('./bullet-web')]);
        return bakeBytes(await webBullet(), model, bytes, settings, progress);
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

let shared: BakeClient | null = null;

/** The app's bake client (one worker, made on the first run). */
export function bakeClient(): BakeClient {
  return (shared ??= new BakeClient());
}
