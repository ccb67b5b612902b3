/**
 * The retarget worker: an ES module worker made by retarget-client.ts. It runs one retarget per request
 * (retarget-protocol.ts) off the UI thread; Cancel terminates it.
 */
import { success } from '../../../shared/vmd/errors';
import { writeVmd } from '../../../shared/vmd/vmd-writer';
import { runRetargetTask, type RetargetMessage, type RetargetRequest } from './retarget-protocol';
import { serveJob } from '../workers/job-client';

type RetargetDone = Omit<Extract<RetargetMessage, { type: 'done' }>, 'type' | 'id'>;

interface WorkerScope {
  onmessage: ((e: MessageEvent<RetargetRequest>) => void) | null;
  postMessage(m: RetargetMessage, options?: { transfer: Transferable[] }): void;
}

const scope = self as unknown as WorkerScope;
scope.onmessage = (e) =>
  void serveJob<RetargetDone>(e.data.id, (m, transfer) => scope.postMessage(m as RetargetMessage, { transfer }), (progress) => {
    const r = runRetargetTask(e.data, progress);
    if (!r.ok) return r;
    const bytes = writeVmd(r.value.doc);
    return success({ done: { bytes, details: r.value.details, report: r.value.report }, transfer: [bytes.buffer] });
  });
