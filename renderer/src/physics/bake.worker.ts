/**
 * The physics-bake worker: an ES module worker made by bake-client.ts. It loads Bullet's wasm once
 * (bullet-web.ts) and runs one bake per request (bake-worker-core.ts) off the UI thread; Cancel terminates it.
 */
import { handleBakeRequest } from './bake-worker-core';
import { webBullet } from './bullet-web';
import type { BakeMessage, BakeRequest } from './bake-protocol';

/** The part of a dedicated worker's global scope used here (the renderer's types are the page's). */
interface WorkerScope {
  onmessage: ((e: MessageEvent<BakeRequest>) => void) | null;
  postMessage(m: BakeMessage, options: { transfer: Transferable[] }): void;
}

const scope = self as unknown as WorkerScope;
scope.onmessage = (e) => void handleBakeRequest(e.data, webBullet, (m, transfer) => scope.postMessage(m, { transfer }));
