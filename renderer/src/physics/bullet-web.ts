/**
 * Bullet's wasm bytes in the renderer (the preview's physics, the editor's bake worker): the file vite bundles
 * from babylon-mmd's package, fetched by its URL. One loader for the page and its workers.
 */
import wasmUrl from 'babylon-mmd/esm/Runtime/Optimized/wasm/spr/index_bg.wasm?url';
import { loadBullet, type BulletInstance, type BulletWasmLoader } from '../../../shared/physics/bullet';

export const webBulletLoader: BulletWasmLoader = {
  async wasmBytes() {
    const res = await fetch(wasmUrl);
    if (!res.ok) throw new Error(`Bullet's wasm could not be loaded (${res.status} ${wasmUrl})`);
    return new Uint8Array(await res.arrayBuffer());
  },
};

/** The page's (or worker's) one Bullet instance, loaded on first use. */
export function webBullet(): Promise<BulletInstance> {
  return loadBullet(webBulletLoader);
}
