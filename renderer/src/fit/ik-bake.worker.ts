/**
 * The IK-bake worker: an ES module worker made by ik-bake-client.ts. It runs one IK bake per request
 * (ik-bake-worker-core.ts) off the UI thread; Cancel terminates it.
 */
import { handleIkBakeRequest } from './ik-bake-worker-core';
import type { IkBakeMessage, IkBakeRequest } from './ik-bake-protocol';

/** The part of a dedicated worker's global scope used here (the renderer's types are the page's). */
interface WorkerScope {
  onmessage: ((e: MessageEvent<IkBakeRequest>) => void) | null;
  postMessage(m: IkBakeMessage, options: { transfer: Transferable[] }): void;
}

const scope = self as unknown as WorkerScope;
scope.onmessage = (e) => void handleIkBakeRequest(e.data, (m, transfer) => scope.postMessage(m, { transfer }));
