/** The one place the app links the batch engine (electron/batch/engine.ts), for main and the browser-mode server. */
import { runBatch as engineRunBatch } from '../batch/engine';
import type { RunBatch } from './batch-service';

export const runBatch: RunBatch = (job, opts) => engineRunBatch(job, opts);
