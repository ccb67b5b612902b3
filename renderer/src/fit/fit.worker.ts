/**
 * The fitting worker: an ES module worker (vite.config.ts `worker.format`) made by fit-client.ts. It
 * runs one fitting edit per request (fit-worker-core.ts) off the UI thread; Cancel terminates it.
 */
import { handleFitRequest } from './fit-worker-core';
import type { FitMessage, FitRequest } from './fit-protocol';

/** The part of a dedicated worker's global scope used here (the renderer's types are the page's). */
interface WorkerScope {
  onmessage: ((e: MessageEvent<FitRequest>) => void) | null;
  postMessage(m: FitMessage, options: { transfer: Transferable[] }): void;
}

const scope = self as unknown as WorkerScope;
scope.onmessage = (e) => handleFitRequest(e.data, (m, transfer) => scope.postMessage(m, { transfer }));
