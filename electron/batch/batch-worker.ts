/**
 * Worker-thread entry of the batch engine (bundled to dist/cli/batch-worker.mjs by build/build-node.mjs).
 * workerData carries the operation and its options, prepared once; each message is one TaskSpec and
 * is answered with one TaskResult. The engine sends a worker its next file only after the last result.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { OpOptions } from '../../shared/batch/doc-edits';
import { prepareOp, type PreparedOp } from './ops';
import { runTask, type TaskSpec } from './task';
import type { BatchOp } from '../../shared/batch/types';

const port = parentPort;
if (port) {
  const data = workerData as { op: BatchOp; options: OpOptions };
  let prepared: PreparedOp | null = null;
  let prepError: string | null = null;
  try {
    prepared = prepareOp(data.op, data.options);
  } catch (e) {
    prepError = (e as Error).message;
  }
  port.on('message', (t: TaskSpec) => {
    if (!prepared) {
      port.postMessage({ id: t.id, ok: false, error: { code: 'E_ARGUMENT', message: prepError ?? 'bad options', file: t.input }, bytesIn: 0, ms: 0 });
      return;
    }
    void runTask(prepared, t).then((r) => port.postMessage(r));
  });
}
