/**
 * A stand-in for the renderer's fitting worker (renderer/src/fit/fit.worker.ts) in the unit tests, which
 * have no Worker: it records each request and hands it to `onRequest` a macrotask later, as a real
 * worker would answer; `deliver` posts a message back unless it was terminated. Tests make it run the
 * real worker code (fit-worker-core.ts), hold a request, die, or never start.
 */
import type { FitWorkerLike } from '../../renderer/src/fit/fit-client';
import type { FitMessage, FitRequest } from '../../renderer/src/fit/fit-protocol';

export interface FakeFitWorker extends FitWorkerLike {
  terminated: boolean;
  requests: FitRequest[];
  deliver(m: FitMessage): void;
}

export function fakeFitWorker(onRequest: (w: FakeFitWorker, req: FitRequest) => void): FakeFitWorker {
  const w: FakeFitWorker = {
    terminated: false,
    requests: [],
    onmessage: null,
    onerror: null,
    postMessage(req) {
      w.requests.push(req);
      setTimeout(() => {
        if (!w.terminated) onRequest(w, req);
      }, 0);
    },
    terminate() {
      w.terminated = true;
    },
    deliver(m) {
      if (!w.terminated) w.onmessage?.({ data: m } as MessageEvent<FitMessage>);
    },
  };
  return w;
}
