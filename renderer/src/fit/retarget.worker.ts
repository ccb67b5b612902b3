/**
 * The retarget worker: an ES module worker made by retarget-client.ts. It runs one retarget per request
 * (retarget-protocol.ts) off the UI thread; Cancel terminates it.
 */
import { writeVmd } from '../../../shared/vmd/vmd-writer';
import { RETARGET_PROGRESS_MS, runRetargetTask, type RetargetMessage, type RetargetRequest } from './retarget-protocol';

interface WorkerScope {
  onmessage: ((e: MessageEvent<RetargetRequest>) => void) | null;
  postMessage(m: RetargetMessage, options?: { transfer: Transferable[] }): void;
}

const scope = self as unknown as WorkerScope;
scope.onmessage = (e) => {
  const req = e.data;
  const id = req.id;
  scope.postMessage({ type: 'started', id });
  let last = 0;
  try {
    const r = runRetargetTask(req, (done, total) => {
      const now = performance.now();
      if (done < total && now - last < RETARGET_PROGRESS_MS) return;
      last = now;
      scope.postMessage({ type: 'progress', id, done, total });
    });
    if (!r.ok) return scope.postMessage({ type: 'failed', id, error: r.error });
    const bytes = writeVmd(r.doc);
    scope.postMessage({ type: 'done', id, bytes, details: r.details, report: r.report }, { transfer: [bytes.buffer] });
  } catch (err) {
    scope.postMessage({ type: 'failed', id, error: { code: 'E_INTERNAL', message: err instanceof Error ? err.message : String(err) } });
  }
};
