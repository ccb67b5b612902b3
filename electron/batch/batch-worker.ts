/**
 * Worker-thread entry of the batch engine (bundled to dist/cli/batch-worker.mjs by build/build-node.mjs).
 * workerData carries the operation and its options, prepared once; each message is one TaskSpec and
 * is answered with one TaskResult. The engine sends a worker its next file only after the last result.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { OpOptions } from '../../shared/batch/doc-edits';
import { prepareOp } from './ops';
import { runTask, type TaskSpec } from './task';
import type { BatchOp } from '../../shared/batch/types';

const port = parentPort;
if (port) {
  const data = workerData as { op: BatchOp; options: OpOptions };
  const p = prepareOp(data.op, data.options);
  port.on('message', (t: TaskSpec) => {
    if (!p.ok) {
      // The engine checked the options before starting workers; this answers a worker started without it.
      port.postMessage({ id: t.id, ok: false, error: { ...p.error, file: t.input }, bytesIn: 0, ms: 0 });
      return;
    }
    void runTask(p.value, t).then((r) => port.postMessage(r));
  });
}
